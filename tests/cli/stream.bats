#!/usr/bin/env bats
# cg-validate and cg-parts read in chunks: a pipe that delivers the input
# in odd-sized writes gives the bytes and status of the same file, and the
# order of the checks holds across chunks.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/good.cg"
    # a profile fault on line 3, a NUL on line 5: the NUL wins
    printf 'events: A\nfn=f\n1 x\n1 1\n2 \0\n' > "$T/nul.cg"
    # a Latin-1 name, read under --compat
    printf 'events: A\nfl=caf\351.c\nfn=f\n1 1\n' > "$T/latin1.cg"
}

# trickle FILE: FILE on standard output in writes of 1, 2, 3, 5, 7, 11
# and 13 bytes in turn, each flushed, so that a reader sees them apart.
trickle() {
    python3 -c '
import sys, time
data = open(sys.argv[1], "rb").read()
sizes = [1, 2, 3, 5, 7, 11, 13]
at = i = 0
try:
    while at < len(data):
        n = sizes[i % len(sizes)]
        sys.stdout.buffer.write(data[at:at + n])
        sys.stdout.buffer.flush()
        time.sleep(0.001)
        at += n
        i += 1
except BrokenPipeError:  # a reader that stops at the byte cap
    pass
' "$1" 2> /dev/null
}

# same COMMAND ARGS... FILE: the command on a pipe of FILE in odd-sized
# writes gives the output, diagnostics and status of the file itself.
same() { same_on_pipe trickle "$@"; }

@test "cg-validate -v on a pipe of odd-sized writes: the file's line" {
    export -f trickle
    same "$CG_BINDIR/cg-validate" -v "$T/good.cg"
    [ "$output" = "<stdin>: 2 parts, 5 records (1 calls), 2 events" ]
}

@test "cg-parts on a pipe of odd-sized writes: the file's rows" {
    export -f trickle
    same "$CG_BINDIR/cg-parts" "$T/good.cg"
    [ "${#lines[@]}" -eq 3 ]
    [ "${lines[1]}" = "$(printf '1\t1\t7\t\tline\tIr Dr\t4\t3\t1\t20 1\t20 1\t./prog --size=10')" ]
}

@test "a NUL after a profile fault wins, however the input is cut" {
    export -f trickle
    same "$CG_BINDIR/cg-validate" "$T/nul.cg"
    [ "$status" -eq 1 ]
    [ "$stderr" = "<stdin>:5: syntax: NUL byte at column 3" ]
    same "$CG_BINDIR/cg-parts" "$T/nul.cg"
    [ "$stderr" = "<stdin>:5: syntax: NUL byte at column 3" ]
}

@test "--compat reads a Latin-1 line across chunks, with its warning" {
    export -f trickle
    same "$CG_BINDIR/cg-validate" --compat -v "$T/latin1.cg"
    [ "$output" = "<stdin>: 1 part, 1 records (0 calls), 1 event, repaired" ]
    [[ "$stderr" == "<stdin>:2: warning: "* ]]
}

@test "over the byte cap on a pipe: refused at line 0" {
    export -f trickle
    same "$CG_BINDIR/cg-validate" --limit input=100 "$T/good.cg"
    [ "$status" -eq 1 ]
    [[ "$stderr" == "<stdin>:0: resource: input size over the input limit of 100"* ]]
}

# The analysis commands read in chunks too (cg_funcs_begin, cgi_lines_begin).
@test "cg-funcs, cg-annotate, cg-dot, cg-fold on a pipe of odd-sized writes: the file's output" {
    export -f trickle
    same "$CG_BINDIR/cg-funcs" -c "$T/good.cg"
    [ "${#lines[@]}" -eq 2 ]
    same "$CG_BINDIR/cg-annotate" "$T/good.cg"
    [[ "$output" == *"main"* ]]
    same "$CG_BINDIR/cg-dot" "$T/good.cg"
    [[ "$output" == "digraph"* ]]
    same "$CG_BINDIR/cg-fold" "$T/good.cg"
    [ -n "$output" ]
}

@test "an analysis command refuses an input faulty on its last line, cut anywhere, and prints nothing" {
    export -f trickle
    cp "$T/good.cg" "$T/late.cg"
    printf 'fn=late\n1 x\n' >> "$T/late.cg"
    n=$(wc -l < "$T/late.cg")
    for cmd in cg-funcs cg-annotate cg-dot cg-fold cg-flame; do
        same "$CG_BINDIR/$cmd" "$T/late.cg"
        [ "$status" -eq 1 ]
        [ -z "$output" ]
        [[ "$stderr" == "<stdin>:$n: syntax: "* ]]
    done
}

@test "k copies of a recording read as k parts: k times each function's figures (awk)" {
    ex=$TESTS_DIR/../examples/hanoi.callgrind
    "$CG_BINDIR/cg-funcs" "$ex" > "$T/one.tsv"
    cat "$ex" "$ex" "$ex" | "$CG_BINDIR/cg-funcs" - > "$T/three.tsv"
    # called, self and inclusive of one copy, times 3, in the same order
    awk -F'\t' 'BEGIN { OFS = FS }
        NR > 1 { for (i = 4; i <= 7; i++) if (i != 5) $i = sprintf("%.0f", $i * 3) } 1' \
        "$T/one.tsv" > "$T/want.tsv"
    [ "$(wc -l < "$T/one.tsv")" -gt 100 ]
    cmp "$T/want.tsv" "$T/three.tsv"
}
