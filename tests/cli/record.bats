#!/usr/bin/env bats
# Fresh profiles recorded by valgrind --tool=callgrind with the options that
# change the file's shape; cg-validate must accept each of them.
load common
# bats file_tags=valgrind

setup_file() {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    command -v cc >/dev/null || skip "no C compiler"
    W=$BATS_FILE_TMPDIR
    cc -g -O0 -o "$W/hanoi" "$TESTS_DIR/programs/hanoi.c"
    cc -g -O0 -pthread -o "$W/threads" "$TESTS_DIR/programs/threads.c"
}

record() { # record OUT PROGRAM [valgrind options...]
    local out=$1 prog=$2
    shift 2
    valgrind -q --tool=callgrind --callgrind-out-file="$out" "$@" "$prog" > /dev/null
}

@test "default recording validates" {
    W=$BATS_FILE_TMPDIR
    record "$W/default.cg" "$W/hanoi"
    run -0 --separate-stderr validate -v "$W/default.cg"
    [[ "$output" == "$W/default.cg: 1 part, "*" records ("*" calls), 1 event" ]]
}

@test "--dump-instr=yes (instr line positions) validates" {
    W=$BATS_FILE_TMPDIR
    record "$W/instr.cg" "$W/hanoi" --dump-instr=yes
    grep -q '^positions: instr line$' "$W/instr.cg"
    run -0 validate "$W/instr.cg"
}

@test "--dump-instr=yes --dump-line=no --compress-pos=no --compress-strings=no validates" {
    W=$BATS_FILE_TMPDIR
    record "$W/plain.cg" "$W/hanoi" --dump-instr=yes --dump-line=no --compress-pos=no --compress-strings=no
    grep -q '^positions: instr$' "$W/plain.cg"
    run -0 validate "$W/plain.cg"
}

@test "--combine-dumps=yes --dump-every-bb: many parts in one file" {
    W=$BATS_FILE_TMPDIR
    record "$W/combined.cg" "$W/hanoi" --combine-dumps=yes --dump-every-bb=20000
    run -0 --separate-stderr validate -v "$W/combined.cg"
    parts=$(grep -c '^part:' "$W/combined.cg")
    [ "$parts" -gt 1 ]
    [[ "$output" == "$W/combined.cg: $parts parts, "* ]]
}

@test "--separate-threads=yes: one file per thread, each validates" {
    W=$BATS_FILE_TMPDIR
    record "$W/thr.cg" "$W/threads" --separate-threads=yes
    n=0
    for f in "$W"/thr.cg-*; do
        run -0 validate "$f"
        n=$((n + 1))
    done
    [ "$n" -eq 3 ]
    # valgrind leaves the base name empty: an empty profile must not pass
    [ ! -s "$W/thr.cg" ]
    run -1 --separate-stderr validate "$W/thr.cg"
    [[ "$stderr" == "$W/thr.cg:0: syntax: "* ]]
}

@test "--separate-threads with --combine-dumps: threads as parts" {
    W=$BATS_FILE_TMPDIR
    record "$W/thrc.cg" "$W/threads" --separate-threads=yes --combine-dumps=yes
    run -0 --separate-stderr validate -v "$W/thrc.cg"
    [[ "$output" == "$W/thrc.cg: 3 parts, "* ]]
}

@test "cache and branch simulation: many events validate" {
    W=$BATS_FILE_TMPDIR
    record "$W/sim.cg" "$W/hanoi" --cache-sim=yes --branch-sim=yes
    run -0 --separate-stderr validate -v "$W/sim.cg"
    [[ "$output" == *", 13 events" ]]
}

@test "--collect-jumps=yes writes jump=, jcnd=, jfi=, jfn=: Unsupported at the first" {
    W=$BATS_FILE_TMPDIR
    record "$W/jumps.cg" "$W/hanoi" --collect-jumps=yes
    line=$(grep -n -m1 -E '^(jump|jcnd|jfi|jfn)=' "$W/jumps.cg" | cut -d: -f1)
    run -1 --separate-stderr validate "$W/jumps.cg"
    [[ "$stderr" == "$W/jumps.cg:$line: unsupported: directive j"* ]]
}
