#!/usr/bin/env bats
# cg-dot and cg-fold: Graphviz accepts every graph, the figures are
# cg-funcs's to the unit, stacks conserve every self cost exactly, and
# both are deterministic and bounded.
load common

dot_() { "$CG_BINDIR/cg-dot" "$@"; }
fold() { "$CG_BINDIR/cg-fold" "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows

setup() {
    T=$BATS_TEST_TMPDIR
    EX=$TESTS_DIR/../examples/hanoi.callgrind
}

need_dot() { command -v dot >/dev/null || skip "graphviz is not installed"; }

# The first label line of each node, sorted, on one line.
node_names() {
    sed -n 's/^\tn[0-9]* \[label="\([^"\\]*\).*/\1/p' | LC_ALL=C sort | tr "\n" " "
}

# The self cost per function of the folded stacks (by their last frame)
# against cg-funcs's, for event column 6 of cg-funcs -H; prints the
# functions that differ, and the two totals.
conserved() { # conserved PROFILE [cg-funcs/cg-fold options...]
    local p=$1
    shift
    fold "$@" "$p" > "$T/folded"
    funcs -H "$@" "$p" | awk -F'\t' '{ s[$3] += $6 } END { for (k in s) if (s[k]) print k "\t" s[k] }' | sort > "$T/want"
    awk '{ n = $NF; sub(/ [0-9]+$/, ""); k = split($0, f, ";"); s[f[k]] += n }
         END { for (k in s) print k "\t" s[k] }' "$T/folded" | sort > "$T/got"
    diff "$T/want" "$T/got"
}

@test "cg-fold: every function's self cost, exactly, on the example and the corpus" {
    conserved "$EX"
    [ "$(awk '{ s += $NF } END { print s }' "$T/folded")" -eq \
      "$(funcs -T -H "$EX" | cut -f2)" ]
    n=0
    for f in "$CORPUS"/valgrind/*.callgrind "$CORPUS"/thirdparty/*; do
        case $f in *.tsv|*.txt) continue ;; esac
        validate --compat --no-limits "$f" 2>/dev/null || continue
        conserved "$f" --compat --no-limits 2>/dev/null
        n=$((n + 1))
    done
    [ "$n" -ge 20 ]
}

@test "cg-fold: paths from the roots, shared by arc cost, recursion cut" {
    cat > "$T/g.cg" <<'CG'
events: Ir
fn=main
1 2
cfn=a
calls=1 1
1 30
cfn=b
calls=1 1
1 70
fn=a
1 10
cfn=c
calls=1 1
1 20
fn=b
1 10
cfn=c
calls=3 1
1 60
fn=c
1 80
cfn=c
calls=5 1
1 500
CG
    run -0 fold "$T/g.cg"
    # c's 80 shared by its callers' arcs: a 20, b 60 (of 80); its call to
    # itself is not followed
    [ "$output" = "$(printf 'main 2\nmain;a 10\nmain;a;c 20\nmain;b 10\nmain;b;c 60')" ]
    run -0 fold -q file "$T/g.cg"
    [ "${lines[0]}" = ":main 2" ]
}

@test "cg-fold: a cycle no root reaches starts at its members, none wider than the calls into it; ; and % are escaped" {
    # x;y and z% call each other, nobody else calls them: the cycle's 7
    # would draw z% (called with 4) or x;y (with 3) wider than the calls
    # into it at a single root, so each is a root for what its calls in
    # carry: z% 4, x;y 3, and neither stack holds the other
    printf 'events: Ir\nfn=r\n1 5\nfn=x;y\n1 3\ncfn=z%%\ncalls=1 1\n1 4\nfn=z%%\n1 4\ncfn=x;y\ncalls=1 1\n1 3\n' > "$T/u.cg"
    run -0 fold "$T/u.cg"
    [ "$output" = "$(printf 'r 5\nx%%3By 3\nz%%25 4')" ]
    # a root of the cycle enters at z%, which its calls in leave room for
    printf 'fn=m\n1 1\ncfn=z%%\ncalls=1 1\n1 7\n' >> "$T/u.cg"
    run -0 fold "$T/u.cg"
    [ "$output" = "$(printf 'm 1\nm;z%%25 4\nm;z%%25;x%%3By 3\nr 5')" ]
}

@test "cg-fold: a path too thin to follow still keeps every figure" {
    # main -> a (arc 100) -> b (40), c (20); b -> d (10).  With
    # --min-share 50 b's path (40 of 100) is too thin to share out in
    # proportion: it ends as soon as b's self cost lets it, and what is
    # left goes on by the arcs; b, c and d stay under a, not roots
    printf 'events: A\nfn=main\n1 0\ncfn=a\ncalls=1 1\n1 100\nfn=a\n1 40\ncfn=b\ncalls=1 1\n1 40\ncfn=c\ncalls=2 1\n1 20\nfn=b\n1 30\ncfn=d\ncalls=1 1\n1 10\nfn=c\n1 20\nfn=d\n1 10\n' > "$T/cut.cg"
    run -0 fold "$T/cut.cg"
    [ "$output" = "$(printf 'main;a 40\nmain;a;b 30\nmain;a;b;d 10\nmain;a;c 20')" ]
    run -0 fold --min-share 50 "$T/cut.cg"
    [ "$output" = "$(printf 'main;a 40\nmain;a;b 30\nmain;a;b;d 10\nmain;a;c 20')" ]
    # called by two, the paths into it thin: shared by the arcs' cost
    printf 'events: A\nfn=main\n1 0\ncfn=p\ncalls=1 1\n1 50\ncfn=q\ncalls=1 1\n1 50\nfn=p\n1 20\ncfn=s\ncalls=1 1\n1 30\nfn=q\n1 40\ncfn=s\ncalls=1 1\n1 10\nfn=s\n1 40\n' > "$T/two.cg"
    run -0 fold --min-share 45 "$T/two.cg"
    [ "$output" = "$(printf 'main;p 20\nmain;p;s 30\nmain;q 40\nmain;q;s 10')" ]
    # f is called by c1 (arc 1) and by c2 (1000000), which only c3 calls
    # back: the cycle c2/c3 is a root, at c2, f's cost follows both arcs
    # and main carries no more than its inclusive 101
    printf 'events: Ir\nfn=main\n1 1\ncfn=c1\ncalls=1 1\n1 100\nfn=c1\n1 99\ncfn=f\ncalls=1 1\n1 1\nfn=f\n1 1000001\nfn=c2\n1 10\ncfn=f\ncalls=1 1\n1 1000000\ncfn=c3\ncalls=1 1\n1 20\nfn=c3\n1 10\ncfn=c2\ncalls=1 1\n1 10\n' > "$T/late.cg"
    run -0 fold "$T/late.cg"
    [ "$output" = "$(printf 'c2 10\nc2;c3 10\nc2;f 1000000\nmain 1\nmain;c1 99\nmain;c1;f 1')" ]
}

@test "cg-fold: bounded on deep and exponential call graphs, counts kept" {
    # a chain 3000 deep, and 40 levels of two functions each calling both
    # of the next: 2^40 paths
    awk 'BEGIN { print "events: Ir"; for (i = 0; i < 3000; i++) { printf "fn=f%d\n1 1\ncfn=f%d\ncalls=1 1\n1 %d\n", i, i + 1, 3000 - i } print "fn=f3000\n1 1" }' > "$T/deep.cg"
    run -0 timeout 20 "$CG_BINDIR/cg-fold" "$T/deep.cg"
    # f1023, the last frame kept, gets the 1977 under it, and says so
    [ "${lines[-1]}" = "cg-fold: warning: stacks deeper than --max-depth were cut, 1977 of the cost under their last frame kept given to it" ]
    stacks=$(sed '$d' <<< "$output")
    [ "$(awk '{ s += $NF } END { print s }' <<< "$stacks")" -eq 3001 ]
    [ "$(awk -F';' '{ if (NF > m) m = NF } END { print m }' <<< "$stacks")" -eq 1024 ]
    [ "$(tail -1 <<< "$stacks" | sed 's/.*;//')" = "f1023 1978" ]
    awk 'BEGIN { print "events: Ir"; print "fn=root\n1 1"; for (j = 0; j < 2; j++) printf "cfn=a0_%d\ncalls=1 1\n1 100\n", j;
                 for (i = 0; i < 40; i++) for (j = 0; j < 2; j++) { printf "fn=a%d_%d\n1 1\n", i, j; if (i < 39) for (k = 0; k < 2; k++) printf "cfn=a%d_%d\ncalls=1 1\n1 50\n", i + 1, k } }' > "$T/wide.cg"
    run -0 timeout 20 "$CG_BINDIR/cg-fold" --max-stacks 50000 "$T/wide.cg"
    [ "${#lines[@]}" -le 50081 ]
    [ "$(awk '{ s += $NF } END { print s }' <<< "$output")" -eq 81 ]
}

@test "cg-fold: the same input gives the same bytes, in any order of its parts" {
    a=$(fold "$EX" | md5sum)
    [ "$(fold "$EX" | md5sum)" = "$a" ]
}

@test "cg-dot: node and edge figures are cg-funcs's, to the unit" {
    dot_ -N 0 -E 0 "$EX" > "$T/g.dot"
    total=$(funcs -T -H "$EX" | cut -f2)
    # every node: name, inclusive %, (self %), called, as cg-funcs counts
    funcs -H "$EX" | awk -F'\t' -v t="$total" '{ printf "%s %.2f%% (%.2f%%) %d\n", $3, 100 * $7 / t, 100 * $6 / t, $4 }' | sort > "$T/want"
    sed -n 's/^\tn[0-9]* \[label="\([^"]*\)".*/\1/p' "$T/g.dot" |
        awk -F'\\\\n' '{ printf "%s %s %s %d\n", $1, $(NF-2), $(NF-1), $NF }' | sort > "$T/got"
    diff "$T/want" "$T/got"
    [ "$(wc -l < "$T/got")" -eq "$(funcs -H "$EX" | wc -l)" ]
    # every arc: inclusive % and calls, as cg-funcs -c; the calls alone
    # for an arc within a cycle, from a function to itself, or dearer than
    # its caller's inclusive cost
    funcs -H "$EX" | cut -f1-3,5,7 > "$T/keys"
    funcs -c -H "$EX" | awk -F'\t' -v t="$total" '
        NR == FNR { k = $1 FS $2 FS $3; cyc[k] = $4; inc[k] = $5; next }
        { a = $1 FS $2 FS $3; b = $4 FS $5 FS $6
          if (a == b || (cyc[a] != "" && cyc[a] == cyc[b]) || $8 > inc[a]) printf "%d×\n", $7
          else printf "%.2f%% %d\n", 100 * $8 / t, $7 }' "$T/keys" - | sort > "$T/want"
    sed -n 's/.* -> n[0-9]* \[label="\([^"]*\)".*/\1/p' "$T/g.dot" | awk -F'\\\\n' '{ if (NF == 1) print $1; else printf "%s %d\n", $1, $2 }' | sort > "$T/got"
    diff "$T/want" "$T/got"
    grep -q '×$' "$T/want"
}

@test "cg-dot: thresholds, --root, --leaf, --depth" {
    run -0 dot_ "$EX"
    nodes=$(grep -c '^	n[0-9]* \[' <<< "$output")
    # default: functions at 0.5% of the total or more
    want=$(funcs -H -e Ir -s Ir:incl -t 0.5 "$EX" | wc -l)
    [ "$nodes" -eq "$want" ]
    run -0 dot_ --root hanoi "$EX"
    [ "$(node_names <<< "$output")" = "hanoi hanoi'2 " ]
    run -0 dot_ --root main --depth 1 "$EX"
    [ "$(node_names <<< "$output")" = "_dl_runtime_resolve_xsave hanoi is_even main printf " ]
    run -0 dot_ --leaf is_even --depth 2 "$EX"
    [ "$(node_names <<< "$output")" = "(below main) is_even main " ]
    run -2 --separate-stderr dot_ --root nosuchfunction "$EX"
    [ "$stderr" = "cg-dot: --root: no function 'nosuchfunction' in the input" ]
    [ -z "$output" ]
}

@test "cg-dot: hostile names are escaped, Graphviz reads every graph" {
    need_dot
    printf 'events: Ir\nfn=a "quoted" \\\\l name\n1 5\ncfn=<b>|{c}\ncalls=1 1\n1 3\nfn=<b>|{c}\n1 3\ncfn=\xc3\xa9t\xc3\xa9 %s\ncalls=1 1\n1 1\nfn=\xc3\xa9t\xc3\xa9 %s\n1 1\n' \
        "$(printf 'x%.0s' $(seq 120))" "$(printf 'x%.0s' $(seq 120))" > "$T/h.cg"
    dot_ -N 0 -E 0 "$T/h.cg" > "$T/h.dot"
    grep -qF 'label="a \"quoted\" \\\\l name' "$T/h.dot"
    dot -Tsvg "$T/h.dot" > "$T/h.svg"
    grep -q '&lt;b&gt;|{c}' "$T/h.svg"
    grep -q 'étét\|été' "$T/h.svg"
    n=0
    for f in "$EX" "$CORPUS"/valgrind/*.callgrind "$CORPUS"/thirdparty/*; do
        case $f in *.tsv|*.txt) continue ;; esac
        validate --compat --no-limits "$f" 2>/dev/null || continue
        dot_ --compat --no-limits -N 0 -E 0 "$f" 2>/dev/null | dot -Tsvg > /dev/null
        n=$((n + 1))
    done
    [ "$n" -ge 20 ]
}

@test "cg-dot: the same input, the same bytes; errors as every command" {
    [ "$(dot_ "$EX" | md5sum)" = "$(dot_ "$EX" | md5sum)" ]
    run -2 --separate-stderr dot_ -N 101 "$EX"
    [[ "${stderr_lines[0]}" == "cg-dot: -N 101: expected a percentage from 0 to 100"* ]]
    run -2 --separate-stderr dot_ -e Nope "$EX"
    [ "$stderr" = "cg-dot: -e: event 'Nope' is not an event of the input" ]
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr dot_ "$T/bad.cg"
    [ -z "$output" ]
    run -1 --separate-stderr fold "$T/bad.cg"
    [ -z "$output" ]
}

# bats test_tags=valgrind
@test "a recording made here, drawn and folded" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    need_dot
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/h.cg" "$T/hanoi" > /dev/null
    dot_ "$T/h.cg" | dot -Tsvg > "$T/h.svg"
    grep -q '<svg' "$T/h.svg"
    grep -q '>main<' "$T/h.svg"
    conserved "$T/h.cg"
}
