#!/usr/bin/env bats
# Real producers: --compat repairs and names them; the hint without it;
# --complete; named pipes; compressed input.
load common

setup() {
    T=$BATS_TEST_TMPDIR
}

# Xdebug 2 as it writes: a dotted version, calls=N 0 0 for positions: line,
# summary: inside the {main} block, a negative memory cost.
write_xdebug() {
    cat > "$1" <<'CG'
version: 0.9.6
cmd: /var/www/index.php
part: 1
positions: line

events: Time Memory

fl=/var/www/index.php
fn=helper
3 40 -260

fl=/var/www/index.php
fn={main}

summary: 100 512

1 10 100
cfl=/var/www/index.php
cfn=helper
calls=2 0 0
5 40 -260
CG
}

@test "without --compat: the first deviation, with a hint, exit 1, no output" {
    write_xdebug "$T/x.out"
    for cmd in cg-validate cg-tsv cg-parts cg-normalize cg-funcs; do
        run -1 --separate-stderr "$CG_BINDIR/$cmd" "$T/x.out"
        [ -z "$output" ]
        [ "$stderr" = "$T/x.out:1: unsupported: version 0.9.6 is not supported (only version 1) (written by Xdebug? --compat reads it)" ]
    done
}

@test "--compat: every repair named once, with its first line and count" {
    write_xdebug "$T/x.out"
    run -0 --separate-stderr validate --compat "$T/x.out"
    [ -z "$output" ]
    [ "$stderr" = "$(printf '%s\n' \
        "$T/x.out:1: warning: dotted version: read as version 1 (1 line)" \
        "$T/x.out:10: warning: negative event cost: counted as 0 (2 lines)" \
        "$T/x.out:15: warning: summary: after body lines: kept as a summary of its part (1 line)" \
        "$T/x.out:20: warning: calls= with more target columns than positions: the extra columns dropped (1 line)" \
        "$T/x.out:15: warning: summary: says Time 100 where the cost lines of part 1 add up to 50 (1 line)")" ]
    # Xdebug's summary: is {main}'s inclusive time: the cost lines (self
    # costs) 40 + 10, the call's 50 left out
    run -0 --separate-stderr validate -v --compat "$T/x.out"
    [ "$output" = "$T/x.out: 1 part, 3 records (1 calls), 2 events, repaired" ]
}

@test "--compat: the figures, with negative costs as 0" {
    write_xdebug "$T/x.out"
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" --compat "$T/x.out"
    [ "${lines[1]}" = "	/var/www/index.php	{main}	0		10	100	50	100" ]
    [ "${lines[2]}" = "	/var/www/index.php	helper	2		40	0	40	0" ]
    [ "$(grep -c warning <<< "$stderr")" -eq 5 ]
}

@test "cg-normalize --compat writes a profile valid without --compat, with the same records" {
    write_xdebug "$T/x.out"
    run -0 --separate-stderr "$CG_BINDIR/cg-normalize" --compat "$T/x.out"
    echo "$output" > "$T/n.cg"
    run -0 validate "$T/n.cg"
    grep -qx 'summary: 100 512' "$T/n.cg"
    grep -qx 'version: 1' "$T/n.cg"
    [ "$("$CG_BINDIR/cg-tsv" "$T/n.cg")" = "$("$CG_BINDIR/cg-tsv" --compat "$T/x.out" 2>/dev/null)" ]
}

@test "the append banner: each run a part with its own IDs" {
    printf 'version: 1\nevents: Time\nfl=(1) a.php\nfn=(1) run\n1 5\n\n==== NEW PROFILING FILE ==============================\nversion: 1\nevents: Time\nfl=(1) b.php\nfn=(1) other\n1 7\n' > "$T/app.out"
    run -1 --separate-stderr validate "$T/app.out"
    [[ "$stderr" == "$T/app.out:7: syntax: expected a header, directive or cost line, found '==== NEW PROFILING FILE ="*"...' (written by Xdebug? --compat reads it)" ]]
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" -p --compat "$T/app.out"
    [ "$stderr" = "$T/app.out:7: warning: ==== NEW PROFILING FILE: a new part with its own name IDs (1 line)" ]
    [ "${lines[1]}" = "1		a.php	run	0		5	5" ]
    [ "${lines[2]}" = "2		b.php	other	0		7	7" ]
}

@test "what no repair covers is refused under --compat as without it" {
    printf 'events: Ir\nfn=f\n1 +3\n' > "$T/rel.cg"
    run -1 --separate-stderr validate --compat "$T/rel.cg"
    [[ "$stderr" == "$T/rel.cg:3: syntax: expected a cost"* ]]
    [[ "$stderr" != *"--compat reads it"* ]]
    printf 'events: %%s\nfn=%%s\n%%d %%d\n' > "$T/printf.cg"
    run -1 --separate-stderr validate --compat "$T/printf.cg"
    [[ "$stderr" == "$T/printf.cg:3: syntax: "* ]]
}

# bats test_tags=valgrind
@test "cachegrind's output: refused with a hint, read under --compat" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=cachegrind --cache-sim=yes --cachegrind-out-file="$T/cg.out" "$T/hanoi" > /dev/null 2>&1
    line=$(grep -n '^summary:' "$T/cg.out" | cut -d: -f1)
    run -1 --separate-stderr validate "$T/cg.out"
    [ "$stderr" = "$T/cg.out:$line: syntax: summary: after body lines (a header there begins a new part, and this one has no events: header) (written by Xdebug or cachegrind? --compat reads it)" ]
    run -0 --separate-stderr validate --compat --complete "$T/cg.out"
    [ "$stderr" = "$T/cg.out:$line: warning: summary: after body lines: kept as a summary of its part (1 line)" ]
    # the summary cachegrind writes is the sum of its cost lines
    total=$("$CG_BINDIR/cg-funcs" --compat -T -H -e Ir "$T/cg.out" 2>/dev/null | cut -f2)
    [ "$total" -eq "$(sed -n 's/^summary: \([0-9]*\).*/\1/p' "$T/cg.out")" ]
}

# bats test_tags=valgrind
@test "--complete: a cut-off recording is refused at its last line; the whole one passes" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/h.cg" "$T/hanoi" > /dev/null
    run -0 validate --complete "$T/h.cg"
    head -c $(($(wc -c < "$T/h.cg") / 2)) "$T/h.cg" > "$T/c.cg"
    # head -n at a cost line that closes no call: the rest still parses
    n=$(awk 'NR > 5000 { exit } /^[0-9]/ && prev !~ /^calls=/ { n = NR } { prev = $0 } END { print n }' "$T/h.cg")
    head -n "$n" "$T/h.cg" > "$T/n.cg"
    run -0 --separate-stderr validate "$T/n.cg"
    [ "${stderr_lines[0]}" = "$T/n.cg:$n: warning: the last part ends without totals:, which Valgrind always writes: cut short? (--complete refuses it)" ]
    # its summary: is the whole run's, above the costs left
    sl=$(grep -n '^summary:' "$T/n.cg" | cut -d: -f1)
    [[ "${stderr_lines[1]}" == "$T/n.cg:$sl: warning: summary: says Ir $(sed -n 's/^summary: //p' "$T/n.cg") where the cost lines of part 1 add up to "* ]]
    [ "${#stderr_lines[@]}" -eq 2 ]
    run -1 --separate-stderr validate --complete "$T/n.cg"
    [ "$stderr" = "$T/n.cg:$n: syntax: the last part ends without a totals: trailer (cut short?)" ]
    # cut inside a line: refused at that line (or at a calls= left
    # without its cost line, one before), with or without --complete
    n=$(wc -l < "$T/c.cg")
    run -1 --separate-stderr validate --complete "$T/c.cg"
    [[ "$stderr" == "$T/c.cg:$((n + 1)): syntax: "* ]] || [[ "$stderr" == "$T/c.cg:$n: syntax: "* ]]
    # a cut that leaves a valid last line without its line ending
    { head -n 3000 "$T/h.cg" | grep -v '^calls=' ; printf '0 1'; } > "$T/p.cg"
    n=$(wc -l < "$T/p.cg")
    run -0 --separate-stderr validate "$T/p.cg"
    [ "${stderr_lines[0]}" = "$T/p.cg:$((n + 1)): warning: the last line has no line ending, which Valgrind always writes: cut short? (--complete refuses it)" ]
    [[ "${stderr_lines[1]}" == "$T/p.cg:$sl: warning: summary: says Ir "* ]]
    run -1 --separate-stderr validate --complete "$T/p.cg"
    [ "$stderr" = "$T/p.cg:$((n + 1)): syntax: the input ends inside a line (cut short?)" ]
    for cmd in cg-tsv cg-parts cg-normalize cg-funcs; do
        run -1 --separate-stderr "$CG_BINDIR/$cmd" --complete "$T/n.cg"
        [ -z "$output" ]
    done
}

# A Valgrind recording without its totals: trailer: as creator: says, or
# without one, as cmd: and totals: in an earlier part say.
write_cut() {
    printf 'version: 1\n%scmd: ./a\nevents: Ir\nfn=main\n1 5\ntotals: 5\n\n' "$2" > "$1"
    printf 'cmd: ./a\nevents: Ir\nfn=main\n1 7\n' >> "$1"
}

@test "a Valgrind recording cut short: one warning naming --complete from every command; none from another producer" {
    warning="warning: the last part ends without totals:, which Valgrind always writes: cut short? (--complete refuses it)"
    write_cut "$T/c.cg" 'creator: callgrind-3.19.0\n'
    write_cut "$T/n.cg" ''
    for f in c n; do
        for cmd in cg-validate cg-tsv cg-parts cg-normalize cg-funcs cg-fold cg-flame cg-dot cg-annotate "cg-export speedscope"; do
            # shellcheck disable=SC2086
            run -0 --separate-stderr "$CG_BINDIR/"$cmd "$T/$f.cg"
            [ "$stderr" = "$T/$f.cg:11: $warning" ] || { echo "$cmd $f: $stderr"; false; }
        done
        run -0 --separate-stderr "$CG_BINDIR/cg-diff" "$T/$f.cg" "$T/$f.cg"
        [ "$stderr" = "$T/$f.cg:11: $warning"$'\n'"$T/$f.cg:11: $warning" ]
        run -1 --separate-stderr validate --complete "$T/$f.cg"
        [ "$stderr" = "$T/$f.cg:11: syntax: the last part ends without a totals: trailer (cut short?)" ]
    done
    # the figures are still the prefix's: the warning changes no output
    [ "$("$CG_BINDIR/cg-funcs" -H "$T/c.cg" 2>/dev/null | cut -f3,6)" = "$(printf 'main\t12')" ]
    # another producer, or a whole recording: silence
    write_cut "$T/o.cg" 'creator: xdebug 3.2\n'
    printf 'totals: 7\n' >> "$T/c.cg"
    for f in o c; do
        run -0 --separate-stderr validate "$T/$f.cg"
        [ -z "$stderr" ]
    done
    # no totals: anywhere and no creator: nothing says Valgrind
    printf 'events: Ir\nfn=main\n1 5\n' > "$T/h.cg"
    run -0 --separate-stderr validate "$T/h.cg"
    [ -z "$stderr" ]
}

@test "named pipes, /dev/stdin and process substitution are read like standard input" {
    write_profile "$T/p.cg"
    want=$("$CG_BINDIR/cg-tsv" "$T/p.cg")
    mkfifo "$T/fifo"
    (sleep 0.2; cat "$T/p.cg" > "$T/fifo") &
    run -0 "$CG_BINDIR/cg-tsv" "$T/fifo"
    [ "$output" = "$want" ]
    run -0 bash -c '"$0" /dev/stdin < "$1"' "$CG_BINDIR/cg-tsv" "$T/p.cg"
    [ "$output" = "$want" ]
    gzip -c "$T/p.cg" > "$T/p.cg.gz"
    run -0 bash -c '"$0" <(zcat "$1") <(zcat "$1")' "$CG_BINDIR/cg-tsv" "$T/p.cg.gz"
    [ "${#lines[@]}" -eq $((2 * $(wc -l <<< "$want") - 1)) ]
    [[ "${lines[0]}" == "file	part	kind	"* ]]
    # the same input cap as standard input
    mkfifo "$T/big"
    (head -c 2000 /dev/zero | tr '\0' a > "$T/big") &
    run -1 --separate-stderr validate --limit input=1000 "$T/big"
    [ "$stderr" = "$T/big:0: resource: input size over the input limit of 1000 (raise it with --limit input=N or --no-limits)" ]
}

@test "compressed input: Unsupported at line 1, the right decompressor, the command's name" {
    write_profile "$T/p.cg"
    gzip -c "$T/p.cg" > "$T/p.gz"
    # gzip: what --compat reads
    run -1 --separate-stderr "$CG_BINDIR/cg-tsv" "$T/p.gz"
    [ "$stderr" = "$T/p.gz:1: unsupported: gzip-compressed input (--compat reads it)" ]
    if command -v bzip2 >/dev/null; then
        bzip2 -c "$T/p.cg" > "$T/p.bz2"
        run -1 --separate-stderr "$CG_BINDIR/cg-funcs" "$T/p.bz2"
        [ "$stderr" = "$T/p.bz2:1: unsupported: bzip2-compressed input; decompress it first (e.g. bzcat FILE | cg-funcs)" ]
    fi
    if command -v xz >/dev/null; then
        xz -c "$T/p.cg" > "$T/p.xz"
        run -1 --separate-stderr validate "$T/p.xz"
        [ "$stderr" = "$T/p.xz:1: unsupported: xz-compressed input; decompress it first (e.g. xzcat FILE | cg-validate)" ]
    fi
    if command -v zstd >/dev/null; then
        zstd -q -c "$T/p.cg" > "$T/p.zst"
        run -1 --separate-stderr "$CG_BINDIR/cg-normalize" "$T/p.zst"
        [ "$stderr" = "$T/p.zst:1: unsupported: zstd-compressed input; decompress it first (e.g. zstdcat FILE | cg-normalize)" ]
    fi
}

@test "the shipped third-party profiles under --compat (tests/corpus/compat.tsv)" {
    run -0 "$TESTS_DIR/corpus/compat.sh" "$CG_BINDIR" "$CORPUS"
    [[ "${lines[-1]}" == *" passed, 0 failed" ]]
}

@test "a jump recording: refused with the way out; under --compat the jumps are skipped and positions follow their source lines" {
    # jcnd= and jump= are followed by the jump's source position (no
    # costs); that line moves the relative positions as a cost line does
    printf 'events: A\nfl=(1) a.c\nfn=(1) f\n5 1\njcnd=1/2 +3\n*\n* 2\njfi=(7) b.h\njfn=(9) g\njump=4 -1\n+1\n+1 3\nfi=(7)\n8 4\n' > "$T/j.cg"
    run -1 --separate-stderr validate "$T/j.cg"
    [ "$stderr" = "$T/j.cg:5: unsupported: directive jcnd= is not supported (a jump recording) (--compat reads it without the jumps, or rerun without --collect-jumps)" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-tsv" -H -f fi,line,A --compat "$T/j.cg"
    [ "$output" = "$(printf 'a.c\t5\t1\na.c\t5\t2\na.c\t7\t3\nb.h\t8\t4')" ]
    [ "$stderr" = "$T/j.cg:5: warning: jump lines (--collect-jumps): skipped, no figure changes (4 lines)" ]
    # the normalized profile holds no jump and is valid strictly
    "$CG_BINDIR/cg-normalize" --compat "$T/j.cg" > "$T/n.cg" 2>/dev/null
    no_line -E '^(jump|jcnd|jfi|jfn)=' "$T/n.cg"
    run -0 validate "$T/n.cg"
}

@test "a name in Latin-1: refused with the way out; --compat reads each byte as its code point and writes UTF-8" {
    printf 'events: A\nfl=/home/jos\xe9/a.c\nfn=caf\xe9\n1 5\nfn=ok\n2 3\n' > "$T/l1.cg"
    run -1 --separate-stderr validate "$T/l1.cg"
    [ "$stderr" = "$T/l1.cg:2: syntax: input is not UTF-8: malformed or truncated sequence at byte 0xe9, column 13 (written in Latin-1? --compat reads it so)" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-tsv" -H -f fl,fn,A --compat "$T/l1.cg"
    [ "$output" = "$(printf '/home/jos\303\251/a.c\tcaf\303\251\t5\n/home/jos\303\251/a.c\tok\t3')" ]
    [ "$stderr" = "$T/l1.cg:2: warning: a line that is not UTF-8: read as Latin-1, written as UTF-8 (2 lines)" ]
    # the byte cap is the input's as read, not its repaired copy's
    run -0 validate --compat --limit input="$(wc -c < "$T/l1.cg")" "$T/l1.cg"
    # the normalized profile is UTF-8 and valid strictly
    "$CG_BINDIR/cg-normalize" --compat "$T/l1.cg" > "$T/n.cg" 2>/dev/null
    run -0 validate "$T/n.cg"
    grep -q "caf$(printf '\303\251')" "$T/n.cg"
    # a valid UTF-8 line is left as it is; a NUL stays refused
    printf 'events: A\nfn=na\303\257ve\n1 1\nfn=caf\xe9\n2 2\n' > "$T/mixed.cg"
    run -0 --separate-stderr "$CG_BINDIR/cg-tsv" -H -f fn --compat "$T/mixed.cg"
    [ "$output" = "$(printf 'na\303\257ve\ncaf\303\251')" ]
    printf 'events: A\nfn=caf\xe9\000\n1 1\n' > "$T/nul.cg"
    run -1 --separate-stderr validate --compat "$T/nul.cg"
    [[ "$stderr" == "$T/nul.cg:2: syntax: NUL byte at column "* ]]
}
