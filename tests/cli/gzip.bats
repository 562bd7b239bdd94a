#!/usr/bin/env bats
# gzip-compressed profiles: read by every command under --compat as if
# plain (files and standard input, told by the magic bytes, not the name);
# refused without it; corrupt, cut short and over a limit refused with
# nothing written.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    cp "$TESTS_DIR/../examples/hanoi.callgrind" "$T/h.cg"
    gzip -c "$T/h.cg" > "$T/h.cg.gz"
    # a name that says nothing of the compression
    cp "$T/h.cg.gz" "$T/h.out"
}

# Every command that reads a Callgrind profile, with what makes its output
# (cg-export writes to a file: a binary is not for a terminal).
commands() {
    echo "cg-validate -v"
    echo "cg-tsv"
    echo "cg-parts"
    echo "cg-normalize"
    echo "cg-funcs --tsv"
    echo "cg-funcs --tsv -c"
    echo "cg-dot"
    echo "cg-fold"
    echo "cg-flame"
    echo "cg-annotate"
    echo "cg-merge"
    echo "cg-export speedscope"
}

@test "every command reads a gzip-compressed profile under --compat as the plain one" {
    local cmd
    while read -r cmd; do
        # shellcheck disable=SC2086 # the command and its options
        $CG_BINDIR/$cmd --compat "$T/h.cg" 2> /dev/null | sed "s#$T/h.cg#NAME#g" > "$T/plain" ||
            { echo "$cmd plain failed"; return 1; }
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd --compat "$T/h.out" 2> "$T/err" | sed "s#$T/h.out#NAME#g" > "$T/gz" ||
            { echo "$cmd gz failed"; return 1; }
        # (cg-validate -v says it was repaired)
        sed -i 's/, repaired$//' "$T/gz"
        cmp -s "$T/plain" "$T/gz" || { echo "$cmd: other output"; diff "$T/plain" "$T/gz" | head -5; return 1; }
        # the repair is named
        [ "$(cat "$T/err")" = "$T/h.out:1: warning: gzip-compressed input: read decompressed" ] ||
            { echo "$cmd: $(cat "$T/err")"; return 1; }
        # standard input too
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd --compat --quiet < "$T/h.out" | sed 's/, repaired$//' > "$T/gz" ||
            { echo "$cmd stdin failed"; return 1; }
        # shellcheck disable=SC2086
        $CG_BINDIR/$cmd --compat --quiet < "$T/h.cg" > "$T/plain"
        cmp -s "$T/plain" "$T/gz" || { echo "$cmd: other output from stdin"; return 1; }
    done < <(commands)
    # pprof's message names its input: one name, in two folders
    mkdir "$T/d1" "$T/d2"
    cp "$T/h.cg" "$T/d1/p"
    cp "$T/h.out" "$T/d2/p"
    (cd "$T/d1" && "$CG_BINDIR/cg-export" pprof --no-gzip --compat -o ../plain.pb p)
    (cd "$T/d2" && "$CG_BINDIR/cg-export" pprof --no-gzip --compat --quiet -o ../gz.pb p)
    cmp "$T/plain.pb" "$T/gz.pb"
}

@test "without --compat, gzip is refused as the seed says: Unsupported at line 1" {
    local cmd
    while read -r cmd; do
        # shellcheck disable=SC2086
        run -1 --separate-stderr $CG_BINDIR/$cmd "$T/h.out"
        [ -z "$output" ] || { echo "$cmd wrote"; return 1; }
        [ "$stderr" = "$T/h.out:1: unsupported: gzip-compressed input (--compat reads it)" ] ||
            { echo "$cmd: $stderr"; return 1; }
    done < <(commands)
}

@test "cut short, corrupt, trailing bytes: refused at the decompressed line, nothing written" {
    local want n cmd
    # cut the stream where about half the text is out: the line the text
    # broke in is the count of its whole lines, plus one
    head -c 6000 "$T/h.out" > "$T/cut.gz"
    n=$(python3 -c 'import sys, zlib; print(zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read()).count(b"\n"))' "$T/cut.gz")
    want=$((n + 1))
    echo old > "$T/out.cg"
    while read -r cmd; do
        # shellcheck disable=SC2086
        run -1 --separate-stderr $CG_BINDIR/$cmd --compat "$T/cut.gz"
        [ -z "$output" ] || { echo "$cmd wrote"; return 1; }
        [ "$stderr" = "$T/cut.gz:$want: syntax: gzip stream cut short" ] || { echo "$cmd: $stderr"; return 1; }
        # shellcheck disable=SC2086
        run -1 --separate-stderr $CG_BINDIR/$cmd --compat --limit input=10K "$T/h.out"
        [ -z "$output" ] || { echo "$cmd wrote"; return 1; }
        [ "$stderr" = "$T/h.out:0: resource: input size over the input limit of 10240 (raise it with --limit input=N or --no-limits)" ] ||
            { echo "$cmd: $stderr"; return 1; }
    done < <(commands)
    run -1 "$CG_BINDIR/cg-normalize" --compat -o "$T/out.cg" "$T/cut.gz"
    [ "$(cat "$T/out.cg")" = old ]
    run -1 "$CG_BINDIR/cg-merge" --compat -o "$T/out.cg" "$T/h.cg" "$T/cut.gz"
    [ "$(cat "$T/out.cg")" = old ]
    no_temp_in "$T"
    # a byte of the deflate data changed
    python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[40] ^= 0xff; open(sys.argv[2], "wb").write(b)' \
        "$T/h.out" "$T/bad.gz"
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" --compat "$T/bad.gz"
    [[ "$stderr" == "$T/bad.gz:"*": syntax: "*"gzip"* ]]
    # bytes after the stream that are no gzip member
    { cat "$T/h.out"; echo junk; } > "$T/trail.gz"
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" --compat "$T/trail.gz"
    [[ "$stderr" == "$T/trail.gz:"*": syntax: "* ]]
    # two members, as cat a.gz b.gz makes: one text
    printf 'events: Ir\nfn=a\n1 2\n' | gzip -c > "$T/two.gz"
    printf 'fn=b\n1 3\n' | gzip -c >> "$T/two.gz"
    run -0 "$CG_BINDIR/cg-funcs" --compat --quiet -H --tsv "$T/two.gz"
    [ "$output" = "$(printf '\t\tb\t0\t\t3\t3\n\t\ta\t0\t\t2\t2')" ]
}

@test "the limits apply to the decompressed bytes: a bomb is refused" {
    # 64 MB of one cost line repeated compresses to a few hundred KB
    python3 -c '
import gzip, sys
with gzip.open(sys.argv[1], "wb") as f:
    f.write(b"events: Ir\nfn=a\n")
    f.write(b"1 1\n" * (16 << 20))' "$T/bomb.gz"
    [ "$(stat -c %s "$T/bomb.gz")" -lt 1000000 ]
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" --compat "$T/bomb.gz"
    [ "$stderr" = "$T/bomb.gz:0: resource: input size over the input limit of 33554432 (raise it with --limit input=N or --no-limits)" ]
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" --compat --limit input=1M "$T/bomb.gz"
    [ -z "$output" ]
    [ "$stderr" = "$T/bomb.gz:0: resource: input size over the input limit of 1048576 (raise it with --limit input=N or --no-limits)" ]
}

@test "a profile's own error inside gzip: at its line of the decompressed text" {
    printf 'events: Ir\nfn=a\n1 2\n1 x\n' | gzip -c > "$T/e.gz"
    run -1 --separate-stderr "$CG_BINDIR/cg-validate" --compat "$T/e.gz"
    [[ "$stderr" == "$T/e.gz:4: syntax: "* ]]
}
