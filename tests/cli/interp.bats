#!/usr/bin/env bats
# Interpreter profiles, where one cycle holds much of the program: a
# cProfile recording (tests/programs/cprofile2cg.py, deterministic ticks)
# and python3 itself under Callgrind.  The stacks stay under their real
# callers, the entry point carries what cg-funcs says it costs, cycle rows
# are shown, and any size is read.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    command -v python3 >/dev/null || skip "python3 is not installed"
}

# flame PROFILE: cg-flame's frames are cg-fold's stacks (tests/flame/check.py),
# so the roots checked on the stacks are the flame graph's
flame() {
    "$CG_BINDIR/cg-flame" "$1" > "$T/f.svg"
    "$CG_BINDIR/cg-fold" "$1" > "$T/f.folded"
    python3 "$TESTS_DIR/flame/check.py" "$T/f.svg" "$T/f.folded"
}

# roots PROFILE [EV]: tests/fold/roots.py over cg-funcs and cg-fold
roots() {
    local ev=${2:-}
    "$CG_BINDIR/cg-funcs" -C --no-cycles -H ${ev:+-e "$ev"} "$1" > "$T/funcs"
    "$CG_BINDIR/cg-funcs" --no-cycles -H -c ${ev:+-e "$ev"} "$1" > "$T/arcs"
    "$CG_BINDIR/cg-fold" -q object ${ev:+-e "$ev"} "$1" > "$T/folded"
    python3 "$TESTS_DIR/fold/roots.py" "$T/funcs" "$T/arcs" "$T/folded"
}

@test "cProfile: no called function roots a stack; run_path carries all but the profiler's own tick" {
    python3 "$TESTS_DIR/programs/cprofile2cg.py" "$T/cp.cg" "$TESTS_DIR/programs/interp.py" > /dev/null
    run -0 validate "$T/cp.cg"
    run -0 roots "$T/cp.cg"
    [[ "$output" == "2 roots, :run_path carries "* ]]
    # fact is called only from the generator expression: every stack that
    # ends in fact passes through it (frames are :NAME, no object)
    grep -q ';:fact ' "$T/folded"
    [ -z "$(grep ';:fact ' "$T/folded" | grep -v ':<genexpr>;\(:fact;\)*:fact ')" ]
    run -0 flame "$T/cp.cg"
    # the cycle through sorted() has its row, with what enters it
    run -0 "$CG_BINDIR/cg-funcs" -H "$T/cp.cg"
    grep -q $'\t<cycle 1>\t' <<< "$output"
}

# bats test_tags=valgrind
@test "python3 under Callgrind: the entry point carries the whole program, no called function roots a stack" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    [ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/py.cg" \
        /usr/bin/python3 "$TESTS_DIR/programs/interp.py" > /dev/null
    run -0 validate "$T/py.cg"
    run -0 roots "$T/py.cg"
    [[ "$output" == *" carries "* ]]
    run -0 flame "$T/py.cg"
    # its eval loop is one cycle of many functions
    run -0 "$CG_BINDIR/cg-funcs" -H "$T/py.cg"
    members=$(awk -F'\t' '$5 != "" && $3 !~ /^<cycle/' <<< "$output" | wc -l)
    [ "$members" -gt 20 ]
}

# bats test_tags=valgrind
@test "python3 with --dump-instr=yes: over the contract's limits, read by cg-funcs with no option" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    [ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
    valgrind -q --tool=callgrind --dump-instr=yes --callgrind-out-file="$T/big.cg" \
        /usr/bin/python3 "$TESTS_DIR/programs/interp.py" > /dev/null
    run -1 --separate-stderr validate "$T/big.cg"
    [[ "$stderr" == *": resource: "*"(raise it with --limit "*"=N or --no-limits)" ]]
    run -0 validate --no-limits "$T/big.cg"
    run -0 "$CG_BINDIR/cg-funcs" -T -H "$T/big.cg"
    [ "$(cut -f2 <<< "${lines[0]}")" -eq "$(sed -n 's/^summary: //p' "$T/big.cg")" ]
}
