#!/usr/bin/env bats
# cg-annotate: every printed figure tied to cg-tsv or cg-funcs (summed
# here with awk, independently of the command), the per-line self costs
# against callgrind_annotate, source files found, missing, moved, older
# or hostile, and every error path.
load common

annotate() { "$CG_BINDIR/cg-annotate" "$@"; }
tie() { "$TESTS_DIR/annotate/tie.sh" "$CG_BINDIR" "$@"; }
ROOT=$(cd "$TESTS_DIR/.." && pwd)
HANOI=$ROOT/examples/hanoi.callgrind
# the name examples/hanoi.callgrind records for its source
RECORDED=/work/main/tests/programs/hanoi.c
# the same profile naming a path that exists on no machine, so that only
# -I finds the source (write_moved)
GONE=/nonexistent/cgprof-test/tests/programs/hanoi.c

setup() {
    T=$BATS_TEST_TMPDIR
}

# examples/hanoi.callgrind with its source at $GONE, into $1.
write_moved() {
    sed "s|$RECORDED|$GONE|" "$HANOI" > "$1"
}

# A one-function profile whose file is $1, with costs on lines 1 and 3.
write_named() {
    printf 'events: Ir\nfl=%s\nfn=f\n1 100\n3 5\n' "$1" > "$2"
}

@test "hanoi.c found from the checkout (-I, by the path's tail): every line and call is cg-tsv's" {
    write_moved "$T/h.cg"
    run -0 tie "$T/h.cg" "$GONE" -I "$ROOT"
    [ "${lines[-1]}" = "tied 17 lines, 12 calls" ]
    run -0 annotate -w 0 -I "$ROOT" "$T/h.cg"
    [[ "$output" == *"-- Source: $GONE (read from $ROOT/tests/programs/hanoi.c)"* ]]
    # the hot lines of hanoi.c with their figures (worked from cg-tsv)
    [[ "$output" == *$'\n   14,329     7  {\n'* ]]
    [[ "$output" == *$'\n   32,950    16  static int is_even'* ]]
    [[ "$output" == *$'\n   65,250        => is_even (100x)\n'* ]]
    [[ "$output" == *$'\n    2,952        => ./stdio-common/./stdio-common/printf.c:printf [/usr/lib/x86_64-linux-gnu/libc.so.6] (1x)\n'* ]]
    # the shipped example itself, as the README runs it
    if [ ! -e "$RECORDED" ] || cmp -s "$RECORDED" "$ROOT/tests/programs/hanoi.c"; then
        run -0 tie "$HANOI" "$RECORDED" -I "$ROOT"
    fi
}

@test "the function table: self and inclusive as cg-funcs counts them, separators and percentages" {
    run -0 annotate -w 0 -n 6 --no-auto "$HANOI"
    awk '/^-- Functions/ { on = 1; getline; next }
        on && NF { name = $0; sub(/^ *[0-9,]+ \( *[0-9.]+%\) +[0-9,]+ \( *[0-9.]+%\)  /, "", name)
                   v = $0; gsub(/[(),%]/, "", v); split(v, w, " ")
                   print w[1] "\t" w[2] "\t" w[3] "\t" w[4] "\t" name }' <<< "$output" > "$T/got"
    "$CG_BINDIR/cg-funcs" -C -H -s Ir -n 6 "$HANOI" | awk -F'\t' -v t=235161 '
        { printf "%d\t%.2f\t%d\t%.2f\t%s:%s [%s]\n", $6, 100 * $6 / t, $7, 100 * $7 / t, $2, $3, $1 }' > "$T/want"
    [ "$(wc -l < "$T/got")" -eq 6 ]
    diff "$T/want" "$T/got"
    # the layout: thousands separators, right-aligned columns
    [ "${lines[7]}" = "41,926 (17.83%)  41,926 (17.83%)  $RECORDED:hanoi'2 [/tmp/hanoi]" ]
    [ "${lines[4]}" = "Threshold:  0.1% of Ir self for functions and files; the first 6 functions" ]
    [ "${lines[3]}" = "Totals:     Ir 235,161" ]
    [ "${lines[1]}" = "Command:    ./hanoi" ]
}

@test "--inclusive sorts and cuts by inclusive cost; -t cuts at a share of the total" {
    run -0 annotate -w 0 --inclusive -t 50 --no-auto "$HANOI"
    # only 0x...1ab70, _dl_start and _dl_sysdep_start hold 50% or more
    # (bats leaves the blank lines out of lines)
    [ "${#lines[@]}" -eq 10 ]
    [ "${lines[4]}" = "Threshold:  50% of Ir inclusive for functions, self for files" ]
    [ "${lines[5]}" = "-- Functions, by inclusive cost" ]
    # a column's shares as wide as its 100.00%: its figures stay aligned
    [ "${lines[6]}" = "          Ir            Ir:incl  file:function [object]" ]
    [ "${lines[7]}" = " 15 ( 0.01%)  235,161 (100.00%)  ???:0x000000000001ab70 [/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2]" ]
    [[ "${lines[8]}" == "640 ( 0.27%)  120,712 ( 51.33%)  ./elf/./elf/rtld.c:_dl_start "* ]]
    [[ "${lines[9]}" == " 34 ( 0.01%)  120,037 ( 51.04%)  ./elf/../sysdeps/unix/sysv/linux/dl-sysdep.c:_dl_sysdep_start "* ]]
    run -0 annotate -w 0 --inclusive=no -t 50 --no-auto "$HANOI"
    [ "${#lines[@]}" -eq 8 ]
    [ "${lines[7]}" = "(none over the threshold)" ]
}

@test "--tree both: each arc with cg-funcs -c's cost and count; arcs in a cycle marked" {
    run -0 annotate -w 0 -n 3 --tree both --no-auto "$HANOI"
    "$CG_BINDIR/cg-funcs" -C -H -c "$HANOI" > "$T/arcs"
    # is_even'2 <-> is_odd'2: cycle 1 (cg-funcs' cycle column)
    want=$(awk -F'\t' '$3 == "is_odd'"'"'2" && $6 == "is_even'"'"'2" { print $7 "\t" $8 }' "$T/arcs")
    [ "$want" = $'2352\t994504' ]
    [[ "$output" == *$'\n                   994,504 (422.90%)    <   '"$RECORDED:is_odd'2 [/tmp/hanoi] (2352x) [cycle 1]"$'\n'* ]]
    [[ "$output" == *$'\n                 1,025,521 (436.09%)    >   '"$RECORDED:is_odd'2 [/tmp/hanoi] (2401x) [cycle 1]"$'\n'* ]]
    [[ "$output" == *"  * $RECORDED:is_even'2 [/tmp/hanoi]"* ]]
    # hanoi'2 calls itself
    [[ "$output" == *"    >   $RECORDED:hanoi'2 [/tmp/hanoi] (2044x) [recursive]"* ]]
    cycle=$("$CG_BINDIR/cg-funcs" -C -H "$HANOI" | awk -F'\t' '$3 == "is_odd'"'"'2" { print $5 }')
    [ "$cycle" = 1 ]
    run -0 annotate -w 0 -n 1 --tree caller --no-auto "$HANOI"
    no_line '    >   ' <<< "$output"
    grep -q '    <   ' <<< "$output"
    run -0 annotate -w 0 -n 1 --tree=calling --no-auto "$HANOI"
    no_line '    <   ' <<< "$output"
}

@test "--tree both: every arc of every function listed is a row of cg-funcs -c" {
    run -0 annotate -w 0 -n 8 --tree both --no-auto "$HANOI"
    # FUNCTION<TAB>in|out<TAB>OTHER<TAB>CALLS<TAB>COST, from the report
    awk '/^-- Functions/ { on = 1; getline; next }
        !on || !NF { next }
        / \* / { f = $0; sub(/^.* \* /, "", f)
                 for (i = 1; i <= np; i++) print f "\tin\t" pend[i]
                 np = 0; next }
        / [<>]   / { side = $0 ~ / <   / ? "in" : "out"; r = $0
                 sub(/ \[(recursive|cycle [0-9]+)\]$/, "", r)
                 v = $1; gsub(/,/, "", v)
                 o = r; sub(/^.* [<>]   /, "", o)
                 n = o; sub(/^.* \(/, "", n); sub(/x\)$/, "", n)
                 sub(/ \([0-9]+x\)$/, "", o)
                 row = o "\t" n "\t" v
                 if (side == "in") pend[++np] = row; else print f "\tout\t" row }' <<< "$output" |
        sort > "$T/got"
    # the same from cg-funcs -c, for the functions the report lists
    awk '/ \* / { f = $0; sub(/^.* \* /, "", f); print f }' <<< "$output" > "$T/listed"
    "$CG_BINDIR/cg-funcs" -C -H -c "$HANOI" | awk -F'\t' -v listed="$T/listed" '
        BEGIN { while ((getline l < listed) > 0) want[l] = 1 }
        { a = $2 ":" $3 ($1 == "" ? "" : " [" $1 "]"); b = $5 ":" $6 ($4 == "" ? "" : " [" $4 "]")
          if (b in want) print b "\tin\t" a "\t" $7 "\t" $8
          if (a in want) print a "\tout\t" b "\t" $7 "\t" $8 }' | sort > "$T/want"
    [ "$(wc -l < "$T/listed")" -eq 8 ]
    [ "$(wc -l < "$T/want")" -gt 20 ]
    diff "$T/want" "$T/got"
}

@test "a missing source file is listed with its self cost; the exit status is 0" {
    run -0 --separate-stderr annotate -w 0 "$HANOI"
    [ -z "$stderr" ]
    [[ "$output" == *$'\n-- Source files not shown (-I DIR looks under DIR):\n'* ]]
    [[ "$output" == *$'\n  ./elf/./elf/dl-lookup.c: not found; self 33,306 (14.16%)\n'* ]]
    run -0 annotate --no-auto "$HANOI"
    no_line 'Source' <<< "$output"
    run -0 annotate --auto=no "$HANOI"
    no_line 'Source' <<< "$output"
}

@test "-I with a moved tree: found by the longest tail of the recorded path" {
    mkdir -p "$T/moved/tests/programs" "$T/flat"
    cp "$ROOT/tests/programs/hanoi.c" "$T/moved/tests/programs/"
    cp "$ROOT/tests/programs/hanoi.c" "$T/flat/"
    write_moved "$T/h.cg"
    run -0 annotate -w 0 -I "$T/nothing" -I "$T/moved" "$T/h.cg"
    [[ "$output" == *"-- Source: $GONE (read from $T/moved/tests/programs/hanoi.c)"* ]]
    run -0 annotate -w 0 -I "$T/flat" "$T/h.cg"
    [[ "$output" == *"-- Source: $GONE (read from $T/flat/hanoi.c)"* ]]
    run -0 tie "$T/h.cg" "$GONE" -I "$T/flat"
    # without -I: listed as not found
    run -0 annotate -w 0 "$T/h.cg"
    [[ "$output" == *$'\n  '"$GONE"$': not found; self 107,933 (45.90%)'* ]]
}

@test "a source older than the profile: lines past its end marked, and said" {
    mkdir -p "$T/old"
    head -n 12 "$ROOT/tests/programs/hanoi.c" > "$T/old/hanoi.c"
    write_moved "$T/h.cg"
    run -0 annotate -w 0 --context 0 -I "$T/old" "$T/h.cg"
    [[ "$output" == *$'\n    4,094    13  <past the end of the file>\n'* ]]
    [[ "$output" == *$'\n-- note: 11 lines with a cost past the end of the file (12 lines): the profile was made from another version\n'* ]]
}

@test "a source newer than the profile: said" {
    write_moved "$T/h.cg"
    mkdir -p "$T/new"
    cp "$ROOT/tests/programs/hanoi.c" "$T/new/"
    touch -d '2001-01-01' "$T/h.cg"
    run -0 annotate -I "$T/new" "$T/h.cg"
    [[ "$output" == *$'\n-- note: the file is newer than the profile: its lines may not be the ones measured\n'* ]]
    touch -d '2001-01-01' "$T/new/hanoi.c"
    touch "$T/h.cg"
    run -0 annotate -I "$T/new" "$T/h.cg"
    no_line 'newer' <<< "$output"
}

@test "non-UTF-8 bytes and escape sequences in a source line are shown escaped" {
    printf 'int f(void)\n{ /* \377\376 caf\303\251 */ return "\033[2J\t"; }\n\033]0;title\007\n' > "$T/src.c"
    printf 'events: Ir\nfl=%s\nfn=f\n1 1\n2 10\n3 2\n' "$T/src.c" > "$T/p.cg"
    run -0 annotate -w 0 "$T/p.cg"
    # (the TAB at column 37 of the line as shown goes to column 40)
    [[ "$output" == *$'\n10     2  { /* \\xff\\xfe caf\xc3\xa9 */ return "\\x1b[2J   "; }\n'* ]]
    [[ "$output" == *$'\n 2     3  \\x1b]0;title\\x07\n'* ]]
    no_line $'\033' <<< "$output"
    LC_ALL=C no_line $'\377' <<< "$output"
}

@test "a function, file and command named with ESC [2J are shown escaped" {
    printf 'cmd: run \033[2J\nevents: Ir\nfl=a\033[31m.c\nfn=evil\033[2J\n1 100\n' > "$T/p.cg"
    run -0 annotate -w 0 "$T/p.cg"
    [[ "$output" == *'Command:    run \x1b[2J'* ]]
    [[ "$output" == *'  a\x1b[31m.c:evil\x1b[2J'$'\n'* ]]
    no_line $'\033' <<< "$output"
}

@test "a FIFO named by the profile is not read and does not hang the command" {
    mkfifo "$T/fifo"
    write_named "$T/fifo" "$T/p.cg"
    run -0 timeout 10 "$CG_BINDIR/cg-annotate" -w 0 "$T/p.cg"
    [[ "$output" == *"  $T/fifo: $T/fifo: not a regular file: not read; self 105 (100.00%)"* ]]
}

@test "a device named by the profile (/dev/zero) is refused unread" {
    write_named /dev/zero "$T/p.cg"
    run -0 timeout 10 "$CG_BINDIR/cg-annotate" -w 0 "$T/p.cg"
    [[ "$output" == *"  /dev/zero: /dev/zero: not a regular file: not read; self 105 (100.00%)"* ]]
    write_named "$T" "$T/d.cg"
    run -0 annotate -w 0 "$T/d.cg"
    [[ "$output" == *"  $T: $T: "*"; self 105 (100.00%)"* ]]
}

@test "an event with a zero total: its share a dash, as wide as a share beside 100.00%" {
    printf 'events: Ir Dr\nfl=a.c\nfn=f\n1 5 0\ntotals: 5 0\n' > "$T/z.cg"
    run -0 annotate -w 0 --no-auto "$T/z.cg"
    [ "${lines[6]}" = "         Ir          Dr      Ir:incl     Dr:incl  file:function [object]" ]
    [ "${lines[7]}" = "5 (100.00%)  0 (  -   )  5 (100.00%)  0 (  -   )  a.c:f" ]
}

@test "only instr positions: said, and the table printed" {
    printf 'positions: instr\nevents: Ir\nfl=a.c\nfn=f\n0x10 7\n' > "$T/p.cg"
    run -0 annotate -w 0 "$T/p.cg"
    [[ "$output" == *$'\n7 (100.00%)  7 (100.00%)  a.c:f\n'* ]]
    [[ "$output" == *$'\n-- No source lines: the profile has no line positions (record with --dump-line=yes)' ]]
}

@test "context: runs left out are marked with their line numbers; line 0 is its own row" {
    seq -f 'line %g' 1 40 > "$T/s.c"
    printf 'events: Ir\nfl=%s\nfn=f\n0 3\n10 1\n30 2\n' "$T/s.c" > "$T/p.cg"
    run -0 annotate -w 0 --context 2 "$T/p.cg"
    sed -n '/^-- Source/,/^$/p' <<< "$output" > "$T/got"
    cat > "$T/want" <<EOF
-- Source: $T/s.c
Ir  line
 3     -  <cost with no line number>
-- lines 1-7 --
 .     8  line 8
 .     9  line 9
 1    10  line 10
 .    11  line 11
 .    12  line 12
-- lines 13-27 --
 .    28  line 28
 .    29  line 29
 2    30  line 30
 .    31  line 31
 .    32  line 32
-- lines 33-40 --

EOF
    diff "$T/want" "$T/got"
}

@test "the greatest line number (2^64-1): past the end, nothing wraps" {
    seq -f 'line %g' 1 3 > "$T/s.c"
    printf 'events: Ir\nfl=%s\nfn=f\n2 1\n18446744073709551615 4\n' "$T/s.c" > "$T/p.cg"
    run -0 annotate -w 0 --context 0 "$T/p.cg"
    sed -n '/^-- Source/,/^$/p' <<< "$output" > "$T/got"
    printf -- '-- Source: %s\nIr                  line\n-- line 1 --\n 1                     2  line 2\n-- line 3 --\n 4  18446744073709551615  <past the end of the file>\n-- note: 1 line with a cost past the end of the file (3 lines): the profile was made from another version\n\n' "$T/s.c" > "$T/want"
    diff "$T/want" "$T/got"
}

@test "--show-percs puts a share of the total beside each line's figure" {
    seq -f 'line %g' 1 3 > "$T/s.c"
    printf 'events: Ir\nfl=%s\nfn=f\n1 1\n3 3\n' "$T/s.c" > "$T/p.cg"
    run -0 annotate -w 0 --show-percs "$T/p.cg"
    [[ "$output" == *$'\n1 (25.00%)     1  line 1\n         .     2  line 2\n3 (75.00%)     3  line 3\n'* ]]
}

@test "-w shortens names to the width (object, directories, then the end); -w 0 never" {
    run -0 annotate -w 60 -n 1 --no-auto "$HANOI"
    [ "${lines[7]}" = "41,926 (17.83%)  41,926 (17.83%)  hanoi.c:hanoi'2" ]
    run -0 annotate -w 40 -n 1 --no-auto "$HANOI"
    [ "${lines[7]}" = "41,926 (17.83%)  41,926 (17.83%)  han..." ]
    # not a terminal: full names
    run -0 annotate -n 1 --no-auto "$HANOI"
    [ "${lines[7]}" = "41,926 (17.83%)  41,926 (17.83%)  $RECORDED:hanoi'2 [/tmp/hanoi]" ]
}

@test "callgrind_annotate's spellings of the options work as written" {
    write_moved "$T/h.cg"
    annotate -w 0 --auto --inclusive --tree both -t 1 --context 3 --show-percs -I "$ROOT" "$T/h.cg" > "$T/ours"
    run -0 annotate -w 0 --auto=yes --inclusive=yes --tree=both --threshold=1 --context=3 --show-percs=yes --include="$ROOT" "$T/h.cg"
    [ "$output" = "$(cat "$T/ours")" ]
    run -0 annotate -w 0 --auto=yes --inclusive=yes --tree=both --threshold=1 --context=3 --show-percs=yes -I="$ROOT" "$T/h.cg"
    [ "$output" = "$(cat "$T/ours")" ]
    grep -q "^-- Source: $GONE (read from $ROOT/tests/programs/hanoi.c)" "$T/ours"
}

@test "-e picks the events; the first sorts" {
    printf 'events: A B\nfl=a.c\nfn=f\n1 1 20\nfn=g\n1 2 10\n' > "$T/p.cg"
    run -0 annotate -w 0 -e B,A --no-auto "$T/p.cg"
    [ "${lines[2]}" = "Events:     B A" ]
    [ "${lines[3]}" = "Totals:     B 30, A 3" ]
    [ "${lines[6]}" = "          B           A       B:incl      A:incl  file:function [object]" ]
    [ "${lines[7]}" = "20 (66.67%)  1 (33.33%)  20 (66.67%)  1 (33.33%)  a.c:f" ]
    run -2 --separate-stderr annotate -e C "$T/p.cg"
    [ "$stderr" = "cg-annotate: -e: event 'C' is not an event of the input" ]
}

@test "standard input, and several FILEs as the parts of one profile" {
    printf 'events: Ir\nfl=a.c\nfn=f\n1 3\n' > "$T/a.cg"
    printf 'events: Ir Dr\nfl=a.c\nfn=f\n1 4 1\nfn=g\n2 5\n' > "$T/b.cg"
    run -0 annotate -w 0 --no-auto < "$T/a.cg"
    [ "${lines[0]}" = "Profile:    <stdin>" ]
    run -0 annotate -w 0 --no-auto "$T/a.cg" - < "$T/b.cg"
    [ "${lines[0]}" = "Profile:    $T/a.cg, <stdin>" ]
    [ "${lines[3]}" = "Totals:     Ir 12, Dr 1" ]
    # f: 3 + 4 over the two parts, and the Dr of the second
    [ "${lines[7]}" = "7 (58.33%)  1 (100.00%)  7 (58.33%)  1 (100.00%)  a.c:f" ]
    [ "${lines[8]}" = "5 (41.67%)  0 (  0.00%)  5 (41.67%)  0 (  0.00%)  a.c:g" ]
}

@test "an invalid input: its diagnostic, exit 1, nothing on standard output" {
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr annotate "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
    run -2 --separate-stderr annotate "$T/none.cg"
    [ "$stderr" = "cg-annotate: $T/none.cg: No such file or directory" ]
}

@test "usage errors: exit 2 with the synopsis" {
    run -2 --separate-stderr annotate --tree sideways "$HANOI"
    [[ "$stderr" == "cg-annotate: --tree sideways: expected caller, calling, both or none"$'\n'"usage: cg-annotate "* ]]
    run -2 --separate-stderr annotate --auto=maybe "$HANOI"
    [[ "$stderr" == "cg-annotate: --auto=maybe: expected yes or no"* ]]
    run -2 --separate-stderr annotate -w wide "$HANOI"
    [[ "$stderr" == "cg-annotate: -w wide: expected a number of columns"* ]]
    run -2 --separate-stderr annotate --context -1 "$HANOI"
    [[ "$stderr" == "cg-annotate: --context -1: expected a number of lines"* ]]
    run -2 --separate-stderr annotate -t 101 "$HANOI"
    [[ "$stderr" == "cg-annotate: -t 101: expected a percentage from 0 to 100"* ]]
    [ -z "$output" ]
    run -0 annotate --help
    [[ "${lines[0]}" == "usage: cg-annotate "* ]]
}

@test "a failed write is exit 2" {
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c '"$0" "$1" > /dev/full' "$CG_BINDIR/cg-annotate" "$HANOI"
    [ "$stderr" = "cg-annotate: write error: No space left on device" ]
}

@test "per-line self cost agrees with callgrind_annotate --auto=yes on the corpus profiles" {
    command -v callgrind_annotate >/dev/null || skip "callgrind_annotate is not installed"
    # not v19 and v28: their calls=0 calls annotate counts as line cost
    for f in v07-inline-default v15-threads-separate-combined \
             v24-inline-toggle-collect v30-threads-separate-thread2; do
        run -0 "$TESTS_DIR/annotate/lines.sh" "$CG_BINDIR" "$CORPUS/valgrind/$f.callgrind"
        [[ "${lines[-1]}" == "compared "* ]]
        [ "$(cut -d' ' -f2 <<< "${lines[-1]}")" -gt 0 ]
    done
}

# bats test_tags=valgrind
@test "a fresh recording of tests/programs/hot.c: the HOT line costs most, every figure is cg-tsv's" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    mkdir -p "$T/src"
    cp "$TESTS_DIR/programs/hot.c" "$T/src/"
    (cd "$T/src" && cc -g -O0 -o "$T/hot" hot.c)
    valgrind -q --tool=callgrind --callgrind-out-file="$T/hot.cg" "$T/hot" > /dev/null
    file=$("$CG_BINDIR/cg-tsv" "$T/hot.cg" | awk -F'\t' '$5 ~ /hot\.c$/ { print $5; exit }')
    [ -n "$file" ]
    run -0 tie "$T/hot.cg" "$file" -I "$T/src"
    run -0 annotate -w 0 -I "$T/src" "$T/hot.cg"
    # the costliest line of hot.c is the one marked HOT
    top=$(printf '%s\n' "${lines[@]}" | sed -n '/^-- Source: .*hot\.c/,/^$/p' |
          awk '$2 ~ /^[0-9]+$/ && $1 != "." { v = $1; gsub(/,/, "", v); if (v + 0 > max) { max = v + 0; t = $0 } } END { print t }')
    [[ "$top" == *"/* HOT */" ]]
    # the CALLS line calls square_sum 20 times
    grep -A1 'CALLS' <<< "$output" | grep -q '=> square_sum (20x)$'
}

@test "the README's excerpt is what its command prints" {
    [ ! -e "$RECORDED" ] || cmp -s "$RECORDED" "$ROOT/tests/programs/hanoi.c" ||
        skip "$RECORDED is another hanoi.c here"
    # the block that shows the command, split at its [...] lines
    awk '/^```sh$/ { on = 0; buf = ""; inblock = 1; next }
         /^```$/ { if (on) printf "%s", buf; inblock = 0; on = 0; next }
         inblock && /^\$ build\/bin\/cg-annotate / { on = 1 }
         inblock { buf = buf $0 "\n" }' "$ROOT/README.md" > "$T/block"
    cmd=$(head -n 1 "$T/block")
    [[ "$cmd" == '$ build/bin/cg-annotate -I . '* ]]
    cmd=${cmd#\$ build/bin/}
    (cd "$ROOT" && PATH=$CG_BINDIR:$PATH bash -c "$cmd") > "$T/printed"
    tail -n +2 "$T/block" | awk -v dir="$T" '/^\[\.\.\.\]$/ { n++; next } { print > (dir "/run" n) }'
    runs=0
    for f in "$T"/run*; do
        # each run of lines is in the output, whole and in order
        python3 - "$f" "$T/printed" <<'PY'
import sys
run = open(sys.argv[1]).read()
sys.exit(0 if run in open(sys.argv[2]).read() else 1)
PY
        runs=$((runs + 1))
    done
    [ "$runs" -eq 3 ]
}

@test "an empty input among several is skipped with a warning, as cg-funcs does" {
    : > "$T/empty.cg"
    run -0 --separate-stderr "$CG_BINDIR/cg-annotate" --no-auto "$T/empty.cg" "$HANOI"
    [ "$stderr" = "$T/empty.cg:0: warning: empty input: skipped" ]
    # the same report as of the one profile, but for the Profile: line
    [ "$(grep -v '^Profile:' <<< "$output")" = "$("$CG_BINDIR/cg-annotate" --no-auto "$HANOI" | grep -v '^Profile:')" ]
    run -1 --separate-stderr "$CG_BINDIR/cg-annotate" --no-auto "$T/empty.cg"
    [ "$stderr" = "$T/empty.cg:0: syntax: no profile: the input holds no header or body line" ]
}
