#!/usr/bin/env bats
# One option vocabulary: every short option has its long form and means
# the same thing in every command; the old spellings that cost nothing
# still work.  Each long form is checked against its short form's output.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    EX=$TESTS_DIR/../examples/hanoi.callgrind
    write_profile "$T/good.cg"
}

cmd() { local c=$1; shift; "$CG_BINDIR/$c" "$@"; }

# The same stdout and exit status for the two spellings.
same() {
    local c=$1 short=$2 long=$3; shift 3
    run --separate-stderr cmd "$c" $short "$@"
    local status1=$status out1=$output
    run --separate-stderr cmd "$c" $long "$@"
    [ "$status" -eq "$status1" ]
    [ "$output" = "$out1" ]
    [ -n "$output" ]
}

@test "-e and --events in every command that selects events" {
    same cg-funcs "-e Dr" "--events Dr" "$T/good.cg"
    same cg-diff "-e Dr" "--events Dr" "$T/good.cg" "$T/good.cg"
    same cg-tsv "-e Ir" "--events Ir" "$T/good.cg"
    same cg-dot "-e Dr" "--events Dr" "$T/good.cg"
    same cg-fold "-e Dr" "--events Dr" "$T/good.cg"
    # the old --event of cg-dot and cg-fold: a prefix getopt takes
    same cg-dot "--events Dr" "--event Dr" "$T/good.cg"
    same cg-fold "--events Dr" "--event Dr" "$T/good.cg"
    # and the selection is really made: Ir's figures are not Dr's
    run -0 cmd cg-fold -e Dr "$T/good.cg"
    a=$output
    run -0 cmd cg-fold -e Ir "$T/good.cg"
    [ "$a" != "$output" ]
}

@test "an event named twice: one message in every command" {
    for c in cg-funcs cg-tsv; do
        run -2 --separate-stderr cmd $c --events Ir,Ir "$T/good.cg"
        [ "${stderr_lines[0]}" = "$c: -e: event 'Ir' named twice" ]
        [ -z "$output" ]
    done
    run -2 --separate-stderr cmd cg-diff -e Ir,Ir "$T/good.cg" "$T/good.cg"
    [ "${stderr_lines[0]}" = "cg-diff: -e: event 'Ir' named twice" ]
    for c in cg-dot cg-fold; do
        run -2 --separate-stderr cmd $c --events Ir,Dr "$T/good.cg"
        [ "${stderr_lines[0]}" = "$c: -e: one event" ]
    done
}

@test "-n is a number of rows where it exists; cg-dot's node threshold is -N" {
    run -0 cmd cg-funcs -H -n 2 "$EX"
    [ "${#lines[@]}" -eq 2 ]
    run -0 cmd cg-diff -a -H -n 2 "$EX" "$EX"
    [ "${#lines[@]}" -eq 2 ]
    same cg-dot "-N 5" "--node-thres 5" "$EX"
    run -2 --separate-stderr cmd cg-dot -n 5 "$EX"
    [ "${stderr_lines[0]}" = "$CG_BINDIR/cg-dot: invalid option -- 'n'" ]
    # a higher node threshold draws fewer nodes
    few=$(cmd cg-dot -N 20 "$EX" | grep -c 'label=')
    many=$(cmd cg-dot -N 1 "$EX" | grep -c 'label=')
    [ "$few" -lt "$many" ]
}

@test "long forms: --output, --kind, --verbose" {
    run -0 cmd cg-normalize --output "$T/a.cg" "$T/good.cg"
    run -0 cmd cg-normalize -o "$T/b.cg" "$T/good.cg"
    cmp "$T/a.cg" "$T/b.cg"
    same cg-tsv "-k call" "--kind call" "$T/good.cg"
    run -0 cmd cg-tsv -H --kind call "$T/good.cg"
    for l in "${lines[@]}"; do [ "$(printf '%s\n' "$l" | cut -f2)" = call ]; done
    same cg-validate "-v" "--verbose" "$T/good.cg"
}

@test "--no-cycles: one option, one line of help, in every command that counts cycles" {
    for c in cg-funcs cg-diff cg-dot cg-fold; do
        run -0 cmd $c --help
        [ "$(printf '%s\n' "$output" | grep -c -- '--no-cycles  ')" -eq 1 ]
        printf '%s\n' "$output" | grep -qx '  --no-cycles      count without cycle detection (see cg-funcs(1))'
    done
    # is_even and is_odd call each other: a cycle (and its row), unless
    # --no-cycles
    run -0 cmd cg-funcs -H "$EX"
    [ "$(printf '%s\n' "$output" | cut -f5 | grep -c '^1$')" -eq 3 ]
    [ "$(printf '%s\n' "$output" | cut -f3 | grep -c '^<cycle 1>$')" -eq 1 ]
    run -0 cmd cg-funcs --no-cycles -H "$EX"
    [ -z "$(printf '%s\n' "$output" | cut -f5 | grep -v '^$')" ]
    run -0 cmd cg-funcs --no-cycles "$EX"
    no_line '<cycle' <<< "$output"
    # the figures of the other commands change with it too
    [ "$(cmd cg-dot "$EX")" != "$(cmd cg-dot --no-cycles "$EX")" ]
    run -0 cmd cg-diff -a -H --no-cycles "$EX" "$EX"
    [ -n "$output" ]
}

@test "--limit-status: a limit's refusal exits 4 in every command, 1 without it" {
    # good.cg has 5 records: a limit of 2 refuses it at its third
    for c in cg-validate cg-tsv cg-parts cg-normalize cg-funcs cg-dot cg-fold \
             cg-flame cg-annotate "cg-export speedscope"; do
        # shellcheck disable=SC2086 # a command and its format
        run --separate-stderr cmd $c --limit records=2 "$T/good.cg"
        [ "$status" -eq 1 ]
        [[ "$stderr" == "$T/good.cg:"*": resource: record count over the records limit of 2 (raise it with --limit records=N or --no-limits)" ]]
        # shellcheck disable=SC2086
        run --separate-stderr cmd $c --limit-status --limit records=2 "$T/good.cg"
        [ "$status" -eq 4 ]
        [ -z "$output" ]
        # shellcheck disable=SC2086
        run --separate-stderr cmd $c --limit-status "$T/good.cg"
        [ "$status" -eq 0 ]
    done
    run --separate-stderr cmd cg-diff --limit-status --limit records=2 "$T/good.cg" "$T/good.cg"
    [ "$status" -eq 4 ]
    # an invalid input among them says more of the profile: 1
    printf 'events: Ir\nfn=main\nbogus\n' > "$T/bad.cg"
    run --separate-stderr cmd cg-validate --limit-status --limit records=2 "$T/good.cg" "$T/bad.cg"
    [ "$status" -eq 1 ]
    run --separate-stderr cmd cg-validate --limit-status --limit records=2 "$T/bad.cg" "$T/good.cg"
    [ "$status" -eq 1 ]
    # and an unreadable one more: 2
    run --separate-stderr cmd cg-validate --limit-status --limit records=2 "$T/good.cg" "$T/none.cg"
    [ "$status" -eq 2 ]
    # the importers take it too
    run --separate-stderr cmd cg-import pego --limit-status --limit input=10 "$TESTS_DIR/import/pego/expr.profile.json"
    [ "$status" -eq 4 ]
}

@test "-j: accepted with one input, and without effect; and -j is checked" {
    run "$CG_BINDIR/cg-funcs" "$BATS_TEST_DIRNAME/../../examples/hanoi.callgrind"
    [ "$status" -eq 0 ]
    one=$output
    run "$CG_BINDIR/cg-funcs" --threads 3 "$BATS_TEST_DIRNAME/../../examples/hanoi.callgrind"
    [ "$status" -eq 0 ]
    [ "$output" = "$one" ]
    printf 'garbage\n' > "$BATS_TEST_TMPDIR/bad.cg"
    run "$CG_BINDIR/cg-validate" "$BATS_TEST_TMPDIR/bad.cg"
    [ "$status" -eq 1 ]
    one=$output
    run "$CG_BINDIR/cg-validate" -j2 "$BATS_TEST_TMPDIR/bad.cg"
    [ "$status" -eq 1 ]
    [ "$output" = "$one" ]
    [[ "$output" == *"syntax: expected"* ]]
    # the command's --help says it
    run "$CG_BINDIR/cg-funcs" --help
    [[ "$output" == *"-j, --threads N  accepted for compatibility; it has no effect"* ]]
    run "$CG_BINDIR/cg-validate" --help
    [[ "$output" == *"-j, --threads N  read up to N inputs at once (default 1); with one"* ]]
    run "$CG_BINDIR/cg-validate" -j0 "$BATS_TEST_DIRNAME/../../examples/hanoi.callgrind"
    [ "$status" -eq 2 ]
    [[ "$output" == *"-j: expected 1 to 64 threads, found '0'"* ]]
    run "$CG_BINDIR/cg-validate" -j 65 "$BATS_TEST_DIRNAME/../../examples/hanoi.callgrind"
    [ "$status" -eq 2 ]
}

# The statuses of a command's --help (one table in cmd/cli/diag.c) are
# those its man page's EXIT STATUS lists.
@test "every command's --help and man page list the same exit statuses" {
    local c page help man
    for c in "$CG_BINDIR"/cg-*; do
        c=${c##*/}
        page=$TESTS_DIR/../man/$c.1
        [ -f "$page" ] || { echo "no man page for $c"; return 1; }
        help=$(cmd "$c" --help | awk '/^Exit status:/ { f = 1; next }
            f && /^  [0-9]  / { printf "%s ", $1 }')
        man=$(awk '/^\.Sh EXIT STATUS/ { f = 1; next } /^\.Sh/ { f = 0 }
            f && /^\.It [0-9]/ { printf "%s ", $2 }' "$page")
        echo "$c: help '$help' man '$man'"
        [ -n "$help" ]
        [ "$help" = "$man" ]
    done
}
