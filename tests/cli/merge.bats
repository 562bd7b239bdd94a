#!/usr/bin/env bats
# cg-merge: many profiles summed into one profile, exactly, whatever the
# grouping, the order of reading or -j.
load common

merge() { "$CG_BINDIR/cg-merge" "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
    printf 'events: Ir\nfl=a.c\nfn=main\n1 10\ncfn=f\ncalls=2 5\n1 7\nfn=f\n5 7\n' > "$T/a.cg"
    printf 'events: Ir Dr\nfl=a.c\nfn=main\n1 3 1\nfn=g\n9 2 2\n' > "$T/b.cg"
}

# The corpus's files, each with the flag it is read with.
corpus_files() {
    local f
    for f in "$CORPUS"/valgrind/*.callgrind "$TESTS_DIR"/../examples/*.callgrind; do
        echo "$f"
    done
    for f in "$CORPUS"/thirdparty/*; do
        [ "${f##*/}" = SOURCES.tsv ] || echo "$f"
    done
}

# same_sums OUT [--compat] FILE...: OUT holds the sum of the FILEs' records
# (tests/merge/expect.py, apart from cg-merge's code)
same_sums() {
    local out=$1
    shift
    python3 "$TESTS_DIR/merge/expect.py" "$CG_BINDIR" "$@" > "$T/want" &&
        python3 "$TESTS_DIR/merge/expect.py" "$CG_BINDIR" "$out" > "$T/got" ||
        { echo "expect.py failed"; return 1; }
    diff "$T/want" "$T/got" | head -5
    cmp -s "$T/want" "$T/got"
}

# same_funcs OUT [--compat] FILE...: cg-funcs and cg-funcs -c of OUT are
# those of the FILEs read as parts, row for row
same_funcs() {
    local out=$1
    shift
    funcs --quiet --tsv "$@" > "$T/parts" && funcs --tsv "$out" > "$T/merged" ||
        { echo "cg-funcs failed"; return 1; }
    cmp -s "$T/parts" "$T/merged" || { echo "cg-funcs differs: $*"; diff "$T/parts" "$T/merged" | head -4; return 1; }
    funcs --quiet --tsv -c "$@" > "$T/parts" && funcs --tsv -c "$out" > "$T/merged"
    cmp -s "$T/parts" "$T/merged" || { echo "cg-funcs -c differs: $*"; return 1; }
}

@test "two profiles: every figure the sum, as worked out by hand" {
    run -0 --separate-stderr merge "$T/a.cg" "$T/b.cg"
    [ -z "$stderr" ]
    # main: 10 + 3 at line 1 (Dr 0 + 1); its call to f once, 7; f 7 at
    # line 5; g 2 2; the totals are the self costs: Ir 22, Dr 3
    [ "$output" = "version: 1
creator: cgprof $("$CG_BINDIR/cg-merge" --version | cut -d' ' -f3) (cg-merge)
part: 1
desc: Merged: 2 profiles
positions: line
events: Ir Dr
summary: 22 3
fl=(1) a.c
fn=(1) f
5 7
fn=(2) g
9 2 2
fn=(3) main
1 13 1
cfn=(1)
calls=2 5
1 7
totals: 22 3" ]
    merge "$T/a.cg" "$T/b.cg" | validate
}

@test "every corpus file merged alone: valid, the same records, the same cg-funcs" {
    mapfile -t files < <(corpus_files)
    run -0 python3 "$TESTS_DIR/merge/alone.py" "$CG_BINDIR" "$T" "${files[@]}"
    [ "$output" = "merged ${#files[@]}, skipped 0" ]
}

@test "every valid conformance case merged alone: valid, the same sums, the same cg-funcs" {
    # two parts whose positions (instr, line) share no kind
    local two=$CASES/035-header-after-body-new-part.cg
    run -1 --separate-stderr merge "$two"
    [ "$stderr" = "$two:5: unsupported: the positions of part 2 share no kind with those of the parts before it" ]
    local f files=()
    for f in "$CASES"/*.cg; do
        [ "$f" = "$two" ] || files+=("$f")
    done
    run -0 python3 "$TESTS_DIR/merge/alone.py" "$CG_BINDIR" "$T" "${files[@]}"
    [[ "$output" =~ ^merged\ ([0-9]+),\ skipped\ [0-9]+$ ]]
    [ "${BASH_REMATCH[1]}" -ge 20 ]
}

@test "the corpus merged at once: the same records, arcs and self costs as its parts" {
    mapfile -t files < <(corpus_files)
    run -0 --separate-stderr merge --compat -o "$T/all.cg" "${files[@]}"
    validate "$T/all.cg"
    same_sums "$T/all.cg" --compat "${files[@]}"
    funcs --quiet --tsv -c --compat "${files[@]}" > "$T/parts"
    funcs --tsv -c "$T/all.cg" > "$T/merged"
    cmp "$T/parts" "$T/merged"
    # self costs and counts (the columns before the first :incl); the
    # inclusive ones differ where a function is called in some inputs and
    # a root in others (cg-merge(1), CAVEATS), and so does the order of
    # the rows, by inclusive cost
    funcs --quiet --tsv --compat "${files[@]}" | cut -f1-19 | sort > "$T/parts"
    funcs --tsv "$T/all.cg" | cut -f1-19 | sort > "$T/merged"
    [ "$(funcs --tsv "$T/all.cg" | head -1 | cut -f19)" = "Memory" ]
    cmp "$T/parts" "$T/merged"
    # the events: the union, in the order first seen
    [ "$(grep '^events:' "$T/all.cg")" = "events: Ir Time_(10ns) Memory_(bytes) ms hits Time cpu(ms) Hits process_time Ticks ns wall_time Instructions Memory" ]
    grep -qx "desc: Merged: ${#files[@]} profiles" "$T/all.cg"
}

@test "any grouping, any -j, the same bytes; any order, the same records" {
    mapfile -t files < <(corpus_files)
    run -0 python3 "$TESTS_DIR/merge/groupings.py" "$CG_BINDIR" --compat "${files[@]}"
    [ "${lines[-1]}" = "10 passed, 0 failed" ]
}

@test "cg-annotate's figures of a merge are those of its inputs" {
    "$CG_BINDIR/cg-annotate" "$CORPUS/valgrind/v07-inline-default.callgrind" \
        "$CORPUS/valgrind/v23-inline-collect-atstart-no.callgrind" | sed 1,2d > "$T/parts"
    merge -o "$T/m.cg" "$CORPUS/valgrind/v07-inline-default.callgrind" \
        "$CORPUS/valgrind/v23-inline-collect-atstart-no.callgrind"
    "$CG_BINDIR/cg-annotate" "$T/m.cg" | sed 1,2d > "$T/merged"
    diff "$T/parts" "$T/merged"
}

@test "a merge of merges counts their profiles, and keeps a common cmd:" {
    printf 'cmd: ./app\nevents: Ir\nfn=x\n1 1\n' > "$T/c1.cg"
    printf 'cmd: ./app\nevents: Ir\nfn=x\n1 2\n' > "$T/c2.cg"
    printf 'cmd: ./other\nevents: Ir\nfn=x\n1 4\n' > "$T/c3.cg"
    merge -o "$T/m12.cg" "$T/c1.cg" "$T/c2.cg"
    grep -qx 'cmd: ./app' "$T/m12.cg"
    grep -qx 'desc: Merged: 2 profiles' "$T/m12.cg"
    merge -o "$T/m123.cg" "$T/m12.cg" "$T/c3.cg"
    grep -qx 'desc: Merged: 3 profiles' "$T/m123.cg"
    no_line '^cmd:' "$T/m123.cg"
    grep -qx '1 7' "$T/m123.cg"
    merge -o "$T/all.cg" "$T/c1.cg" "$T/c2.cg" "$T/c3.cg"
    cmp "$T/all.cg" "$T/m123.cg"
}

@test "positions: merged on those all inputs have, with a warning; none shared refuses the merge" {
    printf 'positions: instr line\nevents: Ir\nfn=x\n0x10 3 5\n0x14 3 6\n' > "$T/i.cg"
    printf 'events: Ir\nfn=x\n3 1\n' > "$T/l.cg"
    printf 'positions: instr\nevents: Ir\nfn=x\n0x10 9\n' > "$T/o.cg"
    run -0 --separate-stderr merge "$T/i.cg" "$T/l.cg"
    [ "$stderr" = "cg-merge: warning: positions differ: 'instr' dropped ($T/l.cg has none), the costs summed on the positions all inputs have" ]
    grep -qx 'positions: line' <<< "$output"
    # 5 + 6 + 1 at line 3
    grep -qx '3 12' <<< "$output"
    # none common to all: the merge is refused, in any order, with any -j,
    # naming for each kind the first input without it
    for order in "$T/l.cg $T/o.cg $T/i.cg" "$T/i.cg $T/o.cg $T/l.cg"; do
        for j in 1 3; do
            # shellcheck disable=SC2086 # the order's names have no spaces
            run -1 --separate-stderr merge --keep-going -j$j -o "$T/out.cg" $order
            [ -z "$output" ]
            [[ "$stderr" == "cg-merge: no position kind is common to all the inputs: 'instr' is not in $T/l.cg, 'line' is not in $T/o.cg" ]]
            [ ! -e "$T/out.cg" ]
        done
    done
    # two parts of one input that share none: that input is refused
    printf 'positions: instr\nevents: Ir\nfn=x\n0x10 9\npositions: line\nevents: Ir\nfn=x\n3 1\n' > "$T/two.cg"
    run -1 --separate-stderr merge --keep-going -o "$T/out.cg" "$T/two.cg" "$T/l.cg"
    [ "$stderr" = "$T/two.cg:5: unsupported: the positions of part 2 share no kind with those of the parts before it" ]
    cmp "$T/out.cg" <(merge "$T/l.cg")
    # --quiet: no warning, the same merge
    run -0 --separate-stderr merge --quiet "$T/i.cg" "$T/l.cg"
    [ -z "$stderr" ]
}

@test "an event described otherwise by two inputs: the first's kept, said once" {
    printf 'event: T : time in ms\nevents: T\nfn=x\n1 1\n' > "$T/d1.cg"
    printf 'event: T : time in us\nevents: T\nfn=x\n1 2\n' > "$T/d2.cg"
    run -0 --separate-stderr merge "$T/d1.cg" "$T/d2.cg"
    [ "$stderr" = "cg-merge: warning: 1 event is described otherwise by some inputs (first 'T'): the first input's description kept" ]
    grep -qx 'event: T : time in ms' <<< "$output"
    no_line 'us$' <<< "$output"
}

@test "the union of events may pass a reader's default 64: cg-validate reads it with --limit events=N" {
    # 40 events each, none shared: 80 in the merge, in the order first seen
    awk 'BEGIN { printf "events:"; for (i = 1; i <= 40; i++) printf " a%d", i; printf "\nfn=x\n1"; for (i = 1; i <= 40; i++) printf " %d", i; print "" }' > "$T/e1.cg"
    awk 'BEGIN { printf "events:"; for (i = 1; i <= 40; i++) printf " b%d", i; printf "\nfn=x\n1"; for (i = 1; i <= 40; i++) printf " %d", 100 + i; print "" }' > "$T/e2.cg"
    run -0 "$CG_BINDIR/cg-validate" "$T/e1.cg" "$T/e2.cg"
    run -0 merge -o "$T/m.cg" "$T/e1.cg" "$T/e2.cg"
    [ "$(grep '^events:' "$T/m.cg" | wc -w)" -eq 81 ]
    grep -q '^events: a1 .* a40 b1 .* b40$' "$T/m.cg"
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" "$T/m.cg"
    [[ "$stderr" == "$T/m.cg:"*": resource: event count over the events limit of 64 "* ]]
    run -1 "$CG_BINDIR/cg-validate" --limit events=79 "$T/m.cg"
    run -0 "$CG_BINDIR/cg-validate" --limit events=80 "$T/m.cg"
    # the figures: a40 is 40, b40 is 140, both at x's line 1
    run -0 "$CG_BINDIR/cg-tsv" --no-limits "$T/m.cg"
    [ "$(awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR == 2 { print $c["a40"], $c["b40"] }' <<< "$output")" = "40 140" ]
}

@test "a bad input refuses the whole merge, -o untouched; --keep-going skips it" {
    printf 'not a profile\n' > "$T/app.php"
    echo old > "$T/out.cg"
    run -1 --separate-stderr merge -o "$T/out.cg" "$T/a.cg" "$T/app.php" "$T/b.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/app.php:1: syntax: "* ]]
    [ "$(cat "$T/out.cg")" = old ]
    no_temp_in "$T"
    run -1 --separate-stderr merge --keep-going -o "$T/out.cg" "$T/a.cg" "$T/app.php" "$T/b.cg"
    [[ "$stderr" == "$T/app.php:1: syntax: "* ]]
    [ "${#stderr_lines[@]}" -eq 1 ]
    merge -o "$T/want.cg" "$T/a.cg" "$T/b.cg"
    cmp "$T/want.cg" "$T/out.cg"
    # every input refused: nothing to write
    run -1 --separate-stderr merge --keep-going "$T/app.php" "$T/app.php"
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
}

@test "--files-from: a line or a NUL a name, standard input too, with the operands" {
    mkdir "$T/d"
    cp "$T/a.cg" "$T/d/a b.cg"
    cp "$T/b.cg" "$T/d/b.cg"
    merge -o "$T/want.cg" "$T/d/a b.cg" "$T/d/b.cg"
    printf '%s\n' "$T/d/a b.cg" "$T/d/b.cg" > "$T/list"
    merge --files-from "$T/list" > "$T/got.cg"
    cmp "$T/want.cg" "$T/got.cg"
    find "$T/d" -name '*.cg' -print0 | sort -z | merge -0 --files-from - > "$T/got.cg"
    cmp "$T/want.cg" "$T/got.cg"
    printf '%s\n' "$T/d/b.cg" | merge --files-from - "$T/d/a b.cg" > "$T/got.cg"
    cmp "$T/want.cg" "$T/got.cg"
    run -2 --separate-stderr merge --files-from "$T/nowhere"
    [ "$stderr" = "cg-merge: $T/nowhere: No such file or directory" ]
    run -2 --separate-stderr merge -0 "$T/a.cg"
    [ "${stderr_lines[0]}" = "cg-merge: -0 goes with --files-from" ]
    run -2 --separate-stderr merge --files-from - - < "$T/list"
    [ "${stderr_lines[0]}" = "cg-merge: standard input named more than once" ]
    run -2 --separate-stderr merge - - < "$T/a.cg"
    [ "${stderr_lines[0]}" = "cg-merge: standard input named more than once" ]
    printf '%s\n%s\0%s\n' "$T/d/b.cg" "$T/a.cg" "$T/b.cg" > "$T/nul-list"
    run -2 --separate-stderr merge --files-from "$T/nul-list"
    [ "${stderr_lines[0]}" = "cg-merge: --files-from $T/nul-list: a name holds a NUL (-0 reads NUL-separated names)" ]
    : > "$T/empty-list"
    run -2 --separate-stderr merge --files-from "$T/empty-list"
    [ "${stderr_lines[0]}" = "cg-merge: --files-from $T/empty-list names no input" ]
}

@test "many inputs: their --compat warnings summed by kind, the first named" {
    local i
    for i in 1 2 3; do
        printf 'version: 0.9.6\nevents: Ir\nfn=x\n1 -%d\n' "$i" > "$T/x$i.cg"
    done
    run -0 --separate-stderr merge --compat "$T/x1.cg" "$T/x2.cg" "$T/x3.cg"
    [ "${stderr_lines[0]}" = "$T/x1.cg:1: warning: dotted version: read as version 1 (3 lines in 3 inputs)" ]
    [ "${stderr_lines[1]}" = "$T/x1.cg:4: warning: negative event cost: counted as 0 (3 lines in 3 inputs)" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
    # one input: its own lines, as every command says them
    run -0 --separate-stderr merge --compat "$T/x2.cg"
    [ "${stderr_lines[0]}" = "$T/x2.cg:1: warning: dotted version: read as version 1 (1 line)" ]
    run -0 --separate-stderr merge -q --compat "$T/x1.cg" "$T/x2.cg"
    [ -z "$stderr" ]
    # --quiet never silences an error
    run -1 --separate-stderr merge -q "$T/x1.cg"
    [[ "$stderr" == "$T/x1.cg:1: "* ]]
}

@test "empty inputs among several are skipped, as Valgrind leaves them" {
    : > "$T/empty.cg"
    run -0 --separate-stderr merge -o "$T/m.cg" "$T/a.cg" "$T/empty.cg"
    [ "$stderr" = "$T/empty.cg:0: warning: empty input: skipped" ]
    grep -qx 'desc: Merged: 1 profile' "$T/m.cg"
    run -1 --separate-stderr merge "$T/empty.cg" "$T/empty.cg"
    [ -z "$output" ]
    [ "${stderr_lines[2]}" = "cg-merge: no profile: every input is empty" ]
}

@test "--limit output=N bounds the merge's text; -q silences the empty-input warning" {
    run -1 --separate-stderr merge --limit output=10 "$T/a.cg"
    [ -z "$output" ]
    [[ "$stderr" == "<merge>:0: resource: "*"output"* ]]
    : > "$T/empty.cg"
    run -0 --separate-stderr merge -q -o "$T/m.cg" "$T/a.cg" "$T/empty.cg"
    [ -z "$stderr" ]
}

@test "cmd: kept when every input's parts that have one agree; event: the first part's" {
    printf 'cmd: ./app\nevents: Ir\nfn=x\n1 1\npart: 2\nevents: Ir\nfn=x\n1 1\n' > "$T/c1.cg"
    printf 'events: Ir\nfn=x\n1 1\npart: 2\ncmd: ./app\nevents: Ir\nfn=x\n1 1\n' > "$T/c2.cg"
    merge -o "$T/m.cg" "$T/c1.cg" "$T/c2.cg"
    grep -qx 'cmd: ./app' "$T/m.cg"
    printf 'event: T : first\nevents: T\nfn=x\n1 1\nevent: T : second\nevents: T\nfn=x\n1 1\n' > "$T/d.cg"
    run -0 --separate-stderr merge "$T/d.cg"
    grep -qx 'event: T : first' <<< "$output"
}

@test "--help, --version, usage errors" {
    run -0 merge --help
    [[ "${lines[0]}" == "usage: cg-merge [-o OUT] [--files-from LIST [-0]] [--keep-going]" ]]
    run -0 merge -V
    [[ "$output" == "cg-merge (cgprof) "* ]]
    run -2 --separate-stderr merge -Z
    [ "${stderr_lines[0]}" = "$CG_BINDIR/cg-merge: invalid option -- 'Z'" ]
}

# bats test_tags=valgrind
@test "fresh recordings (Valgrind, python3, Xdebug, Go): each alone and all at once" {
    command -v valgrind > /dev/null || skip "valgrind is not installed"
    sh "$TESTS_DIR/stacks/record.sh" "$T/rec" > "$T/list"
    mapfile -t files < "$T/list"
    run -0 python3 "$TESTS_DIR/merge/alone.py" "$CG_BINDIR" "$T" "${files[@]}"
    [ "$output" = "merged ${#files[@]}, skipped 0" ]
    merge --quiet --compat -o "$T/all.cg" "${files[@]}"
    same_sums "$T/all.cg" --compat "${files[@]}"
    run -0 python3 "$TESTS_DIR/merge/groupings.py" "$CG_BINDIR" --compat "${files[@]}"
    [ "${lines[-1]}" = "10 passed, 0 failed" ]
}

@test "a folder of Xdebug profiles, some gzip-compressed, merges as if all were plain" {
    local f
    mkdir "$T/x"
    for f in "$CORPUS"/thirdparty/*xdebug*; do
        cp "$f" "$T/x/${f##*/}"
    done
    merge --compat --quiet -o "$T/plain.cg" "$T"/x/*
    gzip "$T"/x/xdebug2*
    merge --compat --quiet -o "$T/gz.cg" "$T"/x/*
    cmp "$T/plain.cg" "$T/gz.cg"
    run -0 --separate-stderr merge --compat -o "$T/gz.cg" "$T"/x/*
    [[ "$stderr" == *"$T/x/xdebug294_wordpress-excerpt.out.gz:1: warning: gzip-compressed input: read decompressed (2 inputs)"* ]]
}

@test "a sum past UInt64 refuses the merge, with --keep-going too; an input's own overflow only skips it" {
    printf 'events: Ir\nfn=x\n1 18446744073709551615\n' > "$T/big.cg"
    printf 'events: Ir\nfn=x\n1 1\n' > "$T/one.cg"
    run -1 --separate-stderr merge "$T/big.cg" "$T/one.cg"
    [ -z "$output" ]
    [ "$stderr" = "$T/one.cg:0: resource: summed with the inputs before it, a cost passes UInt64" ]
    run -1 --separate-stderr merge --keep-going "$T/big.cg" "$T/one.cg" "$T/a.cg"
    [ -z "$output" ]
    [ "$stderr" = "$T/one.cg:0: resource: summed with the inputs before it, a cost passes UInt64" ]
    # the same line twice in one input: that input is refused, at its line
    printf 'events: Ir\nfn=x\n1 18446744073709551615\n1 1\n' > "$T/twice.cg"
    run -1 --separate-stderr merge --keep-going -o "$T/m.cg" "$T/twice.cg" "$T/a.cg"
    [ "$stderr" = "$T/twice.cg:4: resource: this cost summed with the same line's before it passes UInt64" ]
    merge -o "$T/want.cg" "$T/a.cg"
    cmp "$T/want.cg" "$T/m.cg"
}
