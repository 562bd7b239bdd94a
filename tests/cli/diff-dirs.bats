#!/usr/bin/env bats
# cg-diff OLD_DIR NEW_DIR: folders of benchmark profiles paired by their
# paths, one row of totals a pair, their sum, the gates over every pair
# and the list of what failed.  The figures are worked out by hand from
# the profiles written here, or from the totals: lines of the recordings.
load common

diff_() { "$CG_BINDIR/cg-diff" "$@"; }
TAB=$'\t'

# prof FILE COST...: a profile of event Ir with one function per cost
# (f1, f2, ...): its total is the sum of the costs.
prof() {
    local f=$1 i=0 c
    shift
    mkdir -p "$(dirname "$f")"
    {
        echo 'events: Ir'
        for c in "$@"; do
            i=$((i + 1))
            printf 'fn=f%d\n%d %d\n' "$i" "$i" "$c"
        done
    } > "$f"
}

# The suite of every test: a regression, an improvement, one unchanged
# (its functions moved, its total did not), a name with a space, nested
# folders, one profile on each side only.
#   a.out           120 -> 170   +50   41.67%
#   gone.out          9 ->   0    -9  -100.00%  (removed)
#   sub/deep/b.out  200 -> 150   -50   -25.00%
#   sub/new.out       0 ->   7     7            (added)
#   sub/same.out     70 ->  70     0     0.00%
#   with space.out   40 ->  44     4    10.00%
#   the sum         439 -> 441     2     0.46%   (2 / 439 = 0.4556%)
setup() {
    T=$BATS_TEST_TMPDIR
    O=$T/old N=$T/new
    prof "$O/a.out" 100 20
    prof "$N/a.out" 150 20
    prof "$O/sub/deep/b.out" 120 80
    prof "$N/sub/deep/b.out" 70 80
    prof "$O/sub/same.out" 70
    prof "$N/sub/same.out" 30 40
    prof "$O/with space.out" 40
    prof "$N/with space.out" 44
    prof "$O/gone.out" 9
    prof "$N/sub/new.out" 7
}

HEADER="status${TAB}name${TAB}Ir:old${TAB}Ir:new${TAB}Ir:delta${TAB}Ir:pct"
ROWS="changed${TAB}a.out${TAB}120${TAB}170${TAB}50${TAB}41.67
removed${TAB}gone.out${TAB}9${TAB}0${TAB}-9${TAB}-100.00
changed${TAB}sub/deep/b.out${TAB}200${TAB}150${TAB}-50${TAB}-25.00
added${TAB}sub/new.out${TAB}0${TAB}7${TAB}7${TAB}
same${TAB}sub/same.out${TAB}70${TAB}70${TAB}0${TAB}0.00
changed${TAB}with space.out${TAB}40${TAB}44${TAB}4${TAB}10.00"
TOTAL="total${TAB}/${TAB}439${TAB}441${TAB}2${TAB}0.46"

@test "one row a pair by its path below the folders, nested, in byte order; the sum last" {
    run -0 --separate-stderr diff_ "$O" "$N"
    [ -z "$stderr" ]
    [ "$output" = "$HEADER"$'\n'"$ROWS"$'\n'"$TOTAL" ]
    # a trailing slash on a folder changes nothing
    run -0 diff_ "$O/" "$N/"
    [ "$output" = "$HEADER"$'\n'"$ROWS"$'\n'"$TOTAL" ]
    run -0 diff_ -H "$O" "$N"
    [ "$output" = "$ROWS"$'\n'"$TOTAL" ]
}

@test "the sum is the sum of the rows above it, column by column" {
    run -0 diff_ -H "$O" "$N"
    sums=$(awk -F '\t' '$1 != "total" { a += $3; b += $4; d += $5 }
                        END { printf "%d %d %d %.2f", a, b, d, d * 100 / a }' <<< "$output")
    [ "$sums" = "439 441 2 0.46" ]
    [ "$(grep "^total$TAB" <<< "$output" | cut -f3-6 | tr '\t' ' ')" = "$sums" ]
}

@test "each pair's row holds what cg-diff -T prints for the two files" {
    run -0 diff_ -H "$O" "$N"
    for name in a.out sub/deep/b.out sub/same.out "with space.out"; do
        want=$(diff_ -T -H "$O/$name" "$N/$name" | cut -f2-5)
        [ "$(awk -F '\t' -v n="$name" '$2 == n' <<< "$output" | cut -f3-6)" = "$want" ]
    done
}

@test "the order of the names is byte order, whatever the order of creation" {
    names=("é.out" "a/x.out" "a.out" "a-b/x.out" "_c.out" "B.out")
    for ((i = 0; i < ${#names[@]}; i++)); do
        prof "$T/o1/${names[i]}" 1
        prof "$T/n1/${names[i]}" 2
    done
    for ((i = ${#names[@]} - 1; i >= 0; i--)); do
        prof "$T/o2/${names[i]}" 1
        prof "$T/n2/${names[i]}" 2
    done
    run -0 diff_ -H "$T/o1" "$T/n1"
    first=$output
    [ "$(cut -f2 <<< "$output" | tr '\n' ' ')" = "B.out _c.out a-b/x.out a.out a/x.out é.out / " ]
    run -0 diff_ -H "$T/o2" "$T/n2"
    [ "$output" = "$first" ]
}

@test "unpaired profiles are listed with their figures on their side and do not fail; --fail-unpaired fails them, one line each" {
    run -0 --separate-stderr diff_ -H "$O" "$N"
    [ -z "$stderr" ]
    grep -qx "removed${TAB}gone.out${TAB}9${TAB}0${TAB}-9${TAB}-100.00" <<< "$output"
    grep -qx "added${TAB}sub/new.out${TAB}0${TAB}7${TAB}7${TAB}" <<< "$output"
    run -3 --separate-stderr diff_ --fail-unpaired "$O" "$N"
    [ "$output" = "$HEADER"$'\n'"$ROWS"$'\n'"$TOTAL" ]
    [ "${stderr_lines[0]}" = "cg-diff: gone.out: removed, not in $N (--fail-unpaired)" ]
    [ "${stderr_lines[1]}" = "cg-diff: sub/new.out: added, not in $O (--fail-unpaired)" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
    # every profile paired: it holds
    rm "$O/gone.out" "$N/sub/new.out"
    run -0 --separate-stderr diff_ --fail-unpaired "$O" "$N"
    [ -z "$stderr" ]
    # of two files it is a usage error
    run -2 --separate-stderr diff_ --fail-unpaired "$O/a.out" "$N/a.out"
    [ "${stderr_lines[0]}" = "cg-diff: --fail-unpaired: only with two folders" ]
}

@test "--fail-above gates every pair: exit 3 and the list of the regressions after the table" {
    # a.out grew by 41.67%, with space.out by 10.00%: only a.out is past 10
    run -3 --separate-stderr diff_ --fail-above Ir=10 "$O" "$N"
    [ "$output" = "$HEADER"$'\n'"$ROWS"$'\n'"$TOTAL" ]
    [ "$stderr" = "cg-diff: a.out: Ir grew by 41.67% (120 -> 170), over --fail-above Ir=10" ]
    run -3 --separate-stderr diff_ --fail-above Ir=9.99 "$O" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: a.out: Ir grew by 41.67% (120 -> 170), over --fail-above Ir=9.99" ]
    [ "${stderr_lines[1]}" = "cg-diff: with space.out: Ir grew by 10.00% (40 -> 44), over --fail-above Ir=9.99" ]
    [ "${#stderr_lines[@]}" -eq 2 ]
    # 50 / 120 = 41.666...%: a gate of 41.67 holds, one of 41.66 fails
    run -0 --separate-stderr diff_ --fail-above Ir=41.67 "$O" "$N"
    [ -z "$stderr" ]
    run -3 diff_ --fail-above Ir=41.66 "$O" "$N"
    # a profile without a pair, and the sum, are not gated by it: x.out
    # holds, y.out is new, the sum grew 1000%
    prof "$T/p/x.out" 10
    prof "$T/q/x.out" 10
    prof "$T/q/y.out" 100
    run -0 --separate-stderr diff_ --fail-above Ir=0 "$T/p" "$T/q"
    [ -z "$stderr" ]
    [ "${lines[3]}" = "total${TAB}/${TAB}10${TAB}110${TAB}100${TAB}1000.00" ]
    # gates and --fail-unpaired together: in the order of the rows
    run -3 --separate-stderr diff_ --fail-unpaired --fail-above Ir=9.99 "$O" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: a.out: Ir grew by 41.67% (120 -> 170), over --fail-above Ir=9.99" ]
    [ "${stderr_lines[1]}" = "cg-diff: gone.out: removed, not in $N (--fail-unpaired)" ]
    [ "${stderr_lines[2]}" = "cg-diff: sub/new.out: added, not in $O (--fail-unpaired)" ]
    [ "${stderr_lines[3]}" = "cg-diff: with space.out: Ir grew by 10.00% (40 -> 44), over --fail-above Ir=9.99" ]
    [ "${#stderr_lines[@]}" -eq 4 ]
}

@test "a gate on a function gates the pairs that have it" {
    # f1: a.out 100 -> 150 (50.00%), b.out 120 -> 70, same.out 70 -> 30,
    # with space.out 40 -> 44 (10.00%)
    run -3 --separate-stderr diff_ --fail-above f1:Ir=20 "$O" "$N"
    [ "$stderr" = "cg-diff: a.out: f1: inclusive Ir grew by 50.00% (100 -> 150), over --fail-above f1:Ir=20" ]
    # f2 is new in sub/same.out: growth from 0
    run -3 --separate-stderr diff_ --fail-above f2:Ir=1000 "$O" "$N"
    [ "$stderr" = "cg-diff: sub/same.out: f2: inclusive Ir grew by an old total of 0 (0 -> 40), over --fail-above f2:Ir=1000" ]
    # renamed before matching, as for two files
    run -3 --separate-stderr diff_ --mod-fn 's/^f1$/hot/' --fail-above hot:Ir=20 "$O" "$N"
    [ "$stderr" = "cg-diff: a.out: hot: inclusive Ir grew by 50.00% (100 -> 150), over --fail-above hot:Ir=20" ]
    # a gate that no pair can fail is an error, not a gate that holds
    run -2 --separate-stderr diff_ --fail-above nope:Ir=1 "$O" "$N"
    [ "$stderr" = "cg-diff: --fail-above nope:Ir=1: no function 'nope' in any pair" ]
    [ -z "$output" ]
    run -2 --separate-stderr diff_ --fail-above Dr=1 "$O" "$N"
    [ "$stderr" = "cg-diff: --fail-above: no pair has event 'Dr'" ]
    [ -z "$output" ]
}

@test "an invalid profile in one folder: its diagnostic, nothing on stdout, exit 1" {
    printf 'events: Ir\nfn=f\n1 x\n' > "$N/sub/deep/bad.out"
    run -1 --separate-stderr diff_ --fail-above Ir=0 "$O" "$N"
    [ -z "$output" ]
    [[ "$stderr" == "$N/sub/deep/bad.out:3: syntax: "* ]]
    [ "${#stderr_lines[@]}" -eq 1 ]
    # every invalid profile is said, in the order of the rows
    printf 'events: Ir\nfn=f\n1 y\n' > "$O/a.out"
    run -1 --separate-stderr diff_ "$O" "$N"
    [ -z "$output" ]
    [[ "${stderr_lines[0]}" == "$O/a.out:3: syntax: "* ]]
    [[ "${stderr_lines[1]}" == "$N/sub/deep/bad.out:3: syntax: "* ]]
    [ "${#stderr_lines[@]}" -eq 2 ]
}

@test "names with a TAB or a newline: escaped as the TSV escapes names, in the rows and on stderr" {
    prof "$T/o/t${TAB}ab.out" 1
    prof "$T/n/t${TAB}ab.out" 2
    prof "$T/o/n"$'\n'"l.out" 4
    prof "$T/n/n"$'\n'"l.out" 4
    run -3 --separate-stderr diff_ -H --fail-above Ir=50 "$T/o" "$T/n"
    [ "${lines[0]}" = "same${TAB}n\\nl.out${TAB}4${TAB}4${TAB}0${TAB}0.00" ]
    [ "${lines[1]}" = "changed${TAB}t\\tab.out${TAB}1${TAB}2${TAB}1${TAB}100.00" ]
    [ "${lines[2]}" = "total${TAB}/${TAB}5${TAB}6${TAB}1${TAB}20.00" ]
    [ "${#lines[@]}" -eq 3 ]
    [ "$stderr" = "cg-diff: t\\tab.out: Ir grew by 100.00% (1 -> 2), over --fail-above Ir=50" ]
}

@test "events: those of all the rows; one a pair lacks counts 0 there; -e picks and orders" {
    printf 'events: Ir Dr\nfn=f\n1 10 4\n' > "$T/a1"
    printf 'events: Ir Dr\nfn=f\n1 12 5\n' > "$T/a2"
    printf 'events: Ir Dr\nfn=f\n1 20 8\n' > "$T/b1"
    printf 'events: Ir\nfn=f\n1 20\n' > "$T/b2"
    printf 'events: Dr Bc\nfn=f\n1 3 6\n' > "$T/c2"
    mkdir "$T/o" "$T/n"
    cp "$T/a1" "$T/o/a.out"; cp "$T/a2" "$T/n/a.out"
    cp "$T/b1" "$T/o/b.out"; cp "$T/b2" "$T/n/b.out"
    cp "$T/c2" "$T/n/c.out"
    run -0 diff_ "$T/o" "$T/n"
    [ "${lines[0]}" = "status${TAB}name${TAB}Ir:old${TAB}Ir:new${TAB}Ir:delta${TAB}Ir:pct${TAB}Dr:old${TAB}Dr:new${TAB}Dr:delta${TAB}Dr:pct${TAB}Bc:old${TAB}Bc:new${TAB}Bc:delta${TAB}Bc:pct" ]
    [ "${lines[1]}" = "changed${TAB}a.out${TAB}10${TAB}12${TAB}2${TAB}20.00${TAB}4${TAB}5${TAB}1${TAB}25.00${TAB}0${TAB}0${TAB}0${TAB}" ]
    [ "${lines[2]}" = "same${TAB}b.out${TAB}20${TAB}20${TAB}0${TAB}0.00${TAB}0${TAB}0${TAB}0${TAB}${TAB}0${TAB}0${TAB}0${TAB}" ]
    [ "${lines[3]}" = "added${TAB}c.out${TAB}0${TAB}0${TAB}0${TAB}${TAB}0${TAB}3${TAB}3${TAB}${TAB}0${TAB}6${TAB}6${TAB}" ]
    [ "${lines[4]}" = "total${TAB}/${TAB}30${TAB}32${TAB}2${TAB}6.67${TAB}4${TAB}8${TAB}4${TAB}100.00${TAB}0${TAB}6${TAB}6${TAB}" ]
    run -0 diff_ -e Bc,Ir "$T/o" "$T/n"
    [ "${lines[0]}" = "status${TAB}name${TAB}Bc:old${TAB}Bc:new${TAB}Bc:delta${TAB}Bc:pct${TAB}Ir:old${TAB}Ir:new${TAB}Ir:delta${TAB}Ir:pct" ]
    [ "${lines[3]}" = "added${TAB}c.out${TAB}0${TAB}6${TAB}6${TAB}${TAB}0${TAB}0${TAB}0${TAB}" ]
    # the status is of the printed events: with Bc alone, a.out is the same
    run -0 diff_ -H -e Bc "$T/o" "$T/n"
    [ "$(cut -f1 <<< "$output" | tr '\n' ' ')" = "same same added total " ]
    run -2 --separate-stderr diff_ -e Xx "$T/o" "$T/n"
    [ "$stderr" = "cg-diff: -e: no row has event 'Xx'" ]
    [ -z "$output" ]
    # Bc is in no pair: no gate on it can fail
    run -2 --separate-stderr diff_ --fail-above Bc=1 "$T/o" "$T/n"
    [ "$stderr" = "cg-diff: --fail-above: no pair has event 'Bc'" ]
}

@test "-t and -m keep the rows that moved enough; the sum still counts every row" {
    # |delta| / old: a 41.67%, gone 100%, b 25%, new (old 0) kept, same 0, space 10%
    run -0 diff_ -H -t 20 "$O" "$N"
    [ "$(cut -f2 <<< "$output" | tr '\n' ' ')" = "a.out gone.out sub/deep/b.out sub/new.out / " ]
    [ "$(tail -n 1 <<< "$output")" = "$TOTAL" ]
    # |delta|: a 50, gone 9, b 50, new 7, same 0, space 4
    run -0 diff_ -H -m 9 "$O" "$N"
    [ "$(cut -f2 <<< "$output" | tr '\n' ' ')" = "a.out gone.out sub/deep/b.out / " ]
    [ "$(tail -n 1 <<< "$output")" = "$TOTAL" ]
    run -2 --separate-stderr diff_ -t 1 -m 1 "$O" "$N"
    [[ "${stderr_lines[0]}" == "cg-diff: -t and -m go one at a time" ]]
}

@test "-T and -a change nothing of two folders; -s and -n are usage errors there" {
    want=$(diff_ "$O" "$N")
    [ "$(diff_ -T "$O" "$N")" = "$want" ]
    [ "$(diff_ -a "$O" "$N")" = "$want" ]
    run -2 --separate-stderr diff_ -s Ir:delta "$O" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: -s: the rows of two folders are in the order of their names" ]
    [[ "${stderr_lines[1]}" == "usage: cg-diff "* ]]
    [ -z "$output" ]
    run -2 --separate-stderr diff_ -n 2 "$O" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: -n: two folders have one row a pair, and their sum" ]
    [ -z "$output" ]
}

@test "a folder and a file, either way round, or a folder and standard input: a usage error" {
    run -2 --separate-stderr diff_ "$O" "$N/a.out"
    [ "${stderr_lines[0]}" = "cg-diff: $O is a folder and $N/a.out is not: compare two profiles or two folders" ]
    [[ "${stderr_lines[1]}" == "usage: cg-diff "* ]]
    [ -z "$output" ]
    run -2 --separate-stderr diff_ "$O/a.out" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: $N is a folder and $O/a.out is not: compare two profiles or two folders" ]
    run -2 --separate-stderr diff_ - "$N" < "$O/a.out"
    [ "${stderr_lines[0]}" = "cg-diff: $N is a folder and - is not: compare two profiles or two folders" ]
}

@test "hidden entries are left out; a link to a file is read, a link to a folder is not followed" {
    prof "$N/.hidden.out" 5
    prof "$N/.git/objects/x.out" 5
    ln -s .. "$N/sub/loop"
    ln -s ../a.out "$N/sub/link.out"
    ln -s nowhere "$N/dangling.out"
    mkfifo "$N/fifo.out"
    run -0 --separate-stderr timeout 60 "$CG_BINDIR/cg-diff" -H "$O" "$N"
    [ -z "$stderr" ]
    [ "$(cut -f1,2 <<< "$output" | tr '\t\n' ': ')" = "changed:a.out removed:gone.out changed:sub/deep/b.out added:sub/link.out added:sub/new.out same:sub/same.out changed:with space.out total:/ " ]
    grep -qx "added${TAB}sub/link.out${TAB}0${TAB}170${TAB}170${TAB}" <<< "$output"
}

@test "x.out.gz pairs with x.out; gzip is refused without --compat; two of one name are trouble" {
    # a name alone: this .gz holds plain text
    prof "$O/z/x.out" 10
    prof "$N/z/x.out.gz" 11
    run -0 diff_ -H "$O/z" "$N/z"
    [ "${lines[0]}" = "changed${TAB}x.out${TAB}10${TAB}11${TAB}1${TAB}10.00" ]
    [ "${#lines[@]}" -eq 2 ]
    # compressed: refused as a single profile is, nothing written
    gzip -c "$N/a.out" > "$N/a.out.gz"
    rm "$N/a.out"
    run -1 --separate-stderr diff_ "$O" "$N"
    [ -z "$output" ]
    [[ "$stderr" == "$N/a.out.gz:1: unsupported: "* ]]
    # x.out beside x.out.gz: which to compare is not to be guessed
    prof "$O/z/x.out.gz" 10
    run -2 --separate-stderr diff_ "$O/z" "$N/z"
    [ "$stderr" = "cg-diff: $O/z/x.out and $O/z/x.out.gz: two profiles of one name (a trailing .gz is left out of it)" ]
    [ -z "$output" ]
}

@test "gzip under --compat: read, and paired with the plain profile" {
    gzip -c "$N/a.out" > "$T/probe.gz"
    # before --compat read gzip, it refused it as strict reading does
    if ! "$CG_BINDIR/cg-funcs" --compat "$T/probe.gz" > /dev/null 2> "$T/err" &&
        grep -q '^[^:]*:1: unsupported: gzip' "$T/err"; then
        skip "--compat does not read gzip yet"
    fi
    mv "$T/probe.gz" "$N/a.out.gz"
    rm "$N/a.out"
    run -0 --separate-stderr diff_ --compat -H "$O" "$N"
    [ "$output" = "$ROWS"$'\n'"$TOTAL" ]
    [[ "$stderr" == "$N/a.out.gz:1: warning: "* ]]
}

@test "real recordings: each row's totals are those of the totals: lines" {
    V=$TESTS_DIR/corpus/valgrind
    mkdir -p "$T/o/inline" "$T/n/inline"
    cp "$V/v07-inline-default.callgrind" "$T/o/inline/default.callgrind"
    cp "$V/v28-inline-dumpbefore-part2.callgrind" "$T/n/inline/default.callgrind"
    cp "$V/v30-threads-separate-thread2.callgrind" "$T/o/threads.callgrind"
    cp "$V/v15-threads-separate-combined.callgrind" "$T/n/threads.callgrind"
    cp "$V/v19-hanoi-combine-everybb.callgrind" "$T/o/hanoi.callgrind"
    cp "$V/v19-hanoi-combine-everybb.callgrind" "$T/n/hanoi.callgrind"
    cp "$V/v24-inline-toggle-collect.callgrind" "$T/n/toggle.callgrind"
    # the expected rows: the sums of each file's totals: lines (one a part)
    tot() { if [ -e "$1" ]; then awk '/^totals:/ { s += $2 } END { print s + 0 }' "$1"; else echo 0; fi; }
    want=$(for name in hanoi.callgrind inline/default.callgrind threads.callgrind toggle.callgrind; do
        a=$(tot "$T/o/$name") b=$(tot "$T/n/$name")
        if [ ! -e "$T/o/$name" ]; then st=added; elif [ "$a" = "$b" ]; then st=same; else st=changed; fi
        printf '%s\t%s\t%s\t%s\n' "$st" "$name" "$a" "$b"
    done | awk -F '\t' '{
        pct = $3 > 0 ? sprintf("%.2f", ($4 - $3) * 100 / $3) : ""
        printf "%s\t%s\t%d\t%d\t%d\t%s\n", $1, $2, $3, $4, $4 - $3, pct
        a += $3; b += $4 }
      END { printf "total\t/\t%d\t%d\t%d\t%.2f\n", a, b, b - a, (b - a) * 100 / a }')
    run -0 diff_ -H "$T/o" "$T/n"
    [ "$output" = "$want" ]
    [ "${lines[0]}" = "same${TAB}hanoi.callgrind${TAB}558843${TAB}558843${TAB}0${TAB}0.00" ]
    [ "${lines[3]}" = "added${TAB}toggle.callgrind${TAB}0${TAB}480008${TAB}480008${TAB}" ]
    # a recording that strict reading refuses (jumps): the run is refused
    cp "$V/v21-hanoi-jumps.callgrind" "$T/n/hanoi.callgrind"
    run -1 --separate-stderr diff_ --fail-above Ir=1 "$T/o" "$T/n"
    [ -z "$output" ]
    [[ "$stderr" == "$T/n/hanoi.callgrind:25: unsupported: "* ]]
}

@test "empty folders: the header and a sum of nothing, with a warning" {
    mkdir "$T/e1" "$T/e2"
    run -0 --separate-stderr diff_ "$T/e1" "$T/e2"
    [ "$output" = "status${TAB}name"$'\n'"total${TAB}/" ]
    [ "$stderr" = "cg-diff: warning: no profile in $T/e1 or $T/e2" ]
}

@test "a folder that cannot be read is trouble: exit 2, nothing written" {
    [ "$(id -u)" -ne 0 ] || skip "root reads any folder"
    chmod 000 "$N/sub/deep"
    run -2 --separate-stderr diff_ "$O" "$N"
    chmod 755 "$N/sub/deep"
    [ -z "$output" ]
    [ "$stderr" = "cg-diff: $N/sub/deep: Permission denied" ]
}

@test "on a terminal: the table aligned, then the list of what failed" {
    command -v script >/dev/null || skip "script (util-linux) is not installed"
    rm -r "$O/sub" "$N/sub"
    COLUMNS=200 script -qec "'$CG_BINDIR/cg-diff' --fail-above Ir=10 '$O' '$N'" /dev/null | tr -d '\r' > "$T/tty" || true
    printf '%s\n' \
        "status   name            Ir:old  Ir:new  Ir:delta   Ir:pct" \
        "changed  a.out              120     170        50    41.67" \
        "removed  gone.out             9       0        -9  -100.00" \
        "changed  with space.out      40      44         4    10.00" \
        "total    /                  169     214        45    26.63" \
        "cg-diff: a.out: Ir grew by 41.67% (120 -> 170), over --fail-above Ir=10" > "$T/want"
    diff "$T/want" "$T/tty"
    script -qec "'$CG_BINDIR/cg-diff' --fail-above Ir=10 '$O' '$N'" /dev/null > /dev/null || s=$?
    [ "${s:-0}" -eq 3 ]
    # --tsv on a terminal, and a pipe: the TSV
    COLUMNS=200 script -qec "'$CG_BINDIR/cg-diff' --tsv '$O' '$N'" /dev/null | tr -d '\r' > "$T/tty"
    diff_ "$O" "$N" > "$T/pipe"
    cmp "$T/pipe" "$T/tty"
}

@test "a failed write is exit 2, or 3 with a gate that fails" {
    run -2 --separate-stderr bash -c '"$0" "$1" "$2" > /dev/full' "$CG_BINDIR/cg-diff" "$O" "$N"
    [[ "$stderr" == "cg-diff: write error: "* ]]
    run -3 --separate-stderr bash -c '"$0" --fail-above Ir=10 "$1" "$2" > /dev/full' "$CG_BINDIR/cg-diff" "$O" "$N"
    [ "${stderr_lines[0]}" = "cg-diff: a.out: Ir grew by 41.67% (120 -> 170), over --fail-above Ir=10" ]
    [[ "${stderr_lines[1]}" == "cg-diff: write error: "* ]]
}
