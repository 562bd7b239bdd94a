#!/usr/bin/env bats
# cg-diff: hand-made pairs with figures worked out by hand, the gate's exit
# codes, every error path, and two recordings of one program made here.
load common

diff_() { "$CG_BINDIR/cg-diff" "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows
TAB=$'\t'

# OLD: main calls slow and steady; gone is there once.
write_old() {
    cat > "$1" <<'CG'
events: Ir
ob=/home/a/build/prog
fl=/home/a/src/main.c
fn=main
1 10
cfn=slow
calls=1 2
2 100
cfn=steady
calls=1 3
3 50
fn=slow
4 100
fn=steady
5 50
fn=gone
6 5
CG
}

# NEW, built in another directory: slow takes 250, fresh appears, gone
# is gone; main and steady do the same work.
write_new() {
    cat > "$1" <<'CG'
events: Ir
ob=/tmp/b/prog
fl=/tmp/b/main.c
fn=main
1 10
cfn=slow
calls=1 2
2 250
cfn=steady
calls=1 3
3 50
fn=slow
4 250
fn=steady
5 50
fn=fresh
6 7
CG
}

setup() {
    T=$BATS_TEST_TMPDIR
    write_old "$T/old.cg"
    write_new "$T/new.cg"
}

@test "the changed function first; added and removed ones; no unchanged rows" {
    run -0 --separate-stderr diff_ "$T/old.cg" "$T/new.cg"
    [ -z "$stderr" ]
    [ "${lines[0]}" = "status${TAB}ob${TAB}fl${TAB}fn${TAB}called:old${TAB}called:new${TAB}Ir:old${TAB}Ir:new${TAB}Ir:delta${TAB}Ir:pct${TAB}Ir:incl:old${TAB}Ir:incl:new${TAB}Ir:incl:delta${TAB}Ir:incl:pct" ]
    # slow: self 100 -> 250 (+150, 150.00%), before main, whose self did not move
    [ "${lines[1]}" = "changed${TAB}prog${TAB}main.c${TAB}slow${TAB}1${TAB}1${TAB}100${TAB}250${TAB}150${TAB}150.00${TAB}100${TAB}250${TAB}150${TAB}150.00" ]
    [ "${lines[2]}" = "added${TAB}prog${TAB}main.c${TAB}fresh${TAB}0${TAB}0${TAB}0${TAB}7${TAB}7${TAB}${TAB}0${TAB}7${TAB}7${TAB}" ]
    [ "${lines[3]}" = "removed${TAB}prog${TAB}main.c${TAB}gone${TAB}0${TAB}0${TAB}5${TAB}0${TAB}-5${TAB}-100.00${TAB}5${TAB}0${TAB}-5${TAB}-100.00" ]
    # main: self 10 both, inclusive 160 -> 310
    [ "${lines[4]}" = "changed${TAB}prog${TAB}main.c${TAB}main${TAB}0${TAB}0${TAB}10${TAB}10${TAB}0${TAB}0.00${TAB}160${TAB}310${TAB}150${TAB}93.75" ]
    [ "${#lines[@]}" -eq 5 ]
}

@test "-a adds the unchanged; -s sorts by another delta; -n, -m, -t cut" {
    run -0 diff_ -a -H "$T/old.cg" "$T/new.cg"
    [ "${#lines[@]}" -eq 5 ]
    grep -qx "same${TAB}prog${TAB}main.c${TAB}steady${TAB}1${TAB}1${TAB}50${TAB}50${TAB}0${TAB}0.00${TAB}50${TAB}50${TAB}0${TAB}0.00" <<< "$output"
    run -0 diff_ -H -s Ir:incl:delta "$T/old.cg" "$T/new.cg"
    [ "$(cut -f4 <<< "$output" | tr '\n' ' ')" = "main slow fresh gone " ]
    run -0 diff_ -H -n 1 "$T/old.cg" "$T/new.cg"
    [ "$(cut -f4 <<< "$output")" = "slow" ]
    run -0 diff_ -H -m 7 "$T/old.cg" "$T/new.cg"
    [ "$(cut -f4 <<< "$output" | tr '\n' ' ')" = "slow fresh " ]
    # old total 165: 5 is 3.03%, 7 is 4.24%
    run -0 diff_ -H -t 4.24 "$T/old.cg" "$T/new.cg"
    [ "$(cut -f4 <<< "$output" | tr '\n' ' ')" = "slow fresh " ]
    run -0 diff_ -H -t 4.25 "$T/old.cg" "$T/new.cg"
    [ "$(cut -f4 <<< "$output" | tr '\n' ' ')" = "slow " ]
    sed 's/^calls=1 2$/calls=3 2/' "$T/new.cg" > "$T/calls.cg"
    run -0 diff_ -H -s called:delta "$T/old.cg" "$T/calls.cg"
    [ "$(cut -f4-6 <<< "$output" | tr '\t\n' ', ')" = "slow,1,3 fresh,0,0 gone,0,0 main,0,0 " ]
}

@test "-T: the totals, in a form of its own" {
    run -0 diff_ -T "$T/old.cg" "$T/new.cg"
    [ "$output" = "$(printf 'event\told\tnew\tdelta\tpct\nIr\t165\t317\t152\t92.12')" ]
}

@test "the gate: exit 3 and one line past it, exit 0 within it; the table is written either way" {
    run -3 --separate-stderr diff_ --fail-above Ir=92 "$T/old.cg" "$T/new.cg"
    [ "$stderr" = "cg-diff: Ir grew by 92.12% (165 -> 317), over --fail-above Ir=92" ]
    [ "${#lines[@]}" -eq 5 ]
    run -0 --separate-stderr diff_ --fail-above Ir=92.13 "$T/old.cg" "$T/new.cg"
    [ -z "$stderr" ]
    # exactly at the gate holds: 152 / 165 is not more than 152/165
    printf 'events: Ir\nfn=f\n1 100\n' > "$T/a.cg"
    printf 'events: Ir\nfn=f\n1 102\n' > "$T/b.cg"
    run -0 diff_ --fail-above Ir=2 "$T/a.cg" "$T/b.cg"
    run -3 diff_ --fail-above Ir=1.999999 "$T/a.cg" "$T/b.cg"
    # shrinking never fails; growing from 0 always does
    run -0 diff_ --fail-above Ir=0 "$T/b.cg" "$T/a.cg"
    printf 'events: Ir\nfn=f\n1 0\n' > "$T/z.cg"
    run -3 --separate-stderr diff_ --fail-above Ir=1000 "$T/z.cg" "$T/a.cg"
    [ "$stderr" = "cg-diff: Ir grew by an old total of 0 (0 -> 100), over --fail-above Ir=1000" ]
}

@test "several gates: each one that fails says so" {
    printf 'events: Ir Dr\nfn=f\n1 100 10\n' > "$T/a.cg"
    printf 'events: Ir Dr\nfn=f\n1 110 20\n' > "$T/b.cg"
    run -3 --separate-stderr diff_ --fail-above Ir=5 --fail-above Dr=50 --fail-above Ir=20 "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "$(printf 'cg-diff: Ir grew by 10.00%% (100 -> 110), over --fail-above Ir=5\ncg-diff: Dr grew by 100.00%% (10 -> 20), over --fail-above Dr=50')" ]
}

@test "a gate on one function: its inclusive cost, by its name in any file" {
    # main calls hot (inclusive 10 -> 30) and cold; hot is in two files:
    # its figure is the sum of both (5 + 5 -> 25 + 5)
    printf 'events: Ir\nfl=a.c\nfn=main\n1 100\ncfn=hot\ncalls=1 1\n1 5\nfn=hot\n1 5\nfl=b.c\nfn=hot\n1 5\n' > "$T/a.cg"
    printf 'events: Ir\nfl=a.c\nfn=main\n1 80\ncfn=hot\ncalls=1 1\n1 25\nfn=hot\n1 25\nfl=b.c\nfn=hot\n1 5\n' > "$T/b.cg"
    # the total grew by 10 / 110 = 9.09%: a 10% gate on it holds
    run -0 diff_ --fail-above Ir=10 "$T/a.cg" "$T/b.cg"
    run -3 --separate-stderr diff_ --fail-above Ir=10 --fail-above hot:Ir=199 "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "cg-diff: hot: inclusive Ir grew by 200.00% (10 -> 30), over --fail-above hot:Ir=199" ]
    run -0 diff_ --fail-above hot:Ir=200 "$T/a.cg" "$T/b.cg"
    # main's inclusive fell (110 -> 110 + 0): never a failure
    run -0 diff_ --fail-above main:Ir=0 "$T/a.cg" "$T/b.cg"
    # a name of no function is an error, not a gate that always holds
    run -2 --separate-stderr diff_ --fail-above mian:Ir=1 "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "cg-diff: --fail-above mian:Ir=1: no function 'mian' in either profile" ]
    # C++ names keep their colons: the event is after the last one
    printf 'events: Ir\nfn=ns::f\n1 10\n' > "$T/c1.cg"
    printf 'events: Ir\nfn=ns::f\n1 20\n' > "$T/c2.cg"
    run -3 --separate-stderr diff_ --fail-above ns::f:Ir=50 "$T/c1.cg" "$T/c2.cg"
    [ "$stderr" = "cg-diff: ns::f: inclusive Ir grew by 100.00% (10 -> 20), over --fail-above ns::f:Ir=50" ]
    run -2 --separate-stderr diff_ --fail-above ns::f:=50 "$T/c1.cg" "$T/c2.cg"
    [ "${stderr_lines[0]}" = "cg-diff: --fail-above ns::f:=50: expected EV=PCT or FN:EV=PCT" ]
}

@test "an invalid profile is exit 1, apart from a failed gate (3)" {
    printf 'events: Ir\nfn=f\n1 10\n' > "$T/a.cg"
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr diff_ --fail-above Ir=0 "$T/a.cg" "$T/bad.cg"
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
    [ -z "$output" ]
}

@test "standard input for both sides is a usage error" {
    run -2 --separate-stderr diff_ - - < /dev/null
    [ "${stderr_lines[0]}" = "cg-diff: OLD and NEW cannot both be standard input" ]
}

@test "address-only names rank after the named functions" {
    # a stripped build: 0x... names move and are removed and added anew
    printf 'events: Ir\nfn=0x4011a0\n1 900\nfn=main\n1 10\nfn=work\n1 20\n' > "$T/a.cg"
    printf 'events: Ir\nfn=0x4011b0\n1 900\nfn=main\n1 11\nfn=work\n1 25\n' > "$T/b.cg"
    run -0 diff_ -H "$T/a.cg" "$T/b.cg"
    [ "$(cut -f1,4 <<< "$output" | tr '\t\n' ': ')" = "changed:work changed:main removed:0x4011a0 added:0x4011b0 " ]
}

@test "deltas equal cg-funcs(NEW) minus cg-funcs(OLD), row by row" {
    funcs -H "$T/old.cg" > "$T/fo"
    funcs -H "$T/new.cg" > "$T/fn"
    diff_ -a -H "$T/old.cg" "$T/new.cg" > "$T/d"
    run -0 awk -F '\t' '
        FILENAME ~ /fo$/ { so[$3] = $6; io[$3] = $7; next }
        FILENAME ~ /fn$/ { sn[$3] = $6; in_[$3] = $7; next }
        { n++
          if ($9 != sn[$4] - so[$4] || $13 != in_[$4] - io[$4]) { print "bad " $4; bad = 1 } }
        END { print n " rows"; exit bad }' "$T/fo" "$T/fn" "$T/d"
    [ "$output" = "5 rows" ]
}

@test "--mod-fn renames before matching; --mod-fl and --mod-ob too" {
    sed 's/^fn=fresh$/fn=gone_v2/' "$T/new.cg" > "$T/renamed.cg"
    run -0 diff_ -H "$T/old.cg" "$T/renamed.cg"
    grep -q "^removed${TAB}.*${TAB}gone${TAB}" <<< "$output"
    run -0 diff_ -H --mod-fn 's/_v[0-9]+$//' "$T/old.cg" "$T/renamed.cg"
    grep -qx "changed${TAB}prog${TAB}main.c${TAB}gone${TAB}0${TAB}0${TAB}5${TAB}7${TAB}2${TAB}40.00${TAB}5${TAB}7${TAB}2${TAB}40.00" <<< "$output"
    sed -e 's#^ob=.*#ob=/opt/prog-2.1#' -e 's#^fl=.*#fl=/x/main_new.c#' "$T/new.cg" > "$T/moved.cg"
    run -0 diff_ -H -n 1 --mod-ob 's/-[0-9.]+$//' --mod-fl 's/_new//' "$T/old.cg" "$T/moved.cg"
    [[ "$output" == "changed${TAB}prog${TAB}main.c${TAB}slow${TAB}"* ]]
}

@test "events: the ones both sides have; -e naming a side that lacks one" {
    printf 'events: Ir Dr\nfn=f\n1 1 2\n' > "$T/a.cg"
    printf 'events: Dr Bc\nfn=f\n1 3 4\n' > "$T/b.cg"
    run -0 diff_ -H "$T/a.cg" "$T/b.cg"
    [ "$output" = "changed${TAB}${TAB}${TAB}f${TAB}0${TAB}0${TAB}2${TAB}3${TAB}1${TAB}50.00${TAB}2${TAB}3${TAB}1${TAB}50.00" ]
    run -2 --separate-stderr diff_ -e Ir "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "cg-diff: -e: event 'Ir' is not in NEW ($T/b.cg)" ]
    [ -z "$output" ]
    run -2 --separate-stderr diff_ -e Bc "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "cg-diff: -e: event 'Bc' is not in OLD ($T/a.cg)" ]
    run -2 --separate-stderr diff_ --fail-above Bc=1 "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "cg-diff: --fail-above: event 'Bc' is not in OLD ($T/a.cg)" ]
    [ -z "$output" ]
}

@test "an invalid input: its diagnostic, no rows, exit 1; unreadable: exit 2" {
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr diff_ "$T/old.cg" "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
    run -2 --separate-stderr diff_ "$T/old.cg" "$T/none.cg"
    [ -z "$output" ]
    [ "$stderr" = "cg-diff: $T/none.cg: No such file or directory" ]
    run -0 diff_ -H - "$T/new.cg" < "$T/old.cg"
    [ "${#lines[@]}" -eq 4 ]
}

@test "usage errors: exit 2, a line that says why" {
    run -2 --separate-stderr diff_ "$T/old.cg"
    [[ "$stderr" == "cg-diff: expected two profiles, OLD and NEW"* ]]
    run -2 --separate-stderr diff_ -t 1 -m 1 "$T/old.cg" "$T/new.cg"
    [[ "$stderr" == "cg-diff: -t and -m go one at a time"* ]]
    run -2 --separate-stderr diff_ --mod-fn 's/a/b' "$T/old.cg" "$T/new.cg"
    [ "${stderr_lines[0]}" = "cg-diff: --mod-fn 's/a/b': expected s/RE/REPLACEMENT/ or s/RE/REPLACEMENT/g" ]
    [[ "${stderr_lines[1]}" == "usage: cg-diff "* ]]
    run -2 --separate-stderr diff_ --mod-fl 's/(/b/' "$T/old.cg" "$T/new.cg"
    [[ "$stderr" == "cg-diff: --mod-fl 's/(/b/': "* ]]
    run -2 --separate-stderr diff_ --fail-above Ir "$T/old.cg" "$T/new.cg"
    [ "${stderr_lines[0]}" = "cg-diff: --fail-above Ir: expected EV=PCT or FN:EV=PCT" ]
    run -2 --separate-stderr diff_ --fail-above Ir=x "$T/old.cg" "$T/new.cg"
    [[ "$stderr" == "cg-diff: --fail-above x: expected a percentage"* ]]
    run -2 --separate-stderr diff_ -s Ir "$T/old.cg" "$T/new.cg"
    [[ "$stderr" == "cg-diff: -s Ir: no such column"* ]]
    run -2 --separate-stderr diff_ -t 5 -s called:delta "$T/old.cg" "$T/new.cg"
    [ "${stderr_lines[0]}" = "cg-diff: -t: the sort column must be an event's" ]
    [ -z "$output" ]
    run -0 diff_ --help
    [[ "${lines[0]}" == "usage: cg-diff "* ]]
}

@test "a failed write is exit 2" {
    run -2 --separate-stderr bash -c '"$0" "$1" "$2" > /dev/full' "$CG_BINDIR/cg-diff" "$T/old.cg" "$T/new.cg"
    [[ "$stderr" == "cg-diff: write error: "* ]]
}

# bats test_tags=valgrind
@test "recorded: two builds of one program, the slower function first" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    mkdir -p "$T/v1" "$T/v2"
    cc -g -O0 -o "$T/v1/shop" "$TESTS_DIR/programs/shop.c"
    cc -g -O0 -DSLOW_TOTAL -DAUDIT -o "$T/v2/shop" "$TESTS_DIR/programs/shop.c"
    (cd "$T/v1" && valgrind -q --tool=callgrind --callgrind-out-file=../v1.cg ./shop > /dev/null)
    (cd "$T/v2" && valgrind -q --tool=callgrind --callgrind-out-file=../v2.cg ./shop > /dev/null)
    run -0 diff_ -H "$T/v1.cg" "$T/v2.cg"
    # total() does its loop three times over: it comes first, and its
    # delta is its new self cost minus its old one
    [[ "${lines[0]}" == "changed${TAB}shop${TAB}shop.c${TAB}total${TAB}1${TAB}1${TAB}"* ]]
    old=$(funcs -H -e Ir "$T/v1.cg" | awk -F '\t' '$3 == "total" { print $6 }')
    new=$(funcs -H -e Ir "$T/v2.cg" | awk -F '\t' '$3 == "total" { print $6 }')
    [ "$(cut -f9 <<< "${lines[0]}")" -eq $((new - old)) ]
    [ $((new - old)) -gt $((old)) ]
    # audit() is new
    grep -q "^added${TAB}shop${TAB}shop.c${TAB}audit${TAB}" <<< "$output"
    # and the whole program grew by more than 10%: the gate fails
    run -3 --separate-stderr diff_ -T --fail-above Ir=10 "$T/v1.cg" "$T/v2.cg"
    [[ "$stderr" == "cg-diff: Ir grew by "*"%, over --fail-above Ir=10"* ]] || [[ "$stderr" == "cg-diff: Ir grew by "*", over --fail-above Ir=10" ]]
    run -0 diff_ -T --fail-above Ir=100 "$T/v1.cg" "$T/v2.cg"
    # a recording compared with itself: nothing changed
    run -0 diff_ -H "$T/v1.cg" "$T/v1.cg"
    [ -z "$output" ]
}
