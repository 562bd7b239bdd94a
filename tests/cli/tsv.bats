#!/usr/bin/env bats
# cg-tsv: the public column contract, options, pipelines, errors.
load common

tsv() { "$CG_BINDIR/cg-tsv" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
    write_profile "$T/good.cg"
    printf 'events: A\nfn=f\n1 x\n' > "$T/bad.cg"
}

@test "header row and one row per record, in file order" {
    run -0 --separate-stderr tsv "$T/good.cg"
    [ -z "$stderr" ]
    expected=$(printf '%s\n' \
        "part	kind	ob	fl	fi	fn	line	cob	cfl	cfn	calls	target_line	Ir	Dr" \
        "1	cost	/bin/prog	main.c	main.c	main	10						5	1" \
        "1	cost	/bin/prog	main.c	util.h	main	12						3	0" \
        "1	call	/bin/prog	main.c	main.c	main	12	/bin/prog	main.c	helper	2	20	12	2" \
        "1	cost	/bin/prog	main.c	main.c	helper	20						12	0" \
        "2	cost				main	1						1	")
    [ "$output" = "$expected" ]
}

@test "-H drops the header; -k keeps one kind" {
    run -0 tsv -H -k call "$T/good.cg"
    [ "$output" = "1	call	/bin/prog	main.c	main.c	main	12	/bin/prog	main.c	helper	2	20	12	2" ]
    run -0 tsv --no-header -k cost "$T/good.cg"
    [ "${#lines[@]}" -eq 4 ]
    run -2 --separate-stderr tsv -k both "$T/good.cg"
    [ "${stderr_lines[0]}" = "cg-tsv: -k: expected cost or call" ]
    [[ "${stderr_lines[1]}" == "usage: cg-tsv "* ]]
}

@test "-e selects event columns in the given order" {
    head -22 "$T/good.cg" > "$T/one.cg"
    run -0 tsv -e Dr,Ir -k call "$T/one.cg"
    [ "${lines[0]}" = "part	kind	ob	fl	fi	fn	line	cob	cfl	cfn	calls	target_line	Dr	Ir" ]
    [ "${lines[1]}" = "1	call	/bin/prog	main.c	main.c	main	12	/bin/prog	main.c	helper	2	20	2	12" ]
}

@test "-e with an event some part lacks is Unsupported, at that part's events: line" {
    run -1 --separate-stderr tsv -e Dr "$T/good.cg"
    [ -z "$output" ]
    [ "$stderr" = "$T/good.cg:25: unsupported: event 'Dr' selected with -e is not an event of part 2" ]
    run -1 --separate-stderr tsv -e Nope "$T/good.cg"
    [[ "$stderr" == "$T/good.cg:8: unsupported: event 'Nope' "* ]]
    run -2 --separate-stderr tsv -e Ir,Ir "$T/good.cg"
    [ "${stderr_lines[0]}" = "cg-tsv: -e: event 'Ir' named twice" ]
}

@test "an invalid input: the diagnostic, exit 1, no rows and no header" {
    run -1 --separate-stderr tsv "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
}

@test "several inputs: a file column, one header, rows of the valid ones" {
    printf 'positions: instr\nevents: X\nfn=g\n0x10 4\n' > "$T/other.cg"
    run -1 --separate-stderr tsv -k cost "$T/other.cg" "$T/bad.cg" "$T/good.cg"
    [ "${lines[0]}" = "file	part	kind	ob	fl	fi	fn	instr	line	cob	cfl	cfn	calls	target_instr	target_line	X	Ir	Dr" ]
    [ "${lines[1]}" = "$T/other.cg	1	cost				g	16	$(printf '\t%.0s' 1 2 3 4 5 6 7)4		" ]
    [ "${lines[2]}" = "$T/good.cg	1	cost	/bin/prog	main.c	main.c	main		10$(printf '\t%.0s' 1 2 3 4 5 6 7 8)5	1" ]
    [ "${#lines[@]}" -eq 6 ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
}

@test "standard input is <stdin> in the file column" {
    run -0 bash -c "'$CG_BINDIR/cg-tsv' -H -k call - '$T/good.cg' < '$T/good.cg'"
    [ "${lines[0]}" = "<stdin>	1	call	/bin/prog	main.c	main.c	main	12	/bin/prog	main.c	helper	2	20	12	2" ]
}

@test "backslash, tab and CR inside names are escaped" {
    printf 'events: A\nfn=a\\b\tc\rd\n1 1\n' > "$T/esc.cg"
    run -0 tsv -H "$T/esc.cg"
    [ "$output" = '1	cost				a\\b\tc\rd	1						1' ]
}


@test "README pipeline: cg-tsv | column -t" {
    command -v column >/dev/null || skip "no column"
    run -0 bash -c "'$CG_BINDIR/cg-tsv' '$T/good.cg' | column -t -s '	' | head -2"
    [[ "${lines[0]}" == "part  kind  ob         fl      fi      fn      line"* ]]
}

@test "a closed pipe ends quietly" {
    run -0 --separate-stderr bash -c "set -o pipefail; '$CG_BINDIR/cg-tsv' '$CORPUS/valgrind/v15-threads-separate-combined.callgrind' | head -1 > /dev/null; echo \${PIPESTATUS[0]}"
    [ -z "$stderr" ]
    [[ "$output" == 0 || "$output" == 141 ]]
}

@test "a full disk is a failure: message and exit 2" {
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c "'$CG_BINDIR/cg-tsv' '$T/good.cg' > /dev/full"
    [ "$stderr" = "cg-tsv: write error: No space left on device" ]
    run -2 --separate-stderr bash -c "'$CG_BINDIR/cg-tsv' '$CORPUS/valgrind/v15-threads-separate-combined.callgrind' > /dev/full"
    [ "$stderr" = "cg-tsv: write error: No space left on device" ]
}

@test "limits apply as in cg-validate" {
    run -1 --separate-stderr tsv --limit records=4 "$T/good.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/good.cg:27: resource: record count over the records limit of 4 "* ]]
    run -0 tsv --no-limits "$T/good.cg"
}

@test "--help, --version, bad option" {
    run -0 tsv --help
    [[ "${lines[0]}" == "usage: cg-tsv [-Hq] [-e EV[,EV...]] [-f COL[,COL...]] [-k cost|call]"* ]]
    run -0 tsv -V
    [[ "$output" == "cg-tsv (cgprof) "* ]]
    run -2 --separate-stderr tsv -Z
    # getopt's line, then the synopsis alone, not the whole help
    [ "${stderr_lines[0]}" = "$CG_BINDIR/cg-tsv: invalid option -- 'Z'" ]
    [[ "${stderr_lines[1]}" == "usage: cg-tsv "* ]]
    [ "${#stderr_lines[@]}" -eq 4 ]
}

@test "-f chooses and orders columns by header name, whatever the positions" {
    run -0 tsv -f fn,cfn,calls,Ir -k call "$T/good.cg"
    [ "$output" = "$(printf 'fn\tcfn\tcalls\tIr\nmain\thelper\t2\t12')" ]
    # the same awk script works on a profile with positions: instr line
    printf 'positions: instr line\nevents: Ir\nfn=main\n0x10 3 5\ncfn=g\ncalls=1 0x20 9\n0x11 4 7\n' > "$T/instr.cg"
    run -0 tsv -H -f fn,cfn,calls,Ir -k call "$T/instr.cg"
    [ "$output" = "$(printf 'main\tg\t1\t7')" ]
    run -0 tsv -H -f line,instr -k cost "$T/instr.cg"
    [ "$output" = "$(printf '3\t16')" ]
    run -2 --separate-stderr tsv -f fn,nope "$T/good.cg"
    [ "${stderr_lines[0]}" = "cg-tsv: -f: no column 'nope' in the input" ]
    [ -z "$output" ]
    # a column the input does not have is no column either
    run -2 --separate-stderr tsv -f instr "$T/good.cg"
    [ "${stderr_lines[0]}" = "cg-tsv: -f: no column 'instr' in the input" ]
}

@test "an event named like a fixed column is headed event:NAME, never twice" {
    printf 'events: line fn Ir\nfn=f\n7 1 2 3\n' > "$T/clash.cg"
    run -0 tsv "$T/clash.cg"
    [ "${lines[0]}" = "$(printf 'part\tkind\tob\tfl\tfi\tfn\tline\tcob\tcfl\tcfn\tcalls\ttarget_line\tevent:line\tevent:fn\tIr')" ]
    [ "$(head -1 <<< "$output" | tr '\t' '\n' | sort | uniq -d)" = "" ]
    run -0 tsv -H -f line,event:line,fn,event:fn "$T/clash.cg"
    [ "$output" = "$(printf '7\t1\tf\t2')" ]
}
