#!/usr/bin/env bats
# cg-validate: verdicts, diagnostics, exit status, inputs and limits.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/good.cg"
    printf 'events: A\nfn=f\n1 1\njump=1 2\n' > "$T/jump.cg"
    printf 'events: A\nfn=f\n1 x\n' > "$T/bad.cg"
}

@test "a valid profile: silent, exit 0" {
    run --separate-stderr validate "$T/good.cg"
    [ "$status" -eq 0 ]
    [ -z "$output" ]
    [ -z "$stderr" ]
}

@test "an invalid profile: one NAME:LINE: KIND: MESSAGE line, exit 1" {
    run -1 --separate-stderr validate "$T/bad.cg"
    [ -z "$output" ]
    [ "$stderr" = "$T/bad.cg:3: syntax: expected a cost as decimal digits or 0x and lowercase hex digits, found 'x'" ]
}

@test "unsupported construct names the directive" {
    run -1 --separate-stderr validate "$T/jump.cg"
    [[ "$stderr" == "$T/jump.cg:4: unsupported: directive jump= is not supported"* ]]
}

@test "several inputs: every one checked, the worst status wins" {
    run -1 --separate-stderr validate "$T/bad.cg" "$T/good.cg" "$T/jump.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    [[ "${stderr_lines[0]}" == "$T/bad.cg:3: syntax: "* ]]
    [[ "${stderr_lines[1]}" == "$T/jump.cg:4: unsupported: "* ]]
    run -2 --separate-stderr validate "$T/bad.cg" "$T/missing.cg" "$T/good.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    [ "${stderr_lines[1]}" = "cg-validate: $T/missing.cg: No such file or directory" ]
}

@test "standard input: no FILE or -, named <stdin>" {
    run -0 validate < "$T/good.cg"
    run -1 --separate-stderr validate - < "$T/bad.cg"
    [[ "$stderr" == "<stdin>:3: syntax: "* ]]
    run -1 --separate-stderr validate < "$T/bad.cg"
    [[ "$stderr" == "<stdin>:3: syntax: "* ]]
}

@test "standard input may be a pipe" {
    run -0 bash -c "cat '$T/good.cg' | '$CG_BINDIR/cg-validate'"
    run -1 --separate-stderr bash -c "cat '$T/bad.cg' | '$CG_BINDIR/cg-validate' -"
    [[ "$stderr" == "<stdin>:3: syntax: "* ]]
}

@test "a named input must be a regular file or a pipe" {
    run -2 --separate-stderr validate "$T"
    [ "$stderr" = "cg-validate: $T: is a directory" ]
    run -2 --separate-stderr validate /dev/null
    [ "$stderr" = "cg-validate: /dev/null: is a device" ]
    # a FIFO waits for its writer, and is then judged like any input
    mkfifo "$T/fifo"
    (sleep 0.2; : > "$T/fifo") &
    run -1 --separate-stderr timeout 10 "$CG_BINDIR/cg-validate" "$T/fifo"
    [ "$stderr" = "$T/fifo:0: syntax: no profile: the input holds no header or body line" ]
}

@test "an unreadable file is exit 2" {
    [ "$(id -u)" -ne 0 ] || skip "root reads every file"
    cp "$T/good.cg" "$T/locked.cg"
    chmod 000 "$T/locked.cg"
    run -2 --separate-stderr validate "$T/locked.cg"
    [ "$stderr" = "cg-validate: $T/locked.cg: Permission denied" ]
}

@test "empty input and comments only are Syntax at line 0" {
    : > "$T/empty.cg"
    run -1 --separate-stderr validate "$T/empty.cg"
    [[ "$stderr" == "$T/empty.cg:0: syntax: "* ]]
    printf '# nothing\n\n' | { run -1 --separate-stderr validate; [[ "$stderr" == "<stdin>:0: syntax: "* ]]; }
}

@test "-v prints one summary line per valid input" {
    run -1 --separate-stderr validate -v "$T/good.cg" "$T/bad.cg"
    [ "$output" = "$T/good.cg: 2 parts, 5 records (1 calls), 2 events" ]
    [ "${#stderr_lines[@]}" -eq 1 ]
}

@test "--limit NAME=N: N accepted, N+1 refused, the message names the option" {
    run -0 validate --limit records=5 "$T/good.cg"
    run -1 --separate-stderr validate --limit records=4 "$T/good.cg"
    [ "$stderr" = "$T/good.cg:27: resource: record count over the records limit of 4 (raise it with --limit records=N or --no-limits)" ]
    run -0 validate --limit records=4 --no-limits "$T/good.cg"
    run -0 validate --limit parts=2 --limit events=2 "$T/good.cg"
    run -1 --separate-stderr validate --limit parts=1 "$T/good.cg"
    [[ "$stderr" == "$T/good.cg:24: resource: part count over the parts limit of 1 "* ]]
}

@test "--limit with K, M, G suffixes; bad settings are usage errors" {
    run -0 validate --limit input=1K "$T/good.cg"
    run -0 validate --limit input=1k "$T/good.cg"
    run -2 --separate-stderr validate --limit bogus=1 "$T/good.cg"
    [[ "${stderr_lines[0]}" == "cg-validate: --limit 'bogus=1': unknown limit"* ]]
    [[ "${stderr_lines[1]}" == "usage: cg-validate "* ]]
    [ "${#stderr_lines[@]}" -eq 2 ]
    run -2 --separate-stderr validate --limit records=1X "$T/good.cg"
    [[ "${stderr_lines[0]}" == "cg-validate: --limit 'records=1X': expected a number"* ]]
    run -2 --separate-stderr validate --limit records=99999999999999999999999 "$T/good.cg"
    [[ "${stderr_lines[0]}" == "cg-validate: --limit 'records=99999999999999999999999': out of range"* ]]
    run -2 --separate-stderr validate --limit records "$T/good.cg"
    [ -z "$output" ]
}

@test "input cap on a named file: checked before reading, line 0" {
    size=$(wc -c < "$T/good.cg")
    run -0 validate --limit input=$size "$T/good.cg"
    run -1 --separate-stderr validate --limit input=$((size - 1)) "$T/good.cg"
    [ "$stderr" = "$T/good.cg:0: resource: input size over the input limit of $((size - 1)) (raise it with --limit input=N or --no-limits)" ]
}

@test "input cap on standard input that is a regular file: checked by its size first" {
    size=$(wc -c < "$T/good.cg")
    run -0 validate --limit input=$size < "$T/good.cg"
    run -1 --separate-stderr validate --limit input=$((size - 1)) < "$T/good.cg"
    [ "$stderr" = "<stdin>:0: resource: input size over the input limit of $((size - 1)) (raise it with --limit input=N or --no-limits)" ]
}

@test "input cap on a pipe: refused once more than N bytes are read" {
    size=$(wc -c < "$T/good.cg")
    run -0 bash -c "cat '$T/good.cg' | '$CG_BINDIR/cg-validate' --limit input=$size"
    run -1 --separate-stderr bash -c "cat '$T/good.cg' | '$CG_BINDIR/cg-validate' --limit input=$((size - 1))"
    [[ "$stderr" == "<stdin>:0: resource: input size over the input limit"* ]]
}

@test "the default input cap: 32 MiB + 1 byte is refused at line 0" {
    head -c $((32 * 1024 * 1024 + 1)) /dev/zero > "$T/big.cg"
    run -1 --separate-stderr validate "$T/big.cg"
    [[ "$stderr" == "$T/big.cg:0: resource: input size over the input limit of 33554432 "* ]]
    run -1 --separate-stderr bash -c "cat '$T/big.cg' | '$CG_BINDIR/cg-validate'"
    [[ "$stderr" == "<stdin>:0: resource: input size over the input limit of 33554432 "* ]]
}

@test "gzip input is Unsupported at line 1" {
    gzip -c "$T/good.cg" > "$T/good.cg.gz"
    run -1 --separate-stderr validate "$T/good.cg.gz"
    [[ "$stderr" == "$T/good.cg.gz:1: unsupported: gzip-compressed input"* ]]
}

@test "--help on stdout, exit 0; --version; a bad option is a usage error" {
    run -0 --separate-stderr validate --help
    [[ "$output" == "usage: cg-validate [-qv] [--strict-totals] [--files-from LIST [-0]] [--keep-going] [--compat] [--complete] [--limit NAME=N]... [--no-limits] [--limit-status] [--progress | --no-progress] [--quiet] [-j N] [FILE...]"* ]]
    [[ "$output" == *$'\nExit status:\n  0  all inputs valid\n  1  some input invalid\n'* ]]
    [ -z "$stderr" ]
    run -0 validate -V
    [[ "$output" == "cg-validate (cgprof) "[0-9]* ]]
    run -2 --separate-stderr validate -x
    [ -z "$output" ]
    [[ "$stderr" == *"usage: cg-validate"* ]]
}

@test "a write error on standard output is exit 2" {
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c "'$CG_BINDIR/cg-validate' -v '$T/good.cg' > /dev/full"
    [ "$stderr" = "cg-validate: write error: No space left on device" ]
}

@test "shipped corpus: every profile gets its listed verdict and line" {
    run -0 "$TESTS_DIR/corpus/check.sh" "$CG_BINDIR" "$CORPUS"
    [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "the example shipped with the README validates" {
    run -0 validate "$TESTS_DIR/../examples/hanoi.callgrind"
}
