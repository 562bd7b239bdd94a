#!/usr/bin/env bats
# cg-diff and cg-flame --diff match functions by one rule (object, file
# and name, after --mod-ob, --mod-fl, --mod-fn) and give one hint of an
# object renamed between two builds: two builds recorded here under other
# names, and hand-made pairs for the bounds of the hint.
load common

diff_() { "$CG_BINDIR/cg-diff" "$@"; }
flame() { "$CG_BINDIR/cg-flame" "$@"; }
TAB=$'\t'

setup() {
    T=$BATS_TEST_TMPDIR
}

# A profile of object $2 (a path) whose file f.c holds the functions
# named after it, each of self cost 10, called by main once: $1 the file.
write_lib() {
    local out=$1 ob=$2 fn
    shift 2
    {
        echo "events: Ir"
        echo "ob=/bin/prog"
        echo "fl=main.c"
        echo "fn=main"
        echo "1 1"
        for fn in "$@"; do
            echo "cob=$ob"
            echo "cfi=f.c"
            echo "cfn=$fn"
            echo "calls=1 1"
            echo "1 10"
        done
        echo "ob=$ob"
        echo "fl=f.c"
        for fn in "$@"; do
            echo "fn=$fn"
            echo "1 10"
        done
    } > "$out"
}

# Both commands' stderr on OLD NEW (options before them): the same lines
# but for the command's name, which the test gets in $hint.
same_hint() {
    run -0 --separate-stderr diff_ "$@"
    hint=${stderr//cg-diff: /}
    run -0 --separate-stderr flame --diff "$@"
    [ "${stderr//cg-flame: /}" = "$hint" ]
}

@test "the hint: more than half of OLD's object's functions, by file and name" {
    write_lib "$T/old4.cg" /a/libold.so f1 f2 f3 f4
    # half of four: no hint
    write_lib "$T/half.cg" /b/libnew.so f1 f2 x3 x4
    same_hint "$T/old4.cg" "$T/half.cg"
    [ -z "$hint" ]
    # three of four: the hint, and its rule pairs them
    write_lib "$T/three.cg" /b/libnew.so f1 f2 f3 x4
    same_hint "$T/old4.cg" "$T/three.cg"
    [ "$hint" = "hint: object libold.so of OLD pairs with nothing; libnew.so of NEW holds 3 of its 4 functions (by file and name): --mod-ob 's/libold\.so\$/libnew.so/' pairs them" ]
    run -0 diff_ -a -H --mod-ob 's/libold\.so$/libnew.so/' "$T/old4.cg" "$T/three.cg"
    [ "$(grep -c "^same${TAB}libnew.so${TAB}f.c${TAB}f[123]${TAB}" <<< "$output")" -eq 3 ]
    # two of three is more than half; a file of another name holds none
    write_lib "$T/old3.cg" /a/libold.so f1 f2 f3
    same_hint "$T/old3.cg" "$T/three.cg"
    [[ "$hint" == *"libnew.so of NEW holds 3 of its 3 functions"* ]]
    write_lib "$T/two.cg" /b/libnew.so f1 f2 y3 y4
    same_hint "$T/old3.cg" "$T/two.cg"
    [[ "$hint" == *"holds 2 of its 3 functions"* ]]
    sed 's/^fl=f.c/fl=g.c/; s/^cfi=f.c/cfi=g.c/' "$T/two.cg" > "$T/other-file.cg"
    same_hint "$T/old3.cg" "$T/other-file.cg"
    [ -z "$hint" ]
    # one function of one: "function"
    write_lib "$T/old1.cg" /a/libold.so f1
    same_hint "$T/old1.cg" "$T/two.cg"
    [[ "$hint" == *"holds 1 of its 1 function (by file and name)"* ]]
    # --quiet: none
    run -0 --separate-stderr diff_ --quiet "$T/old4.cg" "$T/three.cg"
    [ -z "$stderr" ]
    run -0 --separate-stderr flame --quiet --diff "$T/old4.cg" "$T/three.cg"
    [ -z "$stderr" ]
}

@test "the hint: the most held, then the first name; none where the rule would do more" {
    write_lib "$T/old.cg" /a/libold.so f1 f2 f3
    # two objects hold two each: the first name in byte order
    write_lib "$T/b.cg" /b/libz.so f1 f2
    write_lib "$T/c.cg" /b/liby.so f1 f2 f3
    # new.cg: libz holds f1 f2, liby f1 f2 f3 (three: the most)
    { cat "$T/b.cg"; grep -v '^events' "$T/c.cg"; } > "$T/new.cg"
    same_hint "$T/old.cg" "$T/new.cg"
    [[ "$hint" == *"liby.so of NEW holds 3 of its 3 functions"* ]]
    write_lib "$T/c2.cg" /b/liby.so f1 f2
    { cat "$T/b.cg"; grep -v '^events' "$T/c2.cg"; } > "$T/tie.cg"
    same_hint "$T/old.cg" "$T/tie.cg"
    [[ "$hint" == *"liby.so of NEW holds 2 of its 3 functions"* ]]
    # the object is in NEW too (by other files): no rename pairs it
    write_lib "$T/also.cg" /a/libold.so g1
    { cat "$T/c.cg"; grep -v '^events' "$T/also.cg"; } > "$T/both.cg"
    same_hint "$T/old.cg" "$T/both.cg"
    [ -z "$hint" ]
    # another object's name ends in OLD's: s/libold.so$/ would rename it
    write_lib "$T/x.cg" /a/xlibold.so h1
    { cat "$T/old.cg"; grep -v '^events' "$T/x.cg"; } > "$T/old-x.cg"
    { cat "$T/c.cg"; grep -v '^events' "$T/x.cg"; } > "$T/new-x.cg"
    same_hint "$T/old-x.cg" "$T/new-x.cg"
    [ -z "$hint" ]
    # the user's renames come first: the hint is of their names
    same_hint --mod-ob 's/libold/libmid/' "$T/old.cg" "$T/new.cg"
    [[ "$hint" == "hint: object libmid.so of OLD pairs with nothing; liby.so of NEW"* ]]
}

@test "the hint's rule is escaped for the expression and the shell, and pairs them" {
    write_lib "$T/old.cg" "/a/lib+it's.so" f1 f2
    write_lib "$T/new.cg" "/b/new&it.so" f1 f2
    same_hint "$T/old.cg" "$T/new.cg"
    [[ "$hint" == *": --mod-ob 's/lib\\+it'\\''s\\.so\$/new\\&it.so/' pairs them" ]]
    # the rule as the shell reads the hint's words
    rule=${hint#*--mod-ob }
    rule=${rule% pairs them}
    eval "set -- $rule"
    run -0 --separate-stderr diff_ -a -H --mod-ob "$1" "$T/old.cg" "$T/new.cg"
    [ -z "$stderr" ]
    [ "$(grep -c "^same${TAB}new&it.so${TAB}f.c${TAB}f[12]${TAB}" <<< "$output")" -eq 2 ]
    [ "$(wc -l <<< "$output")" -eq 3 ]
}

# OLD: main calls work (in lib/x.c); NEW: main calls labour (in y.c),
# twice the cost.
write_moved() {
    printf 'events: Ir\nfl=main.c\nfn=main\n1 1\ncfi=/src/%s\ncfn=%s\ncalls=1 1\n1 %s\nfl=/src/%s\nfn=%s\n1 %s\n' \
        "$2" "$3" "$4" "$2" "$3" "$4" > "$1"
}

# The title of each frame named $2 in the SVG $1, one a line.
titles() {
    python3 - "$1" "$2" <<'PY'
import re, sys
svg = open(sys.argv[1], encoding='utf-8').read()
for m in re.finditer(r'<title>([^<]*)</title>', svg):
    t = m.group(1)
    if t.split('\n')[0] == sys.argv[2]:
        print(t.replace('\n', '|'))
PY
}

@test "--mod-fl and --mod-fn: cg-flame --diff matches by file and name, as cg-diff" {
    write_moved "$T/old.cg" lib/x.c work 100
    write_moved "$T/new.cg" y.c labour 200
    # unmatched: each on its side alone
    flame --diff "$T/old.cg" "$T/new.cg" > "$T/a.svg"
    [ "$(titles "$T/a.svg" work)" = "work|Ir: old 100, new 0, change -100 (-100.00%), only in OLD|self: old 100, new 0" ]
    [ "$(titles "$T/a.svg" labour)" = "labour|Ir: old 0, new 200, change +200 (new), only in NEW|self: old 0, new 200" ]
    # the name alone: two frames still, the files differ (cg-diff: two rows)
    flame --diff --mod-fn 's/^work$/labour/' "$T/old.cg" "$T/new.cg" > "$T/b.svg"
    [ "$(titles "$T/b.svg" labour | wc -l)" -eq 2 ]
    run -0 diff_ -H --mod-fn 's/^work$/labour/' "$T/old.cg" "$T/new.cg"
    [ "$(grep -c "${TAB}labour${TAB}" <<< "$output")" -eq 2 ]
    # file and name: one frame, 100 -> 200, as cg-diff's one row
    flame --diff --mod-fn 's/^work$/labour/' --mod-fl 's/x\.c$/y.c/' "$T/old.cg" "$T/new.cg" > "$T/c.svg"
    [ "$(titles "$T/c.svg" labour)" = "labour|Ir: old 100, new 200, change +100 (+100.00%)|self: old 100, new 200" ]
    run -0 diff_ -H --mod-fn 's/^work$/labour/' --mod-fl 's/x\.c$/y.c/' "$T/old.cg" "$T/new.cg"
    [ "$(grep -c "${TAB}labour${TAB}" <<< "$output")" -eq 1 ]
    [[ "$output" == *"changed${TAB}${TAB}y.c${TAB}labour${TAB}1${TAB}1${TAB}100${TAB}200${TAB}100${TAB}100.00${TAB}100${TAB}200${TAB}"* ]]
    # -q file names the frame by the renamed file
    flame -q file --diff --mod-fn 's/^work$/labour/' --mod-fl 's/x\.c$/y.c/' "$T/old.cg" "$T/new.cg" > "$T/d.svg"
    [ "$(titles "$T/d.svg" y.c:labour)" = "y.c:labour|Ir: old 100, new 200, change +100 (+100.00%)|self: old 100, new 200" ]
}

@test "cg-flame's renames: usage errors" {
    write_moved "$T/old.cg" x.c work 100
    run -2 --separate-stderr flame --mod-ob 's/a/b/' "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --mod-ob, --mod-fl, --mod-fn: only with --diff of two profiles, not of folded stacks" ]
    [[ "${stderr_lines[1]}" == "usage: cg-flame "* ]]
    [ -z "$output" ]
    printf 'a;b 1\n' > "$T/s.fold"
    run -2 --separate-stderr flame --folded --diff --mod-fn 's/a/b/' "$T/s.fold" "$T/s.fold"
    [ "${stderr_lines[0]}" = "cg-flame: --mod-ob, --mod-fl, --mod-fn: only with --diff of two profiles, not of folded stacks" ]
    run -2 --separate-stderr flame --diff --mod-fn 's/a/b' "$T/old.cg" "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --mod-fn 's/a/b': expected s/RE/REPLACEMENT/ or s/RE/REPLACEMENT/g" ]
    run -2 --separate-stderr flame --diff --mod-fl 's/(/b/' "$T/old.cg" "$T/old.cg"
    [[ "${stderr_lines[0]}" == "cg-flame: --mod-fl 's/(/b/': "?* ]]
    run -2 --separate-stderr flame --diff --mod-ob 's/a/b/x' "$T/old.cg" "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --mod-ob 's/a/b/x': expected s/RE/REPLACEMENT/ or s/RE/REPLACEMENT/g" ]
    run -2 --separate-stderr flame --diff --mod-ob "$T/old.cg" "$T/old.cg"
    [ -z "$output" ]
}

# The frames (-q file) and the rows of the functions of sort.c: for each
# name, OLD and NEW summed over its frames, how many frames hold both
# sides, and cg-funcs' inclusive cost of OLD's and NEW's; prints what
# differs.  $1 OLD $2 NEW $3 SVG $4 1 if they must pair, 0 if not.
check_sort() {
    "$CG_BINDIR/cg-funcs" -C -e Ir "$1" > "$T/fo.tsv"
    "$CG_BINDIR/cg-funcs" -C -e Ir "$2" > "$T/fn.tsv"
    python3 - "$T/fo.tsv" "$T/fn.tsv" "$3" "$4" <<'PY'
import collections, re, sys
def incl(path):
    rows = [l.split('\t') for l in open(path).read().splitlines()[1:]]
    return {r[2]: int(r[6]) for r in rows if r[1].endswith('/sort.c')}
old, new = incl(sys.argv[1]), incl(sys.argv[2])
assert set(old) == set(new) == {'main', 'fill', 'sort', 'swap', 'check'}, (old, new)
svg = open(sys.argv[3], encoding='utf-8').read()
drawn = collections.defaultdict(lambda: [0, 0, 0])
for m in re.finditer(r'<title>sort\.c:(\w+)\nIr: old (\d+), new (\d+)', svg):
    d = drawn[m.group(1)]
    d[0] += int(m.group(2))
    d[1] += int(m.group(3))
    d[2] += int(m.group(2)) > 0 and int(m.group(3)) > 0
must = sys.argv[4] == '1'
bad = 0
for fn in sorted(old):
    o, n, both = drawn[fn]
    if (o, n) != (old[fn], new[fn]) or (both > 0) != must:
        print(fn, 'drawn', o, n, 'frames of both sides', both,
              'cg-funcs', old[fn], new[fn])
        bad = 1
sys.exit(bad)
PY
}

# bats test_tags=valgrind
@test "recorded: two builds of other names pair alike in cg-diff and cg-flame --diff, and the hint names the rule" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    cc -g -O0 -o "$T/sort_base" "$TESTS_DIR/programs/sort.c"
    cc -g -O0 -DSLOW -o "$T/sort_new" "$TESTS_DIR/programs/sort.c"
    (cd "$T" && valgrind -q --tool=callgrind --callgrind-out-file=old.cg ./sort_base > /dev/null)
    (cd "$T" && valgrind -q --tool=callgrind --callgrind-out-file=new.cg ./sort_new > /dev/null)
    o=$T/old.cg n=$T/new.cg
    # the functions of the program: OLD's in sort_base, NEW's in sort_new,
    # by file and name (cg-funcs); how many NEW holds
    read -r held all < <(python3 - "$o" "$n" "$CG_BINDIR/cg-funcs" <<'PY'
import os, subprocess, sys
def funcs(path, ob):
    out = subprocess.run([sys.argv[3], '-C', path], capture_output=True,
                         text=True, check=True).stdout.splitlines()[1:]
    return {(os.path.basename(r[1]), r[2]) for r in (l.split('\t') for l in out)
            if os.path.basename(r[0]) == ob}
a, b = funcs(sys.argv[1], 'sort_base'), funcs(sys.argv[2], 'sort_new')
print(len(a & b), len(a))
PY
)
    [ "$held" -ge 5 ]
    # without a rename nothing of the program pairs, in either command
    run -0 --separate-stderr diff_ -a -H "$o" "$n"
    [ "$(grep -c "^removed${TAB}sort_base${TAB}" <<< "$output")" -eq "$all" ]
    no_line -E "^(changed|same)${TAB}sort_(base|new)${TAB}" <<< "$output"
    hint="object sort_base of OLD pairs with nothing; sort_new of NEW holds $held of its $all functions (by file and name): --mod-ob 's/sort_base\$/sort_new/' pairs them"
    [ "$stderr" = "cg-diff: hint: $hint" ]
    run -0 --separate-stderr flame -q file --minwidth 0 --diff "$o" "$n"
    [ "$stderr" = "cg-flame: hint: $hint" ]
    echo "$output" > "$T/apart.svg"
    check_sort "$o" "$n" "$T/apart.svg" 0
    # D1 and D2 of the stack contract: the drawn changes are cg-diff's,
    # and no frame pairs what cg-diff does not
    python3 "$TESTS_DIR/stacks/contract.py" --diff "$CG_BINDIR" "$o" "$n"
    # with the hint's rule every function pairs, no hint, the figures are
    # cg-funcs' on both sides
    run -0 --separate-stderr diff_ -a -H --mod-ob 's/sort_base$/sort_new/' "$o" "$n"
    [ -z "$stderr" ]
    no_line -E "^(removed|added)${TAB}sort_(base|new)${TAB}" <<< "$output"
    [ "$(grep -cE "^(changed|same)${TAB}sort_new${TAB}" <<< "$output")" -eq "$all" ]
    run -0 --separate-stderr flame -q file --minwidth 0 --diff --mod-ob 's/sort_base$/sort_new/' "$o" "$n"
    [ -z "$stderr" ]
    echo "$output" > "$T/paired.svg"
    check_sort "$o" "$n" "$T/paired.svg" 1
    python3 "$TESTS_DIR/stacks/contract.py" --diff "$CG_BINDIR" "$o" "$n" --mod-ob 's/sort_base$/sort_new/'
    # the stack contract on both recordings
    python3 "$TESTS_DIR/stacks/contract.py" "$CG_BINDIR" "$o" "$n"
}
