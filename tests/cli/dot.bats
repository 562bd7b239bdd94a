#!/usr/bin/env bats
# cg-dot on interpreter-shaped profiles: cycles drawn as KCachegrind draws
# them, no node floating, no arc label over its caller's inclusive share,
# --root/--leaf errors, --strip and the label cap.  The figures are derived
# by hand in each test, or by the checker below from cg-funcs's rows.
load common

dot_() { "$CG_BINDIR/cg-dot" "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
}

need_dot() { command -v dot >/dev/null || skip "graphviz is not installed"; }

# The graph's rules, checked against cg-funcs's rows of PROFILE, apart from
# cg-dot's code: every node without an edge from another node has no
# caller in the profile (a cycle: no arc from outside it); every arc
# labelled with a share has at most its caller's inclusive share; every
# arc within a cycle, or from a function to itself, is dashed and labelled
# with its calls alone.  Prints "NODES EDGES DASHED CYCLENODES".
check_graph() { # check_graph DOT PROFILE [cg-dot options...]
    local g=$1 p=$2
    funcs -H "$p" > "$T/rows"  # with the <cycle N> rows
    funcs -H -c "$p" > "$T/arcs"
    funcs -T -H "$p" | cut -f2 > "$T/total"
    python3 - "$g" "$T/rows" "$T/arcs" "$T/total" <<'PY'
import re, sys
dot, rows, arcs, total = (open(f, encoding="utf-8").read() for f in sys.argv[1:])
total = int(total)
def tsv(s):  # cg-tsv's escapes
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m.group(1), m.group(1)), s)
def dotstr(s):  # a DOT string, by its \n-separated lines
    return [re.sub(r"\\(.)", r"\1", x) for x in s.split("\\n")]
func, cyc = {}, {}
for line in rows.splitlines():
    ob, fl, fn, called, cycle, self_, incl = map(tsv, line.split("\t"))
    if fn.startswith("<cycle ") and ob == "" and fl == "":
        cyc[int(cycle)] = int(incl)
    else:
        func[(fn, fl, ob)] = (int(cycle or 0), int(incl))
callers = {}  # key -> callers other than itself; "<cycle N>" -> from outside
for line in arcs.splitlines():
    f = list(map(tsv, line.split("\t")))
    a, b = (f[2], f[1], f[0]), (f[5], f[4], f[3])
    if a != b:
        callers.setdefault(b, set()).add(a)
    ca, cb = func[a][0], func[b][0]
    if cb and ca != cb:
        callers.setdefault("<cycle %d>" % cb, set()).add(a)
S = r'"((?:[^"\\]|\\.)*)"'
node = {}  # id -> (key, cycle, incl)
for m in re.finditer(r"^\tn(\d+) \[label=" + S + ", tooltip=" + S, dot, re.M):
    tip = dotstr(m.group(3))
    if tuple(tip) in func:
        node[m.group(1)] = (tuple(tip),) + func[tuple(tip)]
    else:
        n = int(re.fullmatch(r"<cycle (\d+)>", tip[0]).group(1))
        node[m.group(1)] = (tip[0], n, cyc[n])
entered, dashed, edges = set(), 0, 0
for m in re.finditer(r"^\tn(\d+) -> n(\d+) \[label=" + S + "(.*)$", dot, re.M):
    a, b, label, rest = m.groups()
    edges += 1
    if a != b:
        entered.add(b)
    inner = a == b or (node[a][1] and node[a][1] == node[b][1])
    if inner:
        assert "style=dashed" in rest and re.fullmatch(r"\d+×", label), m.group(0)
        dashed += 1
    if "%" in label:
        share = float(label.split("%")[0])
        assert share <= float("%.2f" % (100 * node[a][2] / total)), m.group(0)
for i, (key, _, _) in node.items():
    assert i in entered or not callers.get(key), ("floats", key)
print(len(node), edges, dashed, sum(1 for v in node.values() if isinstance(v[0], str)))
PY
}

@test "cg-dot: a cycle entered at a member under the threshold is drawn to <cycle N>" {
    # main calls a (cost 580) and x (100); a and b call each other (a
    # cycle), b calls c.  Self: main 10, a 5, b 400, c 175, x 100; total
    # 690.  As cg-funcs counts: a 5 (0.72%, under -N 1), b 400 + 175 =
    # 575 (83.33%), the cycle 405 self (58.70%) and 580 inclusive (84.06%).
    cat > "$T/c.cg" <<'CG'
events: Ir
fn=main
1 10
cfn=a
calls=1 1
1 580
cfn=x
calls=1 1
1 100
fn=a
1 5
cfn=b
calls=2 1
1 575
fn=b
1 400
cfn=a
calls=1 1
1 300
cfn=c
calls=3 1
1 175
fn=c
1 175
fn=x
1 100
CG
    run -0 dot_ -N 1 "$T/c.cg"
    [ "$(grep -c '^	n[0-9]* \[label=' <<< "$output")" -eq 5 ]
    grep -qF 'n0 [label="b\n83.33%\n(57.97%)\n2×"' <<< "$output"
    grep -qF 'n4 [label="<cycle 1>\n2 functions: a, b\n84.06%\n(58.70%)\n1×", tooltip="<cycle 1>\na\nb", style="filled,dashed"' <<< "$output"
    # main -> a is drawn to the cycle, with its share; the calls between b
    # and the rest of the cycle dashed, with their counts alone
    grep -qF 'n2 -> n4 [label="84.06%\n1×"' <<< "$output"
    grep -qF 'n4 -> n0 [label="2×", style=dashed' <<< "$output"
    grep -qF 'n0 -> n4 [label="1×", style=dashed' <<< "$output"
    grep -qF 'n0 -> n1 [label="25.36%\n3×"' <<< "$output"
    grep -qF 'n2 -> n3 [label="14.49%\n1×"' <<< "$output"
    [ "$(grep -c -- ' -> ' <<< "$output")" -eq 5 ]
    dot_ -N 1 "$T/c.cg" > "$T/c.dot"
    run -0 check_graph "$T/c.dot" "$T/c.cg"
    [ "$output" = "5 5 2 1" ]
    # every member drawn: no cycle node, a -> b and b -> a dashed
    run -0 dot_ -N 0 "$T/c.cg"
    no_line 'cycle 1' <<< "$output"
    grep -qF 'n0 -> n1 [label="2×", style=dashed' <<< "$output"
    grep -qF 'n1 -> n0 [label="1×", style=dashed' <<< "$output"
    # without cycle detection a is a function like any other
    run -0 dot_ -N 1 --no-cycles "$T/c.cg"
    no_line 'cycle 1' <<< "$output"
}

@test "cg-dot: a recursive call is labelled with its count, not a share over 100%" {
    # f's call to itself costs 150, more than f's 100 inclusive (90.91%
    # of 110): drawn dashed with 3 calls.
    printf 'events: Ir\nfn=main\n1 10\ncfn=f\ncalls=1 1\n1 100\nfn=f\n1 40\ncfn=f\ncalls=3 1\n1 150\ncfn=g\ncalls=4 1\n1 60\nfn=g\n1 60\n' > "$T/r.cg"
    run -0 dot_ "$T/r.cg"
    grep -qF 'n0 [label="f\n90.91%\n(36.36%)\n4×"' <<< "$output"
    grep -qF 'n0 -> n0 [label="3×", style=dashed' <<< "$output"
    grep -qF 'n0 -> n1 [label="54.55%\n4×"' <<< "$output"
    grep -qF 'n2 -> n0 [label="90.91%\n1×"' <<< "$output"
    no_line '136.36%' <<< "$output"
    # an arc dearer than its caller (a profile that says so) shows no share
    printf 'events: Ir\nfn=main\n1 10\ncfn=h\ncalls=1 1\n1 5\nfn=h\n1 5\ncfn=k\ncalls=2 1\n1 50\nfn=k\n1 50\n' > "$T/o.cg"
    run -0 dot_ "$T/o.cg"
    grep -qF 'n0 -> n1 [label="2×", style=dashed' <<< "$output"
}

@test "cg-dot: a node whose callers are under the thresholds keeps the heaviest" {
    # main (1) calls p (30), q (30) and r (40); p and q (1 each) call m
    # (29 each); m 58, r 40: total 101.  With -N 50 only main (100%) and
    # m (57.43%) pass; m's callers p and q tie at 29, p comes first by
    # name and is kept, with main -> p (29.70%) and p -> m (28.71%).
    printf 'events: Ir\nfn=main\n1 1\ncfn=p\ncalls=1 1\n1 30\ncfn=q\ncalls=1 1\n1 30\ncfn=r\ncalls=1 1\n1 40\nfn=p\n1 1\ncfn=m\ncalls=1 1\n1 29\nfn=q\n1 1\ncfn=m\ncalls=1 1\n1 29\nfn=r\n1 40\nfn=m\n1 58\n' > "$T/k.cg"
    run -0 dot_ -N 50 "$T/k.cg"
    [ "$(sed -n 's/^\tn[0-9]* \[label="\([^\\]*\).*/\1/p' <<< "$output" | tr '\n' ' ')" = "m main p " ]
    grep -qF 'n1 -> n2 [label="29.70%\n1×"' <<< "$output"
    grep -qF 'n2 -> n0 [label="28.71%\n1×"' <<< "$output"
    [ "$(grep -c -- ' -> ' <<< "$output")" -eq 2 ]
    # every node drawn, no arc reaching -E 50: each keeps its heaviest
    # edge (main -> p, q, r; p -> m)
    run -0 dot_ -N 0 -E 50 "$T/k.cg"
    [ "$(grep -c -- ' -> ' <<< "$output")" -eq 4 ]
    grep -qF 'n2 -> n0 [label="28.71%\n1×"' <<< "$output"
    dot_ -N 50 "$T/k.cg" > "$T/k.dot"
    run -0 check_graph "$T/k.dot" "$T/k.cg"
    [ "$output" = "3 2 0 0" ]
}

@test "cg-dot: --root and --leaf that name no function are errors" {
    printf 'events: Ir\nfn=main\n1 10\ncfn=f\ncalls=1 1\n1 5\nfn=f\n1 5\n' > "$T/s.cg"
    run -2 --separate-stderr dot_ --root nosuch "$T/s.cg"
    [ "$stderr" = "cg-dot: --root: no function 'nosuch' in the input" ]
    [ -z "$output" ]
    run -2 --separate-stderr dot_ --leaf main --leaf 'f x' "$T/s.cg"
    [ "$stderr" = "cg-dot: --leaf: no function 'f x' in the input" ]
    [ -z "$output" ]
    run -2 --separate-stderr dot_ --root a --leaf b "$T/s.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    [ "${stderr_lines[1]}" = "cg-dot: --leaf: no function 'b' in the input" ]
    # a named function is drawn whatever its cost: f is 33.33%, under -N 50
    run -0 dot_ -N 50 --root f "$T/s.cg"
    [ "$(grep -c '^	n[0-9]* \[label=' <<< "$output")" -eq 1 ]
    grep -qF 'n0 [label="f\n33.33%\n(33.33%)\n1×"' <<< "$output"
    run -0 dot_ --leaf f "$T/s.cg"
    [ "$(grep -c '^	n[0-9]* \[label=' <<< "$output")" -eq 2 ]
}

@test "cg-dot: --strip and --max-label; the whole name in the tooltip, escaped" {
    need_dot
    long=$(printf 'x%.0s' $(seq 100))
    acc=$(printf '\xc3\xa9%.0s' $(seq 30))
    printf 'events: Ir\nfn=std::vector<int, std::allocator<int> >::push_back(int const&)\n1 5\ncfn=a "q" \\l <b> (y) const\ncalls=1 1\n1 3\nfn=a "q" \\l <b> (y) const\n1 3\ncfn=%s\ncalls=1 1\n1 1\nfn=%s\n1 1\ncfn=%s\ncalls=1 1\n1 1\nfn=%s\n1 1\ncfn=(below main)\ncalls=1 1\n1 1\nfn=(below main)\n1 1\n' \
        "$long" "$long" "$acc" "$acc" > "$T/n.cg"
    run -0 dot_ --strip -N 0 "$T/n.cg"
    grep -qF 'label="std::vector::push_back\n' <<< "$output"
    grep -qF 'tooltip="std::vector<int, std::allocator<int> >::push_back(int const&)\n\n"' <<< "$output"
    # (y) and the const after it, then <b>: the quote and backslash escaped
    grep -qF 'label="a \"q\" \\l \n' <<< "$output"
    grep -qF 'tooltip="a \"q\" \\l <b> (y) const\n\n"' <<< "$output"
    # nothing would be left of (below main): kept whole
    grep -qF 'label="(below main)\n' <<< "$output"
    # the default cap, 80 characters: 79 and an ellipsis, in lines of 40
    grep -qF "label=\"${long:0:40}\\n${long:0:39}…\\n" <<< "$output"
    grep -qF "tooltip=\"$long\\n" <<< "$output"
    # a cap in characters, never inside one: 9 of the 30 é and an ellipsis
    run -0 dot_ --max-label 10 -N 0 "$T/n.cg"
    grep -qF "label=\"${acc:0:9}…\\n" <<< "$output"
    grep -qF "tooltip=\"$acc\\n" <<< "$output"
    grep -qF 'label="std::vect…\n' <<< "$output"
    run -0 dot_ --max-label 0 -N 0 "$T/n.cg"
    grep -qF "label=\"${long:0:40}\\n${long:0:40}\\n${long:0:20}\\n" <<< "$output"
    dot_ --strip --max-label 5 -N 0 "$T/n.cg" | dot -Tsvg > "$T/n.svg"
    # std::vector::push_back cut to 4 characters; the whole name the title
    grep -qF '>std:…</text>' "$T/n.svg"
    grep -qF 'xlink:title="std::vector&lt;int, std::allocator&lt;int&gt; &gt;::push_back(int const&amp;)&#10;' "$T/n.svg"
    run -2 --separate-stderr dot_ --max-label x "$T/n.cg"
    [[ "${stderr_lines[0]}" == "cg-dot: --max-label x: expected a number"* ]]
}

@test "cg-dot: hostile names in a cycle node, its label and its tooltip" {
    need_dot
    # main (1) calls p "q" (cost 9); p "q" and <x>\l call each other,
    # self 1 and 8: as members, inclusive 1 (10.00%) and 8 (80.00%), under
    # -N 85; the cycle 9 of 10 (90.00%) is a node that stands for both.
    # --strip leaves \l of <x>\l
    printf 'events: Ir\nfn=main\n1 1\ncfn=p "q"\ncalls=1 1\n1 9\nfn=p "q"\n1 1\ncfn=<x>\\l\ncalls=1 1\n1 8\nfn=<x>\\l\n1 8\ncfn=p "q"\ncalls=2 1\n1 5\n' > "$T/h.cg"
    run -0 dot_ -N 85 --strip "$T/h.cg"
    grep -qF 'n1 [label="<cycle 1>\n2 functions: \\l, p \"q\"\n90.00%\n(90.00%)\n1×", tooltip="<cycle 1>\n<x>\\l\np \"q\"", style="filled,dashed"' <<< "$output"
    grep -qF 'n0 -> n1 [label="90.00%\n1×"' <<< "$output"
    [ "$(grep -c -- ' -> ' <<< "$output")" -eq 1 ]
    dot_ -N 85 "$T/h.cg" | dot -Tsvg > "$T/h.svg"
    grep -qF 'xlink:title="&lt;cycle 1&gt;&#10;&lt;x&gt;\l&#10;p &quot;q&quot;"' "$T/h.svg"
}

@test "cg-dot: a cProfile recording of a Python program" {
    need_dot
    command -v python3 >/dev/null || skip "python3 is not installed"
    python3 "$TESTS_DIR/programs/cprofile2cg.py" "$T/cp.cg" "$TESTS_DIR/programs/interp.py" > /dev/null
    dot_ "$T/cp.cg" > "$T/cp.dot"
    dot -Tsvg "$T/cp.dot" > /dev/null
    run -0 check_graph "$T/cp.dot" "$T/cp.cg"
    read -r nodes edges dashed _ <<< "$output"
    # sorted -> weight -> order -> sorted is a cycle; fact calls itself
    [ "$nodes" -ge 10 ]
    [ "$dashed" -ge 3 ]
    grep -qF 'label="fact\n' "$T/cp.dot"
    grep -qE '^	n([0-9]+) -> n\1 \[label="[0-9]+×", style=dashed' "$T/cp.dot"
    [ "$edges" -ge "$nodes" ]
    dot_ -N 0 -E 0 "$T/cp.cg" > "$T/all.dot"
    run -0 check_graph "$T/all.dot" "$T/cp.cg"
}

# bats test_tags=valgrind
@test "cg-dot: a Callgrind recording of the Python interpreter" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    [ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
    need_dot
    valgrind -q --tool=callgrind --callgrind-out-file="$T/py.cg" \
        /usr/bin/python3 "$TESTS_DIR/programs/interp.py" > /dev/null
    dot_ "$T/py.cg" > "$T/py.dot"
    dot -Tsvg "$T/py.dot" > /dev/null
    run -0 check_graph "$T/py.dot" "$T/py.cg"
    read -r nodes edges dashed cycles <<< "$output"
    # the interpreter's eval loop is one cycle of many functions, drawn
    # as a <cycle N> node for the members under the threshold
    [ "$nodes" -ge 20 ]
    [ "$dashed" -ge 1 ]
    [ "$cycles" -ge 1 ]
    [ "$edges" -ge "$nodes" ]
    dot_ --strip -N 2 "$T/py.cg" > "$T/py2.dot"
    run -0 check_graph "$T/py2.dot" "$T/py.cg"
}
