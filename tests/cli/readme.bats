#!/usr/bin/env bats
# The README's pipelines, run as written there (from the top of the checkout).
load common

setup() {
    cd "$TESTS_DIR/.." || return
    PATH=$CG_BINDIR:$PATH
}

# The shell code of the README's block that holds MARK, with comments.
readme_block() {
    awk -v mark="$1" '
        /^```sh$/ { inblock = 1; buf = ""; next }
        /^```$/ { if (inblock && index(buf, mark)) printf "%s", buf; inblock = 0; next }
        inblock { buf = buf $0 "\n" }' README.md
}

@test "the README's pipelines print what they promise" {
    code=$(readme_block "# top functions by self Ir")
    [ -n "$code" ]
    run -0 bash -c "$code"
    # four pipelines: 3 top functions, 5 objects, 10 table lines, 3 threads
    [ "${#lines[@]}" -eq 21 ]
    [ "${lines[0]}" = "hanoi'2	41926" ]
    [ "${lines[2]}" = "is_odd'2	31017" ]
    [ "${lines[3]}" = "122395	/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" ]
    [ "${lines[4]}" = "107974	/tmp/hanoi" ]
    [[ "${lines[8]}" == "part "*" kind "*" ob "* ]]
    [ "${lines[18]}" = "thread 1: 7009 records" ]
    [ "${lines[20]}" = "thread 3: 200 records" ]
    # the object sums add up to the profile's total
    total=$(cg-funcs -T -H examples/hanoi.callgrind | cut -f2)
    [ "$(printf '%s\n' "${lines[@]:3:5}" | awk -F'\t' '{ s += $1 } END { print s }')" -eq "$total" ]
}

@test "the README's first command block builds and shows the program's own functions first" {
    grep -q '^./setup.sh build && cmake -S . -B build && cmake --build build -j2 && build/bin/cg-funcs -C -s Ir -n 10 examples/hanoi-main.callgrind$' README.md
    run -0 cg-funcs -C -s Ir -n 10 examples/hanoi-main.callgrind
    [ "${#lines[@]}" -eq 11 ]
    [ "${lines[0]}" = "ob	fl	fn	called	cycle	Ir	Ir:incl" ]
    # hanoi.c's functions first, by self cost, each at most the one before
    [ "$(sed -n '2,6p' <<< "$output" | cut -f3 | tr '\n' ' ')" = "hanoi'2 is_even'2 is_odd'2 is_even is_odd " ]
    [ -z "$(sed -n '2,6p' <<< "$output" | cut -f2 | grep -vx '.*/tests/programs/hanoi.c')" ]
    sed -n '2,11p' <<< "$output" | cut -f6 | sort -c -n -r
    # recorded from main on: main's inclusive cost is the recording's
    # totals: line, and no function of the loader costs anything before it
    [ "$(cg-funcs -H examples/hanoi-main.callgrind | awk -F'\t' '$3 == "main" { print $7 }')" -eq "$(sed -n 's/^totals: //p' examples/hanoi-main.callgrind)" ]
    no_line '_dl_start\|_dl_relocate_object' <<< "$(cg-funcs examples/hanoi-main.callgrind)"
    run -0 cg-validate --complete examples/hanoi-main.callgrind
    run -0 cg-validate -v examples/hanoi.callgrind
    [ "$output" = "examples/hanoi.callgrind: 1 part, 6514 records (426 calls), 1 event" ]
}

# check_tour MARK: each "$ COMMAND" line of the README's block that holds
# MARK prints what the lines after it show, up to the next one; returns
# the number of commands in $n.
check_tour() {
    block=$(readme_block "$1")
    [ -n "$block" ]
    printf '%s\n' "$block" > "$BATS_TEST_TMPDIR/tour"
    n=0
    while IFS= read -r line || [ -n "$line" ]; do
        case $line in
            '$ '*)
                [ $n -eq 0 ] || check_tour_step
                cmd=${line#\$ }
                want=
                n=$((n + 1)) ;;
            *) want="$want$line"$'\n' ;;
        esac
    done < "$BATS_TEST_TMPDIR/tour"
    check_tour_step
}

@test "the README's tour prints what it shows, command by command" {
    check_tour '$ build/bin/cg-validate examples/hanoi.callgrind && echo valid'
    [ "$n" -ge 6 ]
}

@test "the README's MLton run prints what it shows" {
    check_tour '$ build/bin/cg-import mlton tests/import/mlton/prog.sources'
    [ "$n" -eq 3 ]
}

check_tour_step() {
    local got
    got=$(bash -c "${cmd//build\/bin\//$CG_BINDIR/}" 2>&1 || true)
    if [ "$got" != "${want%$'\n'}" ]; then
        printf 'README: %s\nprinted:\n%s\nshows:\n%s\n' "$cmd" "$got" "$want"
        return 1
    fi
}

@test "the README's picture is what its command makes today" {
    command -v dot >/dev/null || skip "graphviz is not installed"
    grep -qF 'build/bin/cg-dot -N 2 examples/hanoi.callgrind | dot -Tsvg > examples/hanoi.svg' README.md
    # the graph, not the SVG bytes (Graphviz versions lay out alike but not
    # to the byte): every node label of the picture is in the graph
    cg-dot -N 2 examples/hanoi.callgrind > "$BATS_TEST_TMPDIR/g.dot"
    n=$(grep -c '^	n[0-9]* \[label=' "$BATS_TEST_TMPDIR/g.dot")
    [ "$(grep -c '<g id="node' examples/hanoi.svg)" -eq "$n" ]
    [ "$(grep -c '<g id="edge' examples/hanoi.svg)" -eq "$(grep -c ' -> ' "$BATS_TEST_TMPDIR/g.dot")" ]
}

@test "the README's pego example prints what it shows" {
    block=$(readme_block '$ build/bin/cg-import pego')
    [ -n "$block" ]
    cmd=$(head -n 1 <<<"$block")
    want=$(tail -n +2 <<<"$block")
    PATH=$CG_BINDIR:$PATH
    run -0 bash -c "${cmd#\$ }"
    [ "$output" = "$want" ]
}

@test "setup.sh: nothing to do where all is installed; a usage error otherwise" {
    # the suite runs where the README's test command installed everything
    # (Chromium may be tried again where it cannot be had: not silent)
    run --separate-stderr "$TESTS_DIR/../setup.sh" test
    [ "$status" -eq 0 ]
    run --separate-stderr "$TESTS_DIR/../setup.sh" build
    [ "$status" -eq 0 ]
    [ -z "$output$stderr" ]
    run --separate-stderr "$TESTS_DIR/../setup.sh" install
    [ "$status" -eq 2 ]
    [ "$stderr" = "usage: ./setup.sh build|test" ]
    grep -q '^./setup.sh test && cmake -S . -B build && cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2$' README.md
    grep -q '^./setup.sh test && cmake -S . -B build && cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2$' .ci/run
}
