#!/usr/bin/env bats
# cg-funcs: figures worked out by hand on small profiles, every option,
# every error path, and real recordings against callgrind_annotate.
load common

funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows
TAB=$'\t'

# main calls a and leaf; a and b call each other (a cycle); b calls leaf;
# main makes a calls=0 call to g (g was running when the dump was taken).
write_graph() {
    cat > "$1" <<'CG'
events: Ir Dr
fl=m.c
fn=main
1 5 1
cfn=a
calls=1 2
2 100 10
cfn=g
calls=0 3
3 30
fn=a
4 10 2
cfn=b
calls=2 5
5 90 8
fn=b
6 20 6
cfn=a
calls=1 7
7 50 3
cfn=leaf
calls=4 8
8 20
fn=leaf
9 20
fn=g
10 30
CG
}

@test "one row per function, sorted by the first event's inclusive cost" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -0 --separate-stderr funcs "$BATS_TEST_TMPDIR/g.cg"
    [ -z "$stderr" ]
    [ "${lines[0]}" = "ob${TAB}fl${TAB}fn${TAB}called${TAB}cycle${TAB}Ir${TAB}Dr${TAB}Ir:incl${TAB}Dr:incl" ]
    # main: self 5, incl 5 + 100 + 30 (the calls=0 arc too) = 135
    [ "${lines[1]}" = "${TAB}m.c${TAB}main${TAB}0${TAB}${TAB}5${TAB}1${TAB}135${TAB}11" ]
    # b: in cycle 1 with a: self 20 + the arc to leaf 20 leaves the cycle
    [ "${lines[2]}" = "${TAB}m.c${TAB}b${TAB}2${TAB}1${TAB}20${TAB}6${TAB}40${TAB}6" ]
    # g: never called with a count: self 30 plus no arcs out
    [ "${lines[3]}" = "${TAB}m.c${TAB}g${TAB}0${TAB}${TAB}30${TAB}0${TAB}30${TAB}0" ]
    [ "${lines[4]}" = "${TAB}m.c${TAB}leaf${TAB}4${TAB}${TAB}20${TAB}0${TAB}20${TAB}0" ]
    # a: in the cycle, nothing leaves it: self only
    [ "${lines[5]}" = "${TAB}m.c${TAB}a${TAB}2${TAB}1${TAB}10${TAB}2${TAB}10${TAB}2" ]
    [ "${#lines[@]}" -eq 6 ]
}

@test "--no-cycles: KCachegrind's sums of the arcs in" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -0 funcs --no-cycles -e Ir "$BATS_TEST_TMPDIR/g.cg"
    # a: the arcs in from main (100) and b (50); b: from a (90)
    grep -qx "${TAB}m.c${TAB}a${TAB}2${TAB}${TAB}10${TAB}150" <<< "$output"
    grep -qx "${TAB}m.c${TAB}b${TAB}2${TAB}${TAB}20${TAB}90" <<< "$output"
}

@test "the cycle's row by default, as KCachegrind shows it: its members' sums and the calls entering it; -C leaves it out" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -0 "$CG_BINDIR/cg-funcs" -H -e Ir "$BATS_TEST_TMPDIR/g.cg"
    # a (10) and b (20) are cycle 1: self 30; what leaves it, b -> leaf
    # 20, makes 50; main's one call enters it
    grep -qx "${TAB}${TAB}<cycle 1>${TAB}1${TAB}1${TAB}30${TAB}50" <<< "$output"
    # among the functions by inclusive cost: main 135, the cycle 50, b 40
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "main <cycle 1> b g leaf a " ]
    run -0 "$CG_BINDIR/cg-funcs" -C -H -e Ir "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "main b g leaf a " ]
    run -0 "$CG_BINDIR/cg-funcs" --no-cycle-rows -H -e Ir "$BATS_TEST_TMPDIR/g.cg"
    no_line '<cycle' <<< "$output"
    # no cycle row without cycles, per part, or among the arcs
    for opt in --no-cycles -p -c; do
        run -0 "$CG_BINDIR/cg-funcs" "$opt" -H "$BATS_TEST_TMPDIR/g.cg"
        no_line '<cycle' <<< "$output"
    done
}

@test "the self column adds up to the cost records, and -T prints the totals" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -0 funcs -T "$BATS_TEST_TMPDIR/g.cg"
    [ "$output" = "$(printf 'event\ttotal\nIr\t85\nDr\t9')" ]
    sum=$(funcs -H "$BATS_TEST_TMPDIR/g.cg" | awk -F '\t' '{ s += $6 } END { print s }')
    [ "$sum" -eq 85 ]
}

@test "-c: one row per arc, summed over call sites" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    printf 'fn=main\n11 1\ncfn=a\ncalls=3 12\n12 7\n' >> "$BATS_TEST_TMPDIR/g.cg"
    run -0 funcs -c -e Ir "$BATS_TEST_TMPDIR/g.cg"
    [ "${lines[0]}" = "ob${TAB}fl${TAB}fn${TAB}cob${TAB}cfl${TAB}cfn${TAB}calls${TAB}Ir:incl" ]
    [ "${lines[1]}" = "${TAB}m.c${TAB}main${TAB}${TAB}m.c${TAB}a${TAB}4${TAB}107" ]
    [ "${#lines[@]}" -eq 6 ]
    run -0 funcs -c -s calls -H -n 1 "$BATS_TEST_TMPDIR/g.cg"
    [ "$output" = "${TAB}m.c${TAB}b${TAB}${TAB}m.c${TAB}leaf${TAB}4${TAB}20${TAB}0" ]
}

@test "-s, -n and -t choose, cut and keep the order" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -0 funcs -H -s Ir -n 2 "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "g b " ]
    run -0 funcs -H -s Dr:incl "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "main b a g leaf " ]
    run -0 funcs -H -s called "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | head -1)" = "leaf" ]
    # total Ir 85: 20 is 23.529...%, 30 is 35.29...%
    run -0 funcs -H -s Ir -t 23.52 "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "g b leaf " ]
    run -0 funcs -H -s Ir -t 23.53 "$BATS_TEST_TMPDIR/g.cg"
    [ "$(cut -f3 <<< "$output" | tr '\n' ' ')" = "g " ]
    run -0 funcs -H -t 0 "$BATS_TEST_TMPDIR/g.cg"
    [ "${#lines[@]}" -eq 5 ]
}

@test "ties are broken by name, so the output is the same every time" {
    printf 'events: Ir\nfn=b\n1 1\nfn=c\n1 1\nfn=a\n1 1\nfl=z.c\nfn=a\n1 1\n' > "$BATS_TEST_TMPDIR/t.cg"
    run -0 funcs -H "$BATS_TEST_TMPDIR/t.cg"
    [ "$(cut -f2,3 <<< "$output" | tr '\t\n' ': ')" = ":a z.c:a :b :c " ]
}

@test "-p: rows per part; of several inputs, each named, its parts numbered in it" {
    write_profile "$BATS_TEST_TMPDIR/p.cg"
    cp "$BATS_TEST_TMPDIR/p.cg" "$BATS_TEST_TMPDIR/q.cg"
    run -0 funcs -p -e Ir "$BATS_TEST_TMPDIR/p.cg"
    [ "${lines[0]}" = "part${TAB}ob${TAB}fl${TAB}fn${TAB}called${TAB}cycle${TAB}Ir${TAB}Ir:incl" ]
    [ "${lines[1]}" = "1${TAB}/bin/prog${TAB}main.c${TAB}main${TAB}0${TAB}${TAB}8${TAB}20" ]
    # part 2 sets no ob= or fl=: its main is another function
    [ "${lines[3]}" = "2${TAB}${TAB}${TAB}main${TAB}0${TAB}${TAB}1${TAB}1" ]
    [ "${#lines[@]}" -eq 4 ]
    cd "$BATS_TEST_TMPDIR"
    run -0 funcs -p -e Ir p.cg q.cg
    [ "${lines[0]}" = "file${TAB}part${TAB}ob${TAB}fl${TAB}fn${TAB}called${TAB}cycle${TAB}Ir${TAB}Ir:incl" ]
    [ "${lines[1]}" = "p.cg${TAB}1${TAB}/bin/prog${TAB}main.c${TAB}main${TAB}0${TAB}${TAB}8${TAB}20" ]
    [ "${lines[3]}" = "p.cg${TAB}2${TAB}${TAB}${TAB}main${TAB}0${TAB}${TAB}1${TAB}1" ]
    [ "${lines[4]}" = "q.cg${TAB}1${TAB}/bin/prog${TAB}main.c${TAB}main${TAB}0${TAB}${TAB}8${TAB}20" ]
    [ "${lines[6]}" = "q.cg${TAB}2${TAB}${TAB}${TAB}main${TAB}0${TAB}${TAB}1${TAB}1" ]
    [ "${#lines[@]}" -eq 7 ]
    run -0 funcs -p -T -H p.cg
    [ "$output" = "$(printf '1\tIr\t20\n1\tDr\t1\n2\tIr\t1\n2\tDr\t0')" ]
    run -0 funcs -p -T p.cg q.cg
    [ "${lines[0]}" = "file${TAB}part${TAB}event${TAB}total" ]
    [ "${lines[5]}" = "q.cg${TAB}1${TAB}Ir${TAB}20" ]
    [ "${lines[8]}" = "q.cg${TAB}2${TAB}Dr${TAB}0" ]
}

@test "several inputs are the parts of one profile; events matched by name" {
    write_profile "$BATS_TEST_TMPDIR/p.cg"
    printf 'events: Dr Xx\nob=/bin/prog\nfl=main.c\nfn=main\n1 4 9\n' > "$BATS_TEST_TMPDIR/q.cg"
    run -0 funcs "$BATS_TEST_TMPDIR/p.cg" - < "$BATS_TEST_TMPDIR/q.cg"
    [ "${lines[0]}" = "ob${TAB}fl${TAB}fn${TAB}called${TAB}cycle${TAB}Ir${TAB}Dr${TAB}Xx${TAB}Ir:incl${TAB}Dr:incl${TAB}Xx:incl" ]
    # main: Ir 8 + 0, Dr 1 + 4, Xx 0 + 9; incl: 20, 3 + 4, 9
    [ "${lines[1]}" = "/bin/prog${TAB}main.c${TAB}main${TAB}0${TAB}${TAB}8${TAB}5${TAB}9${TAB}20${TAB}7${TAB}9" ]
}

@test "an invalid input: its diagnostic, no output at all, exit 1" {
    write_profile "$BATS_TEST_TMPDIR/p.cg"
    printf 'events: Ir\nfn=f\n1 x\n' > "$BATS_TEST_TMPDIR/bad.cg"
    run -1 --separate-stderr funcs "$BATS_TEST_TMPDIR/p.cg" "$BATS_TEST_TMPDIR/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$BATS_TEST_TMPDIR/bad.cg:3: syntax: "* ]]
    run -2 --separate-stderr funcs "$BATS_TEST_TMPDIR/p.cg" "$BATS_TEST_TMPDIR/missing.cg"
    [ -z "$output" ]
    [ "$stderr" = "cg-funcs: $BATS_TEST_TMPDIR/missing.cg: No such file or directory" ]
}

@test "a self cost summed over UInt64 is a Resource error at its line" {
    printf 'events: Ir\nfn=f\n1 18446744073709551615\n2 1\n' > "$BATS_TEST_TMPDIR/o.cg"
    run -1 --separate-stderr funcs "$BATS_TEST_TMPDIR/o.cg"
    [ -z "$output" ]
    [ "$stderr" = "$BATS_TEST_TMPDIR/o.cg:4: resource: self cost of a function summed over UInt64" ]
}

@test "usage errors say what is wrong, exit 2, print nothing on stdout" {
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -2 --separate-stderr funcs -e Nope "$BATS_TEST_TMPDIR/g.cg"
    [ "$stderr" = "cg-funcs: -e: event 'Nope' is not an event of the input" ]
    run -2 --separate-stderr funcs -e Ir,Ir "$BATS_TEST_TMPDIR/g.cg"
    [ "$stderr" = "cg-funcs: -e: event 'Ir' named twice" ]
    run -2 --separate-stderr funcs -s fn "$BATS_TEST_TMPDIR/g.cg"
    [[ "$stderr" == "cg-funcs: -s fn: no such column"* ]]
    run -2 --separate-stderr funcs -e Dr -s Ir "$BATS_TEST_TMPDIR/g.cg"
    [[ "$stderr" == "cg-funcs: -s Ir: no such column"* ]]
    run -2 --separate-stderr funcs -t 101 "$BATS_TEST_TMPDIR/g.cg"
    [[ "$stderr" == "cg-funcs: -t 101: expected a percentage from 0 to 100"* ]]
    run -2 --separate-stderr funcs -t 1.2345678 "$BATS_TEST_TMPDIR/g.cg"
    run -2 --separate-stderr funcs -t 5 -s called "$BATS_TEST_TMPDIR/g.cg"
    [ "${stderr_lines[0]}" = "cg-funcs: -t: the sort column must be an event's" ]
    [[ "${stderr_lines[1]}" == "usage: cg-funcs "* ]]
    run -2 --separate-stderr funcs -n x "$BATS_TEST_TMPDIR/g.cg"
    [ "${stderr_lines[0]}" = "cg-funcs: -n x: expected a number of rows" ]
    run -2 --separate-stderr funcs --bogus "$BATS_TEST_TMPDIR/g.cg"
    [ -z "$output" ]
}

@test "--help, --version, and a failed write" {
    run -0 funcs --help
    [[ "${lines[0]}" == "usage: cg-funcs "* ]]
    run -0 funcs --version
    [[ "$output" == "cg-funcs (cgprof) "* ]]
    write_graph "$BATS_TEST_TMPDIR/g.cg"
    run -2 --separate-stderr funcs "$BATS_TEST_TMPDIR/g.cg" ">" /dev/full
    run -2 --separate-stderr bash -c '"$0" "$1" > /dev/full' "$CG_BINDIR/cg-funcs" "$BATS_TEST_TMPDIR/g.cg"
    [[ "$stderr" == "cg-funcs: write error: "* ]]
}

@test "names are escaped as in cg-tsv" {
    printf 'events: Ir\nfn=a\tb\\c\n1 1\n' > "$BATS_TEST_TMPDIR/e.cg"
    run -0 funcs -H "$BATS_TEST_TMPDIR/e.cg"
    [ "$output" = "${TAB}${TAB}a\\tb\\\\c${TAB}0${TAB}${TAB}1${TAB}1" ]
}

@test "shipped valgrind corpus: self totals equal callgrind_annotate's, sums equal the records" {
    n=0
    for f in "$CORPUS"/valgrind/*.callgrind; do
        b=${f%.callgrind}
        validate --no-limits "$f" 2>/dev/null || continue
        run -0 "$TESTS_DIR/annotate/funcs.sh" "$CG_BINDIR" "$f" "$b.annotate-self.txt"
        [[ "${lines[-1]}" == "compared "*" functions" ]]
        [ "${#lines[@]}" -eq 1 ]
        n=$((n + 1))
    done
    [ "$n" -ge 5 ]
}

@test "a jump recording under --compat: the jumps change no figure (callgrind_annotate's self totals)" {
    f=$CORPUS/valgrind/v21-hanoi-jumps.callgrind
    run -1 validate "$f"
    CG_COMPAT=1 run -0 "$TESTS_DIR/annotate/funcs.sh" "$CG_BINDIR" "$f" "${f%.callgrind}.annotate-self.txt"
    [ "${#lines[@]}" -eq 1 ]
    [ "$(echo "${lines[0]}" | cut -d' ' -f2)" -gt 100 ]
    # every jump line (jump=, jcnd=, jfi=, jfn=) is counted in the warning
    n=$(grep -cE '^(jump|jcnd|jfi|jfn)=' "$f")
    first=$(grep -nE '^(jump|jcnd|jfi|jfn)=' "$f" | head -1 | cut -d: -f1)
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" --compat -T "$f"
    [ "$stderr" = "$f:$first: warning: jump lines (--collect-jumps): skipped, no figure changes ($n lines)" ]
    # the total is the summary: line's, as without jumps
    [ "$(cut -f2 <<< "${lines[1]}")" = "$(sed -n 's/^summary: //p' "$f")" ]
}

# Recordings made here, with the options that change what the numbers
# mean: separate recursion levels, many parts, threads as files.
record_and_compare() { # NAME PROGRAM [valgrind options...]
    local name=$1 prog=$2 T=$BATS_FILE_TMPDIR
    shift 2
    valgrind -q --tool=callgrind --callgrind-out-file="$T/$name.cg" "$@" "$prog" > /dev/null
    for f in "$T/$name".cg*; do
        [ -s "$f" ] || continue
        (cd "$T" && callgrind_annotate --auto=no --inclusive=no --threshold=100 "$f") > "$T/listing"
        run -0 "$TESTS_DIR/annotate/funcs.sh" "$CG_BINDIR" "$f" "$T/listing"
        [ "${#lines[@]}" -eq 1 ]
        [[ "${lines[0]}" == "compared "*" functions" ]]
        [ "$(echo "${lines[0]}" | cut -d' ' -f2)" -gt 5 ]
    done
}

setup_file() {
    if command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null; then
        cc -g -O0 -o "$BATS_FILE_TMPDIR/hanoi" "$TESTS_DIR/programs/hanoi.c"
        cc -g -O0 -pthread -o "$BATS_FILE_TMPDIR/threads" "$TESTS_DIR/programs/threads.c"
    fi
}

need_valgrind() {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
}

# bats test_tags=valgrind
@test "recorded: a recursive program with --separate-recs=4" {
    need_valgrind
    record_and_compare recs "$BATS_FILE_TMPDIR/hanoi" --separate-recs=4
    # hanoi recurses into itself: its levels are one cycle or self calls,
    # and every function's incl is at least its self
    run -0 funcs -H -e Ir "$BATS_FILE_TMPDIR/recs.cg"
    awk -F '\t' '$7 < $6 { print; bad = 1 } END { exit bad }' <<< "$output"
}

# bats test_tags=valgrind
@test "recorded: --dump-every-bb with --combine-dumps (many parts)" {
    need_valgrind
    record_and_compare everybb "$BATS_FILE_TMPDIR/hanoi" --combine-dumps=yes --dump-every-bb=20000
    parts=$(funcs -p -T -H "$BATS_FILE_TMPDIR/everybb.cg" | cut -f1 | sort -u | wc -l)
    [ "$parts" -gt 1 ]
    # summed over parts, per part: the same self totals
    a=$(funcs -H -e Ir "$BATS_FILE_TMPDIR/everybb.cg" | awk -F '\t' '{ s += $6 } END { print s }')
    b=$(funcs -p -H -e Ir "$BATS_FILE_TMPDIR/everybb.cg" | awk -F '\t' '{ s += $7 } END { print s }')
    [ "$a" -eq "$b" ]
}

# bats test_tags=valgrind
@test "recorded: --separate-threads=yes, the thread files as one profile" {
    need_valgrind
    record_and_compare thr "$BATS_FILE_TMPDIR/threads" --separate-threads=yes
    run -0 funcs -T -H "$BATS_FILE_TMPDIR"/thr.cg-*
    whole=$(cut -f2 <<< "$output")
    sum=0
    for f in "$BATS_FILE_TMPDIR"/thr.cg-*; do
        sum=$((sum + $(funcs -T -H "$f" | cut -f2)))
    done
    [ "$whole" -eq "$sum" ]
}

@test "any size by default: a profile over the records limit is read; --limit still imposes one" {
    # 250,000 cost lines over 1,000 functions: past the records limit
    # (200,000) that cg-validate keeps
    awk 'BEGIN { print "events: A"; for (i = 0; i < 250000; i++) printf "fn=f%d\n1 1\n", i % 1000 }' > "$T/big.cg"
    run -1 validate "$T/big.cg"
    run -0 "$CG_BINDIR/cg-funcs" -T -H "$T/big.cg"
    [ "$output" = "$(printf 'A\t250000')" ]
    run -0 "$CG_BINDIR/cg-fold" "$T/big.cg"
    [ "${#lines[@]}" -eq 1000 ]
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" -T --limit records=1000 "$T/big.cg"
    [ "$stderr" = "$T/big.cg:2003: resource: record count over the records limit of 1000 (raise it with --limit records=N or --no-limits)" ]
}

@test "an empty file among several (Valgrind's callgrind.out.PID beside --separate-threads files) is skipped with a warning" {
    write_graph "$BATS_TEST_TMPDIR/g.cg-02"
    : > "$BATS_TEST_TMPDIR/g.cg"
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" -T -H "$BATS_TEST_TMPDIR"/g.cg*
    [ "$output" = "$(printf 'Ir\t85\nDr\t9')" ]
    [ "$stderr" = "$BATS_TEST_TMPDIR/g.cg:0: warning: empty input: skipped" ]
    # alone, or when every one is empty, it is no profile
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" "$BATS_TEST_TMPDIR/g.cg"
    [ "$stderr" = "$BATS_TEST_TMPDIR/g.cg:0: syntax: no profile: the input holds no header or body line" ]
    : > "$BATS_TEST_TMPDIR/h.cg"
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" "$BATS_TEST_TMPDIR/g.cg" "$BATS_TEST_TMPDIR/h.cg"
    [ "${stderr_lines[1]}" = "$BATS_TEST_TMPDIR/h.cg:0: syntax: no profile: the input holds no header or body line" ]
    [ -z "$output" ]
}

# pprof --callgrind's shape: samples in malloc (3) outnumber those of the
# calls into it (1), and malloc calls mmap (2).  KCachegrind takes the
# calls in (1); cg-funcs never goes below the self cost: 3 + 2.
@test "inclusive is never below self: a function whose calls in carry less than its self cost" {
    local T=$BATS_TEST_TMPDIR
    cat > "$T/pp.cg" <<'CG'
events: Hits
fl=(1) a.c
fn=(1) main
5 4
cfl=(2) malloc.c
cfn=(2) malloc
calls=1 6
6 1
fl=(2)
fn=(2)
7 3
cfn=(3) mmap
calls=1 8
8 2
CG
    run -0 funcs -H "$T/pp.cg"
    [ "${lines[0]}" = "${TAB}a.c${TAB}main${TAB}0${TAB}${TAB}4${TAB}5" ]
    [ "${lines[1]}" = "${TAB}malloc.c${TAB}malloc${TAB}1${TAB}${TAB}3${TAB}5" ]
    [ "${lines[2]}" = "${TAB}malloc.c${TAB}mmap${TAB}1${TAB}${TAB}0${TAB}2" ]
    [ "${#lines[@]}" -eq 3 ]
    # per part the same
    run -0 funcs -H -p "$T/pp.cg"
    [[ "$output" == *"${TAB}malloc${TAB}1${TAB}${TAB}3${TAB}5"* ]]
}

# Valgrind with --skip-direct-rec=no --separate-recs=1 records the static
# startup code, (below main) calling (below main), as one function that
# calls only itself: a root, whose inclusive cost is its self cost and its
# calls to others, worked out here from the file itself.
# bats test_tags=valgrind
@test "a recording of (below main) calling itself: inclusive is its self and its calls out" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    local T=$BATS_TEST_TMPDIR
    printf 'int main(void) { return 0; }\n' > "$T/m.c"
    cc -static -O0 -o "$T/m" "$T/m.c" 2>/dev/null || skip "no static C library"
    valgrind -q --tool=callgrind --skip-direct-rec=no --separate-recs=1 \
        --compress-strings=no --compress-pos=no \
        --callgrind-out-file="$T/m.cg" "$T/m"
    want=$(python3 - "$T/m.cg" <<'PY'
import sys
fn = cfn = None
self_ = into = out = 0
arc = False
for line in open(sys.argv[1]):
    line = line.rstrip('\n')
    if line.startswith('fn='):
        fn = line[3:]
    elif line.startswith('cfn='):
        cfn = line[4:]
    elif line.startswith('calls='):
        arc = True
    elif line[:1].isdigit():
        cost = int(line.split()[1])
        if arc:
            if fn == '(below main)' and cfn != fn:
                out += cost
            if cfn == '(below main)' and fn != cfn:
                into += cost
            arc = False
        elif fn == '(below main)':
            self_ += cost
assert into == 0 and self_ > 0 and out > 0, (into, self_, out)
print(self_, self_ + out)
PY
)
    run -0 funcs -H "$T/m.cg"
    got=$(printf '%s\n' "$output" | awk -F'\t' '$3 == "(below main)" { print $6, $7 }')
    [ -n "$want" ]
    [ "$got" = "$want" ]
    # it called itself: KCachegrind's rule would have given 0
    run -0 "$CG_BINDIR/cg-funcs" -c "$T/m.cg"
    printf '%s\n' "$output" | awk -F'\t' '$3 == "(below main)" && $6 == "(below main)" && $7 > 0 { n++ } END { exit n == 0 }'
}
