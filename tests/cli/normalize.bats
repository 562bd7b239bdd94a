#!/usr/bin/env bats
# cg-normalize: canonical output, round trips, preflight, -o atomicity.
load common

norm() { "$CG_BINDIR/cg-normalize" "$@"; }
tsv() { "$CG_BINDIR/cg-tsv" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/good.cg"
    printf 'events: A\nfn=f\n1 x\n' > "$T/bad.cg"
}

# normalize FILE [limits]: idempotent, valid, same records (cg-tsv) as FILE
round_trip() {
    local f=$1
    shift
    norm "$@" "$f" > "$T/n1" || { echo "normalize failed: $f"; return 1; }
    norm "$@" "$T/n1" > "$T/n2" || { echo "renormalize failed: $f"; return 1; }
    cmp -s "$T/n1" "$T/n2" || { echo "not idempotent: $f"; return 1; }
    validate "$@" "$T/n1" || { echo "output invalid: $f"; return 1; }
    tsv "$@" "$f" > "$T/t1" && tsv "$@" "$T/n1" > "$T/t2"
    cmp -s "$T/t1" "$T/t2" || { echo "records differ: $f"; return 1; }
}

@test "the canonical form of a small profile" {
    run -0 --separate-stderr norm "$T/good.cg"
    [ -z "$stderr" ]
    expected='version: 1
creator: test
pid: 7
cmd: ./prog --size=10
part: 1
positions: line
events: Ir Dr
summary: 20 1
ob=(1) /bin/prog
fl=(1) main.c
fn=(1) main
10 5 1
fi=(2) util.h
12 3
fe=(1)
cfn=(2) helper
calls=2 20
12 12 2
fn=(2)
20 12
totals: 20 1
part: 2
events: Ir
fn=(1)
1 1'
    [ "$output" = "$expected" ]
}

@test "round trip: every accepted conformance case" {
    n=0
    for f in "$CASES"/*.cg; do
        validate "$f" 2>/dev/null || continue
        if [ "$(basename "$f")" = 057-headers-4096.cg ]; then
            # part: would be its 4,097th header
            run -1 --separate-stderr norm "$f"
            [[ "$stderr" == "$f:1: resource: adding part: to part 1 would put it over the headers limit of 4096 "* ]]
            continue
        fi
        round_trip "$f"
        n=$((n + 1))
    done
    [ "$n" -ge 20 ]
}

@test "round trip: shipped corpus and generated limit cases" {
    for f in "$CORPUS"/valgrind/*.callgrind "$CORPUS"/thirdparty/*; do
        validate "$f" 2>/dev/null || continue
        round_trip "$f"
    done
    for g in 047-line-1Mi-ok 049-records-200000 053-budget-exactly-16Mi 059-ids-100000; do
        sh "$TESTS_DIR/conformance/gen/$g.sh" > "$T/$g.cg"
        round_trip "$T/$g.cg"
    done
}

@test "round trip: the shared corpus, with --no-limits for the large ones" {
    [ -n "${CGPROF_SHARED_CORPUS:-}" ] || skip "no shared corpus (cmake -DCGPROF_SHARED_CORPUS=DIR)"
    for f in "$CGPROF_SHARED_CORPUS"/valgrind/*.callgrind "$CGPROF_SHARED_CORPUS"/thirdparty/*; do
        case $f in *.tsv|*.txt) continue ;; esac
        validate --no-limits "$f" 2>/dev/null || continue
        round_trip "$f" --no-limits
    done
}

@test "callgrind_annotate prints the same totals for the profile and its normalized form" {
    command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
    for f in v07-inline-default v15-threads-separate-combined v19-hanoi-combine-everybb v28-inline-dumpbefore-part2 v30-threads-separate-thread2; do
        run -0 "$TESTS_DIR/annotate/same.sh" "$CG_BINDIR" "$CORPUS/valgrind/$f.callgrind"
    done
}

@test "KCachegrind's header order is kept: version: first, events: early, order unchanged" {
    for f in "$CORPUS/valgrind/v07-inline-default.callgrind" "$CORPUS/valgrind/v15-threads-separate-combined.callgrind" "$T/good.cg"; do
        norm "$f" > "$T/n.cg"
        # version: stays the first line where the input began with it
        if [ "$(grep -v '^#' "$f" | head -1 | cut -d: -f1)" = version ]; then
            [ "$(head -1 "$T/n.cg")" = "version: 1" ]
        fi
        # KCachegrind recognises the format by an events: line in the first 2 KB
        off=$(grep -b -m1 '^events:' "$T/n.cg" | cut -d: -f1)
        [ "$off" -lt 2047 ]
        # the header lines keep their order (part: aside, added where absent)
        diff <(grep -E '^[A-Za-z][A-Za-z0-9_-]*:' "$f" | grep -v '^part:' | cut -d: -f1) \
             <(grep -E '^[A-Za-z][A-Za-z0-9_-]*:' "$T/n.cg" | grep -v '^part:' | cut -d: -f1)
    done
    # the same number of parts, with thread: in each
    [ "$(grep -c '^part:' "$T/n.cg")" -eq 2 ]
    norm "$CORPUS/valgrind/v15-threads-separate-combined.callgrind" | grep -c '^thread:' | grep -qx 3
}

@test "empty parts are kept, each with part:" {
    printf 'events: A\ntotals: 0\nevents: B\nfn=f\n1 1\npart: x\nevents: C\n' > "$T/e.cg"
    run -0 norm "$T/e.cg"
    [ "$output" = "$(printf 'part: 1\nevents: A\ntotals: 0\npart: 2\nevents: B\nfn=(1) f\n1 1\npart: x\nevents: C')" ]
}

@test "an invalid input: the diagnostic, exit 1, nothing written" {
    run -1 --separate-stderr norm "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
}

@test "output preflight: at the exact length accepted, one under refused at line 0" {
    n=$(norm "$T/good.cg" | wc -c)
    run -0 norm --limit output=$n "$T/good.cg"
    run -1 --separate-stderr norm --limit output=$((n - 1)) "$T/good.cg"
    [ -z "$output" ]
    [ "$stderr" = "$T/good.cg:0: resource: the normalized output of $n code units would be over the output limit of $((n - 1)) (raise it with --limit output=N or --no-limits)" ]
}

@test "-o replaces OUT only on success" {
    echo old > "$T/out"
    run -1 norm -o "$T/out" "$T/bad.cg"
    [ "$(cat "$T/out")" = old ]
    run -1 norm -o "$T/out" --limit output=10 "$T/good.cg"
    [ "$(cat "$T/out")" = old ]
    run -0 norm -o "$T/out" "$T/good.cg"
    norm "$T/good.cg" | cmp - "$T/out"
    # no temporary file left behind
    no_temp_in "$T"
}

@test "-o creates OUT with the usual permissions" {
    rm -f "$T/new"
    (umask 022 && norm -o "$T/new" "$T/good.cg")
    [ "$(stat -c %a "$T/new")" = 644 ]
}

@test "-o into a directory that cannot take it: exit 2, nothing changed" {
    echo file > "$T/notadir"
    run -2 --separate-stderr norm -o "$T/notadir/out" "$T/good.cg"
    [[ "$stderr" == "cg-normalize: $T/notadir/out: Not a directory" ]]
    [ "$(cat "$T/notadir")" = file ]
    run -2 --separate-stderr norm -o "$T/missing/out" "$T/good.cg"
    [[ "$stderr" == "cg-normalize: $T/missing/out: No such file or directory" ]]
}

@test "standard input, one FILE at most, write errors" {
    run -0 bash -c "'$CG_BINDIR/cg-normalize' < '$T/good.cg' | cmp - <('$CG_BINDIR/cg-normalize' '$T/good.cg')"
    run -2 --separate-stderr norm "$T/good.cg" "$T/good.cg"
    [[ "$stderr" == *"usage: cg-normalize"* ]]
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c "'$CG_BINDIR/cg-normalize' '$T/good.cg' > /dev/full"
    [ "$stderr" = "cg-normalize: write error: No space left on device" ]
}

# bats test_tags=valgrind
@test "fresh recordings normalize, round trip and keep annotate's totals" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/a.cg" --dump-instr=yes "$T/hanoi" > /dev/null
    valgrind -q --tool=callgrind --callgrind-out-file="$T/b.cg" --combine-dumps=yes --dump-every-bb=20000 "$T/hanoi" > /dev/null
    for f in "$T/a.cg" "$T/b.cg"; do
        round_trip "$f"
        (cd "$T" && "$TESTS_DIR/annotate/same.sh" "$CG_BINDIR" "$f")
    done
}

@test "--help, --version" {
    run -0 norm --help
    [[ "${lines[0]}" == "usage: cg-normalize [-i] [-o OUT] "* ]]
    run -0 norm -V
    [[ "$output" == "cg-normalize (cgprof) "* ]]
}

@test "-i: names in full on every use; valid, idempotent, the same records" {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/p.cg"
    run -0 "$CG_BINDIR/cg-normalize" -i "$T/p.cg"
    no_line '=(' <<< "$output"
    grep -qx 'fn=main' <<< "$output"
    [ "$(grep -c '^fn=main$' <<< "$output")" -eq 2 ]
    echo "$output" > "$T/i.cg"
    run -0 validate "$T/i.cg"
    run -0 "$CG_BINDIR/cg-normalize" -i "$T/i.cg"
    [ "$output" = "$(cat "$T/i.cg")" ]
    [ "$("$CG_BINDIR/cg-tsv" "$T/i.cg")" = "$("$CG_BINDIR/cg-tsv" "$T/p.cg")" ]
}

@test "-o - is standard output" {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/p.cg"
    run -0 "$CG_BINDIR/cg-normalize" -o - "$T/p.cg"
    [ "$output" = "$("$CG_BINDIR/cg-normalize" "$T/p.cg")" ]
    [ ! -e ./- ]
}

@test "-o over an existing file keeps its permissions; through a symlink, the target" {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/p.cg"
    printf 'old\n' > "$T/out.cg"
    chmod 0640 "$T/out.cg"
    run -0 "$CG_BINDIR/cg-normalize" -o "$T/out.cg" "$T/p.cg"
    [ "$(stat -c %a "$T/out.cg")" = 640 ]
    [ "$(cat "$T/out.cg")" = "$("$CG_BINDIR/cg-normalize" "$T/p.cg")" ]
    mkdir "$T/real"
    printf 'old\n' > "$T/real/target.cg"
    chmod 0600 "$T/real/target.cg"
    ln -s real/target.cg "$T/link.cg"
    run -0 "$CG_BINDIR/cg-normalize" -o "$T/link.cg" "$T/p.cg"
    [ -L "$T/link.cg" ]
    [ "$(readlink "$T/link.cg")" = real/target.cg ]
    [ "$(stat -c %a "$T/real/target.cg")" = 600 ]
    [ "$(cat "$T/real/target.cg")" = "$("$CG_BINDIR/cg-normalize" "$T/p.cg")" ]
    # no temporary file is left beside either
    [ "$(ls "$T/real")" = target.cg ]
    no_temp_in "$T"
}
