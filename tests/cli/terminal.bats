#!/usr/bin/env bats
# cg-funcs and cg-diff on a terminal (a pseudo-terminal made by script):
# aligned columns, thousands grouped, paths shortened to fit; in a pipe
# and with --tsv the TSV byte for byte.
load common

setup() {
    T=$BATS_TEST_TMPDIR
    EX=$TESTS_DIR/../examples/hanoi.callgrind
    command -v script >/dev/null || skip "script (util-linux) is not installed"
}

# Run a command line on a pseudo-terminal of $COLUMNS columns; its
# output without the terminal's CRs in $T/tty.
on_tty() {
    script -qec "$1" /dev/null | tr -d '\r' > "$T/tty"
}

# The table of a TSV as the layout rule says, derived here on its own:
# a column of numbers (every cell but the first row's a number or
# empty) right-aligned with commas every three digits, text left-aligned,
# two spaces between columns, a column empty throughout left out, no
# trailing blanks.
expect_table() {
    python3 - "$1" <<'PY'
import re, sys
rows = [l.split('\t') for l in open(sys.argv[1]).read().split('\n')[:-1]]
n = max(len(r) for r in rows)
rows = [r + [''] * (n - len(r)) for r in rows]
num = re.compile(r'^-?\d+(\.\d+)?$')
numeric = [all(r[i] == '' or num.match(r[i]) for r in rows[1:]) and
           any(num.match(r[i]) for r in rows[1:]) for i in range(n)]
def group(c):
    if not num.match(c):
        return c
    sign, rest = ('-', c[1:]) if c.startswith('-') else ('', c)
    whole, dot, frac = rest.partition('.')
    return sign + '{:,}'.format(int(whole)) + dot + frac
cells = [[group(c) if numeric[i] and k > 0 else c for i, c in enumerate(r)]
         for k, r in enumerate(rows)]
w = [max(len(r[i]) for r in cells) for i in range(n)]
for r in cells:
    print('  '.join(c.rjust(w[i]) if numeric[i] else c.ljust(w[i])
                    for i, c in enumerate(r) if w[i] > 0).rstrip())
PY
}

@test "cg-funcs on a terminal: the TSV's cells aligned, numbers grouped; in a pipe the TSV" {
    "$CG_BINDIR/cg-funcs" -n 12 "$EX" > "$T/pipe"
    grep -q $'\t235161$' "$T/pipe"
    COLUMNS=1000 on_tty "'$CG_BINDIR/cg-funcs' -n 12 '$EX'"
    expect_table "$T/pipe" > "$T/want"
    diff "$T/want" "$T/tty"
    grep -q ' 235,161$' "$T/tty"
    # --tsv on a terminal, and a pipe: the TSV byte for byte
    COLUMNS=1000 on_tty "'$CG_BINDIR/cg-funcs' --tsv -n 12 '$EX'"
    cmp "$T/pipe" "$T/tty"
    "$CG_BINDIR/cg-funcs" -n 12 "$EX" > "$T/file"
    cmp "$T/pipe" "$T/file"
    # -c, -p, -T and -H are laid out by the same rule
    for o in -c -p -T -H "-c -p"; do
        # shellcheck disable=SC2086
        "$CG_BINDIR/cg-funcs" $o -n 5 "$EX" > "$T/pipe"
        COLUMNS=1000 on_tty "'$CG_BINDIR/cg-funcs' $o -n 5 '$EX'"
        if [ "$o" = -H ]; then
            # no header: the first row is data, and numbers from it on
            printf '\t\t\t\t\t\t\n' > "$T/h"
            cat "$T/h" "$T/pipe" > "$T/hp"
            expect_table "$T/hp" | tail -n +2 > "$T/want"
        else
            expect_table "$T/pipe" > "$T/want"
        fi
        diff "$T/want" "$T/tty" || { echo "option $o"; false; }
    done
}

@test "cg-funcs on a narrow terminal: objects, then files shortened to base names, then names cut to fit" {
    # 120 columns: base names of objects and files, every name whole
    COLUMNS=120 on_tty "'$CG_BINDIR/cg-funcs' -n 8 '$EX'"
    head -2 "$T/tty" | tail -1 | grep -q '^ld-linux-x86-64.so.2  ???  *0x000000000001ab70 '
    grep -q '^ld-linux-x86-64.so.2  rtld.c  *_dl_start ' "$T/tty"
    no_line '/usr/lib' "$T/tty"
    no_line '\.\.\.' "$T/tty"
    awk 'length($0) > 120 { exit 1 }' "$T/tty"
    # 100: the objects cut first, the functions' names whole
    COLUMNS=100 on_tty "'$CG_BINDIR/cg-funcs' -n 8 '$EX'"
    grep -q '^ld-linux-x8\.\.\.  rtld.c  *_dl_start ' "$T/tty"
    grep -q '  __libc_start_main@@GLIBC_2.34  ' "$T/tty"
    awk 'length($0) > 100 { exit 1 }' "$T/tty"
    grep -q ' 235,161$' "$T/tty"
    # 66: a column that does not fit is left out whole, never a figure
    # cut short: the header a prefix of the column names, and each row's
    # figures those of its TSV row
    COLUMNS=66 on_tty "'$CG_BINDIR/cg-funcs' -n 8 '$EX'"
    [ "$(head -1 "$T/tty")" = "ob            fl            fn            called  cycle     Ir" ]
    "$CG_BINDIR/cg-funcs" -n 8 "$EX" | tail -n +2 | cut -f4,6 | tr '\t' ' ' > "$T/want"
    tail -n +2 "$T/tty" | awk '{ print $(NF - 1), $NF }' | tr -d , > "$T/got"
    diff "$T/want" "$T/got"
    # 60: every row within the width, one line a row
    COLUMNS=60 on_tty "'$CG_BINDIR/cg-funcs' -n 8 '$EX'"
    awk 'length($0) > 60 { exit 1 }' "$T/tty"
    [ "$(wc -l < "$T/tty")" -eq 9 ]
}

@test "a name with terminal controls is escaped on a terminal, kept in the TSV" {
    printf 'events: Ir\nfl=a.c\nfn=evil\033[2Jname\n1 1234\n' > "$T/e.cg"
    COLUMNS=200 on_tty "'$CG_BINDIR/cg-funcs' '$T/e.cg'"
    grep -qF 'evil\x1b[2Jname' "$T/tty"
    no_line $'\033' "$T/tty"
    grep -q '  1,234  *1,234$' "$T/tty"
    "$CG_BINDIR/cg-funcs" "$T/e.cg" | grep -q $'evil\033\[2Jname'
}

@test "a function named like a number stays text; the numbers of a column are grouped by the column, not by their look" {
    printf 'events: Ir\nfl=a.c\nfn=1234\n1 5678\n' > "$T/n.cg"
    COLUMNS=200 on_tty "'$CG_BINDIR/cg-funcs' '$T/n.cg'"
    [ "$(tail -1 "$T/tty")" = "    a.c  1234       0         5,678    5,678" ]
    # without the header too
    COLUMNS=200 on_tty "'$CG_BINDIR/cg-funcs' -H '$T/n.cg'"
    [ "$(cat "$T/tty")" = "a.c  1234  0  5,678  5,678" ]
}

@test "more columns than a table lays out (over 64): the TSV, its controls escaped" {
    evs=$(seq -f 'E%g' 0 39 | tr '\n' ' ')
    costs=$(seq 1000 1039 | tr '\n' ' ')
    printf 'events: %s\nfn=f\033[2J\n1 %s\n' "$evs" "$costs" > "$T/w.cg"
    "$CG_BINDIR/cg-funcs" "$T/w.cg" > "$T/pipe"
    [ "$(head -1 "$T/pipe" | awk -F'\t' '{ print NF }')" -eq 85 ]
    COLUMNS=200 on_tty "'$CG_BINDIR/cg-funcs' '$T/w.cg'"
    no_line $'\033' "$T/tty"
    sed 's/\x1b/\\x1b/' "$T/pipe" | cmp - "$T/tty"
}

@test "cg-diff on a terminal: aligned, deltas and percentages grouped with their signs; --tsv and a pipe the TSV" {
    V=$TESTS_DIR/corpus/valgrind
    a=$V/v28-inline-dumpbefore-part2.callgrind b=$V/v30-threads-separate-thread2.callgrind
    "$CG_BINDIR/cg-diff" -n 10 "$a" "$b" > "$T/pipe"
    grep -q $'\t-' "$T/pipe"
    COLUMNS=1000 on_tty "'$CG_BINDIR/cg-diff' -n 10 '$a' '$b'"
    expect_table "$T/pipe" > "$T/want"
    diff "$T/want" "$T/tty"
    COLUMNS=1000 on_tty "'$CG_BINDIR/cg-diff' --tsv -n 10 '$a' '$b'"
    cmp "$T/pipe" "$T/tty"
    "$CG_BINDIR/cg-diff" -T "$a" "$b" > "$T/pipe"
    COLUMNS=1000 on_tty "'$CG_BINDIR/cg-diff' -T '$a' '$b'"
    expect_table "$T/pipe" > "$T/want"
    diff "$T/want" "$T/tty"
    COLUMNS=80 on_tty "'$CG_BINDIR/cg-diff' -n 10 '$a' '$b'"
    awk 'length($0) > 80 { exit 1 }' "$T/tty"
    # the exit status of a gate is the same on a terminal
    script -qec "'$CG_BINDIR/cg-diff' --fail-above Ir=1 '$a' '$b'" /dev/null > /dev/null || s=$?
    [ "${s:-0}" -eq 3 ]
}
