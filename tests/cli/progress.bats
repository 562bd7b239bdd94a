#!/usr/bin/env bats
# The progress line on standard error: never in a pipe or a file unless
# --progress; on a terminal once the reading has gone on for a second,
# unless --no-progress; erased before anything else is said.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    EX=$TESTS_DIR/../examples/hanoi.callgrind
}

@test "in a pipe or a file: not a byte on standard error, from every command that reads a profile" {
    for cmd in cg-validate cg-tsv cg-parts cg-normalize cg-funcs cg-fold cg-flame cg-dot cg-annotate "cg-export speedscope"; do
        # shellcheck disable=SC2086
        "$CG_BINDIR/"$cmd "$EX" > /dev/null 2> "$T/err"
        [ ! -s "$T/err" ] || { echo "$cmd: $(cat "$T/err")"; false; }
    done
    "$CG_BINDIR/cg-diff" "$EX" "$EX" > /dev/null 2> "$T/err"
    [ ! -s "$T/err" ]
}

@test "--progress: the bytes of the size, the share and the rate, then erased; every command has it" {
    size=$(wc -c < "$EX")
    mb=$(awk -v n="$size" 'BEGIN { printf "%.1f", n / 1e6 }')
    "$CG_BINDIR/cg-funcs" --progress "$EX" > "$T/out" 2> "$T/err"
    # the same output as without it
    cmp "$T/out" <("$CG_BINDIR/cg-funcs" "$EX")
    # every draw "\rPROG: NAME: X of SIZE MB (P%), R MB/s" and the erase
    # of the line at the end
    tr '\r' '\n' < "$T/err" | sed '1d' > "$T/lines"
    grep -Eqx "cg-funcs: $EX: [0-9]+\.[0-9] of $mb MB \([0-9]+%\), [0-9]+\.[0-9] MB/s"$'\033\\[K' "$T/lines"
    [ "$(tail -c 4 "$T/err" | od -An -c | tr -d ' ')" = '\r033[K' ]
    for cmd in cg-validate cg-tsv cg-parts cg-normalize cg-fold cg-flame cg-dot cg-annotate "cg-export speedscope"; do
        # shellcheck disable=SC2086
        "$CG_BINDIR/"$cmd --progress "$EX" > /dev/null 2> "$T/err"
        tr '\r' '\n' < "$T/err" | grep -qF "$cmd: $EX: " || { echo "$cmd: $(od -c "$T/err" | head -3)"; false; }
        [ "$(tail -c 4 "$T/err" | od -An -c | tr -d ' ')" = '\r033[K' ]
    done
    # a pipe: no size to share
    cat "$EX" | "$CG_BINDIR/cg-funcs" --progress > /dev/null 2> "$T/err"
    tr '\r' '\n' < "$T/err" | grep -Eq "^cg-funcs: <stdin>: [0-9]+\.[0-9] MB, [0-9]+\.[0-9] MB/s"
}

@test "a diagnostic comes after the progress line is erased" {
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" --progress "$T/bad.cg"
    [ -z "$output" ]
    # the last of the line's erases, then the diagnostic alone
    [[ "$stderr" == *$'\r\033[K'"$T/bad.cg:3: syntax: "* ]]
}

@test "output on the same terminal: the line goes before the first row, and is not drawn again" {
    command -v script >/dev/null || skip "script (util-linux) is not installed"
    # cg-tsv writes its rows while it reads for the second time
    script -qec "'$CG_BINDIR/cg-tsv' --progress '$EX'" /dev/null > "$T/tty"
    first=$(grep -an $'\tcost\t' "$T/tty" | head -1 | cut -d: -f1)
    [ -n "$first" ]
    # the erase just before the first row, none after it, every row whole
    [ -z "$(tail -n +"$((first + 1))" "$T/tty" | grep -a $'\033')" ]
    tail -n +"$first" "$T/tty" | tr -d '\r' | sed '1s/.*\x1b\[K//' > "$T/rows"
    "$CG_BINDIR/cg-tsv" "$EX" | tail -n +"$first" | cmp - "$T/rows"
    # long names are cut to the terminal's row: one row to erase
    ln -s "$EX" "$T/$(printf 'x%.0s' $(seq 1 150)).cg"
    script -qec "stty cols 80; '$CG_BINDIR/cg-funcs' --progress '$T/'x*.cg > /dev/null" /dev/null > "$T/tty"
    tr '\r' '\n' < "$T/tty" | grep -a 'cg-funcs: ' | awk 'length($0) > 82 { exit 1 }'
}

@test "on a terminal: shown once the reading has gone on for a second; --no-progress keeps it off" {
    command -v script >/dev/null || skip "script (util-linux) is not installed"
    head -n 2000 "$EX" > "$T/a"
    tail -n +2001 "$EX" > "$T/b"
    slow="{ cat '$T/a'; sleep 1.5; cat '$T/b'; }"
    # standard error alone on the terminal, the rows in a file
    script -qec "$slow | '$CG_BINDIR/cg-funcs' > '$T/out'" /dev/null > "$T/tty"
    grep -q $'\rcg-funcs: <stdin>: ' "$T/tty"
    cmp "$T/out" <("$CG_BINDIR/cg-funcs" "$EX")
    script -qec "$slow | '$CG_BINDIR/cg-funcs' --no-progress > '$T/out'" /dev/null > "$T/tty"
    [ ! -s "$T/tty" ]
    # a quick run on a terminal: nothing
    script -qec "'$CG_BINDIR/cg-funcs' '$EX' > '$T/out'" /dev/null > "$T/tty"
    [ ! -s "$T/tty" ]
}
