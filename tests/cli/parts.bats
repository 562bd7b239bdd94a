#!/usr/bin/env bats
# cg-parts: one row per part.
load common

parts() { "$CG_BINDIR/cg-parts" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/good.cg"
}

@test "one row per part with its metadata and counts" {
    run -0 --separate-stderr parts "$T/good.cg"
    [ -z "$stderr" ]
    [ "${lines[0]}" = "part	number	pid	thread	positions	events	records	costs	calls	summary	totals	cmd" ]
    [ "${lines[1]}" = "1	1	7		line	Ir Dr	4	3	1	20 1	20 1	./prog --size=10" ]
    [ "${lines[2]}" = "2	2			line	Ir	1	1	0			" ]
    [ "${#lines[@]}" -eq 3 ]
}

@test "a --separate-threads --combine-dumps profile at a glance" {
    run -0 parts -H "$CORPUS/valgrind/v15-threads-separate-combined.callgrind"
    [ "${#lines[@]}" -eq 3 ]
    [ "$(printf '%s\n' "${lines[@]}" | cut -f4 | tr '\n' ' ')" = "1 2 3 " ]
    [ "$(printf '%s\n' "${lines[@]}" | cut -f12 | sort -u)" = "./vis_threads" ]
}

@test "empty parts are rows too" {
    printf 'part: 1\nevents: A\npart: 2\nevents: A B\ntotals: 0 0\n' > "$T/empty.cg"
    run -0 parts -H "$T/empty.cg"
    [ "${lines[0]}" = "1	1			line	A	0	0	0			" ]
    [ "${lines[1]}" = "2	2			line	A B	0	0	0		0 0	" ]
}

@test "several inputs: file column; invalid input: no rows" {
    printf 'events: A\n1 1\n' > "$T/bad.cg"
    run -1 --separate-stderr parts "$T/bad.cg" "$T/good.cg"
    [ "${lines[0]}" = "file	part	number	pid	thread	positions	events	records	costs	calls	summary	totals	cmd" ]
    [ "${#lines[@]}" -eq 3 ]
    [[ "${lines[1]}" == "$T/good.cg	1	1	7	"* ]]
    [[ "$stderr" == "$T/bad.cg:2: syntax: cost line before any fn="* ]]
    run -1 --separate-stderr parts "$T/bad.cg"
    [ -z "$output" ]
}


@test "--help, --version, write errors" {
    run -0 parts --help
    [[ "${lines[0]}" == "usage: cg-parts [-H] "* ]]
    run -0 parts --version
    [[ "$output" == "cg-parts (cgprof) "* ]]
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c "'$CG_BINDIR/cg-parts' '$T/good.cg' > /dev/full"
    [ "$stderr" = "cg-parts: write error: No space left on device" ]
}
