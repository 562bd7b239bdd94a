#!/usr/bin/env bats
# The README's pipelines, run as written there (from the top of the checkout).
load common

setup() {
    cd "$TESTS_DIR/.."
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
    # three pipelines: 3 top functions, 10 table lines, 3 thread lines
    [ "${#lines[@]}" -eq 16 ]
    [[ "${lines[0]}" == "hanoi'2	"* ]]
    [[ "${lines[3]}" == "part "*" kind "*" ob "* ]]
    [ "${lines[13]}" = "thread 1: 7009 records" ]
    [ "${lines[15]}" = "thread 3: 200 records" ]
}

@test "the README's first command block builds and runs on the example" {
    grep -q '^cmake -S . -B build && cmake --build build -j2 && build/bin/cg-validate -v examples/hanoi.callgrind' README.md
    run -0 cg-validate -v examples/hanoi.callgrind
    [ "$output" = "examples/hanoi.callgrind: 1 part, 6514 records (426 calls), 1 event" ]
}
