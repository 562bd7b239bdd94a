#!/usr/bin/env bats
# Hostile and broken inputs through the commands: nothing crashes, hangs or
# prints half an answer.
load common

setup() {
    T=$BATS_TEST_TMPDIR
}

all_commands() { # all_commands STATUS ARGS... - every command ends so
    contract_commands "$@" && analysis_commands "$@"
}

contract_commands() { # the commands that keep the profile's limits
    commands_end "$1" "cg-validate cg-tsv cg-parts cg-normalize" "${@:2}"
}

analysis_commands() { # the commands that read any size
    commands_end "$1" "cg-funcs cg-fold cg-diff" "${@:2}"
}

commands_end() { # commands_end STATUS "CMD..." ARGS... (cg-diff: ARGS twice)
    local want=$1 cmd
    local -a cmds args
    read -r -a cmds <<< "$2"
    shift 2
    for cmd in "${cmds[@]}"; do
        args=("$@")
        [ "$cmd" != cg-diff ] || args+=("$@")
        run --separate-stderr timeout 20 "$CG_BINDIR/$cmd" "${args[@]}"
        [ "$status" -eq "$want" ] || { echo "$cmd: status $status: $stderr"; return 1; }
        [ "$want" -eq 0 ] || [ -z "$output" ] || { echo "$cmd wrote output"; return 1; }
    done
}

@test "binary garbage is refused by every command, with no output" {
    head -c 100000 /dev/urandom > "$T/noise"
    all_commands 1 "$T/noise"
    all_commands 1 "$(command -v ls)"
}

@test "a file whose size is 0 but which reads longer (it grew): the cap holds" {
    [ -r /proc/self/maps ] || skip "no /proc"
    run -1 --separate-stderr validate --limit input=100 /proc/self/maps
    [[ "$stderr" == "/proc/self/maps:0: resource: input size over the input limit of 100 "* ]]
    run -1 --separate-stderr validate /proc/self/maps
    [[ "$stderr" == "/proc/self/maps:1: syntax: "* ]]
}

@test "an I/O error while reading is exit 2" {
    [ -e /proc/self/mem ] || skip "no /proc/self/mem"
    run -2 --separate-stderr validate /proc/self/mem
    [ "$stderr" = "cg-validate: /proc/self/mem: Input/output error" ]
}

@test "devices, directories and sockets are refused by every command" {
    all_commands 2 /dev/zero
    # two folders are cg-diff's folder mode (diff-dirs.bats)
    contract_commands 2 "$T"
    commands_end 2 "cg-funcs cg-fold cg-merge" "$T"
    run -2 --separate-stderr "$CG_BINDIR/cg-diff" "$T" /dev/zero
    [ -z "$output" ]
    run -2 --separate-stderr validate /dev/null
    [ "$stderr" = "cg-validate: /dev/null: is a device" ]
    run -2 --separate-stderr validate "$T"
    [ "$stderr" = "cg-validate: $T: is a directory" ]
    command -v python3 >/dev/null || skip "no python3 to make a socket"
    python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$T/sock"
    all_commands 2 "$T/sock"
    run -2 --separate-stderr validate "$T/sock"
    [ "$stderr" = "cg-validate: $T/sock: is a socket" ]
}

@test "UTF-8 across the 64 KiB read chunks: whole characters pass, a cut one fails at its line" {
    # a 4-byte character straddles byte 65536
    awk 'BEGIN { printf "events: A\nfn="; for (i = 13; i < 65534; i++) printf "x"; printf "\360\237\230\200\n1 1\n" }' > "$T/wide.cg"
    [ "$(head -c 65538 "$T/wide.cg" | tail -c 4 | od -An -tx1 | tr -d ' ')" = "f09f9880" ]
    all_commands 0 "$T/wide.cg"
    # the same sequence without its last byte, at the same place
    awk 'BEGIN { printf "events: A\nfn="; for (i = 13; i < 65534; i++) printf "x"; printf "\360\237\230\n1 1\n" }' > "$T/cut.cg"
    run -1 --separate-stderr validate "$T/cut.cg"
    [[ "$stderr" == "$T/cut.cg:2: syntax: input is not UTF-8"* ]]
    run -1 --separate-stderr bash -c "cat '$T/cut.cg' | '$CG_BINDIR/cg-validate'"
    [[ "$stderr" == "<stdin>:2: syntax: input is not UTF-8"* ]]
}

@test "NUL bytes are Syntax at their line" {
    printf 'events: A\nfn=f\n1 1\0\n' > "$T/nul.cg"
    run -1 --separate-stderr validate "$T/nul.cg"
    [[ "$stderr" == "$T/nul.cg:3: syntax: NUL byte"* ]]
}

@test "text limit in code units through the commands, with 2- and 4-byte UTF-8" {
    printf 'events: A\nfn=\303\251\360\237\230\200\n1 1\n' > "$T/u.cg"
    # 10 + (3 + 1 + 2 + 1) + 4 = 21 code units in 17 + 4 = 24 bytes
    [ "$(wc -c < "$T/u.cg")" -eq 24 ]
    all_commands 0 --limit text=21 "$T/u.cg"
    all_commands 1 --limit text=20 "$T/u.cg"
    run -1 --separate-stderr validate --limit text=20 "$T/u.cg"
    [[ "$stderr" == "$T/u.cg:0: resource: input text (UTF-16 code units) over the text limit of 20 "* ]]
}

@test "every limit through the commands at N and N+1" {
    printf 'events: A B\nfn=(1) f\nfl=(1) a.c\n1 1 2\n3 4\nevents: A\nfn=(2) g\n5 5\n' > "$T/l.cg"
    for spec in records=3:8 parts=2:6 headers=1:1 events=2:0 ids=2:0 line=11:1; do
        name=${spec%%=*} rest=${spec#*=} n=${spec#*=}
        n=${n%%:*} over=${rest#*:}
        run -0 validate --limit "$name=$n" "$T/l.cg"
        [ "$over" = 0 ] && continue
        run -1 --separate-stderr validate --limit "$name=$((n - 1))" "$T/l.cg"
        [[ "$stderr" == "$T/l.cg:$over: resource: "*"--limit $name=N"* ]]
    done
    run -1 --separate-stderr validate --limit events=1 "$T/l.cg"
    [[ "$stderr" == "$T/l.cg:1: resource: event count over the events limit of 1 "* ]]
    run -1 --separate-stderr validate --limit ids=1 "$T/l.cg"
    [[ "$stderr" == "$T/l.cg:7: resource: distinct ID count over the ids limit of 1 "* ]]
}

@test "one long name referenced many times: refused quickly by the budget; read in bounded time where any size is read" {
    sh "$TESTS_DIR/conformance/gen/054-budget-16Mi-plus-1.sh" > "$T/b.cg" 2>/dev/null ||
        awk 'BEGIN { printf "events: A\nfn=(1) "; for (i = 0; i < 1000000; i++) printf "n"; printf "\n"; for (i = 0; i < 100000; i++) print "fn=(1)\n1 1" }' > "$T/b.cg"
    contract_commands 1 "$T/b.cg"
    # a name is interned once, whatever its references cost the budget
    analysis_commands 0 "$T/b.cg"
    run -1 --separate-stderr "$CG_BINDIR/cg-funcs" --limit budget=16777216 "$T/b.cg"
    [[ "$stderr" == *"resource: record expansion over the budget limit of 16777216"* ]]
    run -1 --separate-stderr validate "$T/b.cg"
    [[ "$stderr" == *"resource: record expansion over the budget limit of 16777216"* ]]
}
