#!/usr/bin/env bats
# Many inputs, in every command that takes them: --files-from (and -0),
# --keep-going, warnings summed by kind and --quiet.
load common

TAB=$'\t'

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/p.cg"
    printf 'events: Ir\nfn=main\n1 5\ncfn=f\ncalls=1 2\n1 3\nfn=f\n2 3\n' > "$T/q.cg"
    printf 'no profile here\n' > "$T/app.php"
    printf '%s\n' "$T/p.cg" "$T/q.cg" > "$T/list"
}

# Commands that read many inputs, with what makes their output.
readers() {
    echo "cg-validate -v"
    echo "cg-funcs --tsv"
    echo "cg-funcs --tsv -p"
    echo "cg-tsv"
    echo "cg-parts"
    echo "cg-dot"
    echo "cg-fold"
    echo "cg-flame"
    echo "cg-annotate"
    echo "cg-export speedscope"
    echo "cg-merge"
}

@test "--files-from and -0 name the same inputs as the operands, in every command" {
    local cmd
    tr '\n' '\0' < "$T/list" > "$T/list0"
    while read -r cmd; do
        # shellcheck disable=SC2086 # the command and its options
        $CG_BINDIR/$cmd "$T/p.cg" "$T/q.cg" > "$T/want" || { echo "$cmd failed"; return 1; }
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd --files-from "$T/list" > "$T/got" || { echo "$cmd --files-from failed"; return 1; }
        cmp -s "$T/want" "$T/got" || { echo "$cmd: --files-from differs"; return 1; }
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd -0 --files-from - < "$T/list0" > "$T/got" || { echo "$cmd -0 failed"; return 1; }
        cmp -s "$T/want" "$T/got" || { echo "$cmd: -0 differs"; return 1; }
        # the operands first, then the list's names
        # shellcheck disable=SC2086
        echo "$T/q.cg" | $CG_BINDIR/$cmd --files-from - "$T/p.cg" > "$T/got"
        cmp -s "$T/want" "$T/got" || { echo "$cmd: operands then list differs"; return 1; }
    done < <(readers)
}

@test "--keep-going: a stray file is said and skipped, the rest read, exit 1" {
    local cmd
    while read -r cmd; do
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd "$T/p.cg" "$T/q.cg" > "$T/want"
        # shellcheck disable=SC2086
        run -1 --separate-stderr $CG_BINDIR/$cmd --keep-going "$T/p.cg" "$T/app.php" "$T/q.cg"
        [[ "${stderr_lines[0]}" == "$T/app.php:1: syntax: "* ]] || { echo "$cmd: $stderr"; return 1; }
        [ "${#stderr_lines[@]}" -eq 1 ] || { echo "$cmd: $stderr"; return 1; }
        # -p numbers the skipped file's parts as none
        [ "$output" = "$(cat "$T/want")" ] || { echo "$cmd: other output"; return 1; }
    done < <(readers | grep -v -e cg-validate -e cg-parts -e cg-tsv -e '-p$')
    # without it, one bad input refuses the aggregation: no output
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" "$T/p.cg" "$T/app.php" "$T/q.cg"
    [ -z "$output" ]
}

@test "warnings of many inputs are summed by kind; --quiet silences them, not errors" {
    local i
    for i in 1 2 3; do
        printf 'version: 0.9.6\nevents: Ir\nfn=x\n1 %d\n' "$i" > "$T/x$i.cg"
    done
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" --compat --tsv "$T/x1.cg" "$T/x2.cg" "$T/x3.cg"
    [ "$stderr" = "$T/x1.cg:1: warning: dotted version: read as version 1 (3 lines in 3 inputs)" ]
    [ "${lines[1]}" = "${TAB}${TAB}x${TAB}0${TAB}${TAB}6${TAB}6" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-tsv" --compat "$T/x2.cg" "$T/x3.cg"
    [ "$stderr" = "$T/x2.cg:1: warning: dotted version: read as version 1 (2 lines in 2 inputs)" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-validate" --compat "$T/x3.cg"
    [ "$stderr" = "$T/x3.cg:1: warning: dotted version: read as version 1 (1 line)" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-validate" -q --compat "$T/x1.cg" "$T/x2.cg"
    [ -z "$stderr" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-fold" --quiet --compat "$T/x1.cg"
    [ -z "$stderr" ]
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" --quiet "$T/x1.cg"
    [[ "$stderr" == "$T/x1.cg:1: "* ]]
}

@test "a cut-short Valgrind recording among many: one summed warning" {
    printf 'creator: callgrind-3.19\ncmd: ./a\nevents: Ir\nfn=x\n1 1\n' > "$T/c1.cg"
    cp "$T/c1.cg" "$T/c2.cg"
    run -0 --separate-stderr "$CG_BINDIR/cg-validate" "$T/c1.cg" "$T/c2.cg"
    [ "$stderr" = "$T/c1.cg:5: warning: the last part ends without totals:, which Valgrind always writes: cut short? (--complete refuses it) (2 inputs)" ]
}

@test "cg-validate -j: one input a thread, said in the inputs' order, as one thread says it" {
    local f
    for f in "$CORPUS"/valgrind/*.callgrind "$CORPUS"/thirdparty/*; do
        echo "$f"
        echo "$T/app.php"
    done > "$T/all"
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" -v --compat --files-from "$T/all"
    local out1=$output err1=$stderr
    [ -n "$out1" ]
    [ "$(grep -c 'app.php:1: syntax' <<< "$err1")" -eq "$(grep -c . "$T/all" | awk '{ print $1 / 2 }')" ]
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" -v --compat -j3 --files-from "$T/all"
    [ "$output" = "$out1" ]
    [ "$stderr" = "$err1" ]
}

@test "--keep-going: an empty input among several is skipped as empty; every input refused prints nothing" {
    : > "$T/empty.cg"
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" --keep-going --tsv "$T/q.cg" "$T/empty.cg"
    [ "$stderr" = "$T/empty.cg:0: warning: empty input: skipped" ]
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" --keep-going --tsv "$T/app.php" "$T/app.php"
    [ -z "$output" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
    run -2 --separate-stderr "$CG_BINDIR/cg-validate" - - < "$T/q.cg"
    [ "${stderr_lines[0]}" = "cg-validate: standard input named more than once" ]
}

@test "-j N: the inputs are said as one thread says them, in their order, and none after a refusal that stops" {
    # a refusal that takes time first: the inputs after it are read meanwhile
    { printf 'events: Ir\nfn=x\n'; seq 1 300000 | sed 's/$/ 1/'; printf 'x\n'; } > "$T/slow.cg"
    printf 'creator: callgrind-3.19\ncmd: ./a\nevents: Ir\nfn=x\n1 1\n' > "$T/cut.cg"
    : > "$T/empty.cg"
    printf '%s\n' "$T/slow.cg" "$T/nope" "$T/p.cg" "$T/app.php" "$T/cut.cg" \
        "$T/empty.cg" "$T/q.cg" > "$T/list"
    local slow="$T/slow.cg:300003: syntax: expected KEY: or KEY=, found 'x'"
    local nope="cg-merge: $T/nope: No such file or directory"
    local app="$T/app.php:1: syntax: expected KEY: or KEY=, found 'no profile here'"
    local empty="$T/empty.cg:0: warning: empty input: skipped"
    local cut="$T/cut.cg:5: warning: the last part ends without totals:, which Valgrind always writes: cut short? (--complete refuses it) (1 input)"
    # one thread: the first refusal stops a merge, and nothing after it is read
    run -1 --separate-stderr "$CG_BINDIR/cg-merge" --files-from "$T/list"
    [ "$stderr" = "$slow" ]
    [ -z "$output" ]
    run -2 --separate-stderr "$CG_BINDIR/cg-merge" --keep-going --files-from "$T/list"
    [ "$stderr" = "$(printf '%s\n' "$slow" "$nope" "$app" "$empty" "$cut")" ]
    run -2 --separate-stderr "$CG_BINDIR/cg-rows" functions --files-from "$T/list"
    [ "$stderr" = "$(printf '%s\n' "$slow" "${nope/cg-merge/cg-rows}" "$app" "$empty" "$cut")" ]
    local cmd j i status1 out1 err1
    for cmd in "cg-merge" "cg-merge --keep-going" "cg-rows functions" "cg-validate -v"; do
        # shellcheck disable=SC2086 # the command and its options
        run --separate-stderr $CG_BINDIR/$cmd --files-from "$T/list"
        status1=$status out1=$output err1=$stderr
        for j in 2 3; do
            for i in 1 2 3 4 5; do
                # shellcheck disable=SC2086
                run --separate-stderr $CG_BINDIR/$cmd -j $j --files-from "$T/list"
                [ "$status" -eq "$status1" ] || { echo "$cmd -j $j: status $status, not $status1"; return 1; }
                [ "$output" = "$out1" ] || { echo "$cmd -j $j: other output"; return 1; }
                [ "$stderr" = "$err1" ] || { echo "$cmd -j $j: said otherwise:"; echo "$stderr"; return 1; }
            done
        done
    done
}

# The preloads of tests/alloc: absent from a sanitizer's build.
preloads() {
    [ -n "${CG_TESTLIBDIR:-}" ] && [ -f "$CG_TESTLIBDIR/libslow_eio.so" ] &&
        [ -f "$CG_TESTLIBDIR/libfailing_malloc.so" ] ||
        skip "no test preloads (a sanitizer's build)"
    PRELOADS="$CG_TESTLIBDIR/libslow_eio.so $CG_TESTLIBDIR/libfailing_malloc.so"
}

@test "-j N: words lost out of memory stop the run, and the inputs read ahead meanwhile end unsaid" {
    preloads
    local i inputs=("$T/SLOW-EIO.cg")
    for i in 1 2 3 4 5 6 7 8; do
        printf 'events: Ir\nfn=f%s\n1 %s\n' "$i" "$i" > "$T/ok$i.cg"
        inputs+=("$T/ok$i.cg")
    done
    : > "$T/SLOW-EIO.cg"
    # without a failure: its I/O error, the others valid
    LD_PRELOAD=$PRELOADS run -2 --separate-stderr "$CG_BINDIR/cg-validate" -j3 "${inputs[@]}"
    [ "$stderr" = "cg-validate: $T/SLOW-EIO.cg: Input/output error" ]
    # the slow input's kept message (its first allocation: the message
    # and its NUL) fails while the other threads wait for its turn, six
    # inputs ahead: out of memory, and every thread ends
    local msg="cg-validate: $T/SLOW-EIO.cg: Input/output error"
    LD_PRELOAD=$PRELOADS CG_FAIL_SIZE=$(( ${#msg} + 2 )) run -4 --separate-stderr \
        timeout 60 "$CG_BINDIR/cg-validate" -j3 "${inputs[@]}"
    [ "$stderr" = "cg-validate: out of memory" ]
    [ -z "$output" ]
}

@test "-j N: warnings that cannot be kept are lost as words are, not counted for an input one thread would not read" {
    preloads
    printf 'version: 1.0\nevents: Ir\nfn=a\n1 1\n' > "$T/dotted.cg"
    : > "$T/SLOW-EIO.cg"
    # the size of the warnings an input keeps (cg_stats)
    printf '#include "cgprof.h"\n#include <stdio.h>\nint main(void) { printf("%%zu", sizeof(cg_stats)); return 0; }\n' > "$T/size.c"
    cc -I "$BATS_TEST_DIRNAME/../../lib" -I "$CG_TESTLIBDIR/../include" -o "$T/size" "$T/size.c"
    local size j
    size=$("$T/size")
    [ "$size" -gt 100 ]
    for j in 1 2; do
        LD_PRELOAD=$PRELOADS CG_FAIL_SIZE=$size run -2 --separate-stderr \
            "$CG_BINDIR/cg-merge" --compat -j$j "$T/SLOW-EIO.cg" "$T/dotted.cg"
        [ "$stderr" = "cg-merge: $T/SLOW-EIO.cg: Input/output error" ]
    done
    # said, such an input is out of memory
    LD_PRELOAD=$PRELOADS CG_FAIL_SIZE=$size run -4 --separate-stderr \
        "$CG_BINDIR/cg-merge" --compat -j2 "$T/dotted.cg" "$T/p.cg"
    [ "$stderr" = "cg-merge: out of memory" ]
    [ -z "$output" ]
}

@test "cg-rows -j N: after a write that fails, nothing is said of an input one thread would not have read" {
    [ -w /dev/full ] || skip "no /dev/full"
    # rows past stdio's buffer, so that their write fails at once
    awk 'BEGIN { print "events: Ir"; for (i = 0; i < 300; i++) printf "fn=function_with_a_long_name_%d\n1 %d\n", i, i + 1 }' > "$T/wide.cg"
    printf 'version: 1\nevents: Ir\nfn=a\nxx yy\n' > "$T/bad.cg"
    mkfifo "$T/slow.cg"
    local j i
    for j in 1 3 3 3 3; do
        # the first input comes late: the others are read meanwhile
        { sleep 1; cat "$T/q.cg" > "$T/slow.cg"; } &
        run -2 --separate-stderr sh -c '"$1" functions -j"$2" "$3" "$4" "$5" > /dev/full' sh \
            "$CG_BINDIR/cg-rows" "$j" "$T/slow.cg" "$T/wide.cg" "$T/bad.cg"
        wait
        [ "$stderr" = "cg-rows: write error: No space left on device" ] || { echo "-j$j: $stderr"; return 1; }
    done
    # and with a write that works, its refusal is said
    run -1 --separate-stderr "$CG_BINDIR/cg-rows" functions -j3 "$T/q.cg" "$T/bad.cg"
    [ "$stderr" = "$T/bad.cg:4: syntax: expected KEY: or KEY=, found 'xx yy'" ]
}
