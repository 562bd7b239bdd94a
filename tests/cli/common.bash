# Shared setup of the CLI tests: CG_BINDIR is the folder of the commands
# (ctest sets it; by hand: CG_BINDIR=build/bin bats tests/cli).
bats_require_minimum_version 1.5.0

: "${CG_BINDIR:?set CG_BINDIR to the folder holding the cg-* commands}"
CG_BINDIR=$(cd "$CG_BINDIR" && pwd)
TESTS_DIR=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
# used by the .bats files that load this one
# shellcheck disable=SC2034
CORPUS=$TESTS_DIR/corpus
# shellcheck disable=SC2034
CASES=$TESTS_DIR/conformance/cases

validate() { "$CG_BINDIR/cg-validate" "$@"; }

# No temporary file of an -o output (.PROG.XXXXXX beside it) is left in
# the folder $1.
no_temp_in() {
    local f
    for f in "$1"/.cg-*; do
        [ ! -e "$f" ] || { echo "left behind: $f"; return 1; }
    done
}

# Fails when grep finds a line (arguments as grep's; standard input when
# no file is named).  A bare `! grep` in a test never fails it: errexit
# ignores a negated command, but not a function that returns 1.
no_line() { ! grep -q "$@"; }

# A small valid profile with two parts, calls and inline files.
write_profile() {
    cat > "$1" <<'CG'
# callgrind format
version: 1
creator: test
pid: 7
cmd:  ./prog --size=10
part: 1
positions: line
events: Ir Dr
summary: 20 1
ob=(1) /bin/prog
fl=(1) main.c
fn=(1) main
10 5 1
fi=(2) util.h
+2 3
fe=(1)
cfn=(2) helper
calls=2 20
* 12 2
fn=(2)
20 12
totals: 20 1

part: 2
events: Ir
fn=(1)
1 1
CG
}

# same_on_pipe FEED COMMAND ARGS... FILE: the command on a pipe that FEED
# FILE writes (a command, or an exported function), reading it as -,
# prints what it prints for FILE (its name read <stdin>), with the same
# status.
same_on_pipe() {
    local feed=$1
    shift
    local file=${*: -1} args=("${@:1:$#-1}")
    run --separate-stderr "${args[@]}" "$file"
    local want=${output//$file/<stdin>} want_err=${stderr//$file/<stdin>}
    local want_status=$status
    run --separate-stderr bash -c '"$1" "$2" | "${@:3}" -' _ "$feed" "$file" "${args[@]}"
    [ "$status" -eq "$want_status" ]
    [ "$output" = "$want" ]
    [ "$stderr" = "$want_err" ]
}
