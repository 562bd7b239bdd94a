#!/usr/bin/env bats
# cg-import mlton: MLton's show-sources output and mlmon.out files as a
# Callgrind profile.  MLton is not in Debian 12, so the inputs are made by
# hand (tests/import/mlton: prog.sml and what MLton would write for it);
# every figure below is worked out by hand or by awk over the inputs.
load common

M=$TESTS_DIR/import/mlton
TAB=$'\t'

import() { "$CG_BINDIR/cg-import" mlton "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows

# prog.sources: names 0-8 <unknown> <gc> <main> fib even odd render
# render.fn List.map; sources 0-9 (9: a split copy of fib); the arcs by
# name: main -> fib even odd render (odd: even's tail call, charged to
# its caller), fib -> fib, render -> List.map -> render.fn -> fib.
ARCS="${TAB}???${TAB}<main>${TAB}${TAB}prog.sml${TAB}even${TAB}0${TAB}0
${TAB}???${TAB}<main>${TAB}${TAB}prog.sml${TAB}fib${TAB}0${TAB}0
${TAB}???${TAB}<main>${TAB}${TAB}prog.sml${TAB}odd${TAB}0${TAB}0
${TAB}???${TAB}<main>${TAB}${TAB}prog.sml${TAB}render${TAB}0${TAB}0
${TAB}<basis>/list/list.sml${TAB}List.map${TAB}${TAB}prog.sml${TAB}render.fn${TAB}0${TAB}0
${TAB}prog.sml${TAB}fib${TAB}${TAB}prog.sml${TAB}fib${TAB}0${TAB}0
${TAB}prog.sml${TAB}render${TAB}${TAB}<basis>/list/list.sml${TAB}List.map${TAB}0${TAB}0
${TAB}prog.sml${TAB}render.fn${TAB}${TAB}prog.sml${TAB}fib${TAB}0${TAB}0"

@test "time, current: each name with its CUR, the summary TOTAL + TOTALGC" {
    run -0 --separate-stderr import "$M/prog.sources" "$M/time-current.mlmon"
    [ -z "$stderr" ]
    echo "$output" > "$BATS_TEST_TMPDIR/p.cg"
    run -0 validate --complete "$BATS_TEST_TMPDIR/p.cg"
    grep -qx 'summary: 80' "$BATS_TEST_TMPDIR/p.cg"     # 73 + 7
    grep -q '^creator: cgprof .*cg-import mlton' "$BATS_TEST_TMPDIR/p.cg"
    grep -q '^desc: Ticks: CPU time in ticks of 10 ms' "$BATS_TEST_TMPDIR/p.cg"
    run -0 funcs -H "$BATS_TEST_TMPDIR/p.cg"
    # the master counts: fib 52 (its copies 40 + 12), <gc> 7, ...
    [ "$output" = "${TAB}prog.sml${TAB}fib${TAB}0${TAB}${TAB}52${TAB}52
${TAB}???${TAB}<gc>${TAB}0${TAB}${TAB}7${TAB}7
${TAB}prog.sml${TAB}odd${TAB}0${TAB}${TAB}6${TAB}6
${TAB}prog.sml${TAB}even${TAB}0${TAB}${TAB}5${TAB}5
${TAB}<basis>/list/list.sml${TAB}List.map${TAB}0${TAB}${TAB}4${TAB}4
${TAB}prog.sml${TAB}render.fn${TAB}0${TAB}${TAB}3${TAB}3
${TAB}???${TAB}<main>${TAB}0${TAB}${TAB}2${TAB}2
${TAB}prog.sml${TAB}render${TAB}0${TAB}${TAB}1${TAB}1
${TAB}???${TAB}<unknown>${TAB}0${TAB}${TAB}0${TAB}0" ]
}

@test "cg-funcs -c: exactly the successor arcs between names, no count" {
    import "$M/prog.sources" "$M/time-current.mlmon" > "$BATS_TEST_TMPDIR/p.cg"
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/p.cg"
    [ "$output" = "$ARCS" ]
}

@test "positions: the function's line in its file, 0 where MLton has none" {
    import "$M/prog.sources" "$M/time-current.mlmon" > "$BATS_TEST_TMPDIR/p.cg"
    grep -qx '3 52' "$BATS_TEST_TMPDIR/p.cg"     # fib, prog.sml: 3
    grep -qx '71 4' "$BATS_TEST_TMPDIR/p.cg"     # List.map, <basis>/list/list.sml: 71
    grep -qx '0 7' "$BATS_TEST_TMPDIR/p.cg"      # <gc>: no position
    grep -qx 'calls=0 71' "$BATS_TEST_TMPDIR/p.cg"
}

# awk over the inputs: name i of the show-sources output and the last
# nNames count lines of the mlmon.out, as cg-funcs rows ob fl fn CUR...
expected_rows() {
    awk -F'\t' 'NR == 2 { n = $1 } NR > 2 && NR <= 2 + n { name[NR - 3] = $1
            split($2, p, ": "); file[NR - 3] = ($2 == "" || $2 == "<unknown>") ? "???" : p[1] }
        END { for (i = 0; i < n; i++) print name[i] "\t" file[i] }' "$1" > "$BATS_TEST_TMPDIR/names"
    n=$(sed -n 2p "$1")
    tail -n "$n" "$2" | tr ' ' '\t' | paste "$BATS_TEST_TMPDIR/names" - |
        awk -F'\t' '{ printf "\t%s\t%s", $2, $1; for (i = 3; i <= NF; i++) printf "\t%s", $i; print "" }' | sort
}

@test "every example: each master name with CUR (STACK, STACKGC) exactly" {
    for f in time-current time-stack alloc-current count-stack; do
        import "$M/prog.sources" "$M/$f.mlmon" > "$BATS_TEST_TMPDIR/$f.cg"
        run -0 validate --complete "$BATS_TEST_TMPDIR/$f.cg"
        # ob fl fn CUR [STACK STACKGC]: drop called, cycle and the :incl columns
        run -0 bash -c '"$0" -H "$1" | awk -F"\t" -v OFS="\t" "{ n = (NF - 5) / 2; s = \"\"; for (i = 6; i < 6 + n; i++) s = s OFS \$i; print \$1, \$2, \$3 s }" | sort' "$CG_BINDIR/cg-funcs" "$BATS_TEST_TMPDIR/$f.cg"
        [ "$output" = "$(expected_rows "$M/prog.sources" "$M/$f.mlmon")" ]
        [ "${#lines[@]}" -eq 9 ]
    done
}

@test "time, stack: TicksStack and TicksStackGC, MLton's own inclusive figures" {
    import "$M/prog.sources" "$M/time-stack.mlmon" > "$BATS_TEST_TMPDIR/s.cg"
    grep -qx 'events: Ticks TicksStack TicksStackGC' "$BATS_TEST_TMPDIR/s.cg"
    grep -qx 'summary: 23 23 23' "$BATS_TEST_TMPDIR/s.cg"    # 20 + 3 each
    grep -q '^desc: TicksStack: .*own inclusive figure' "$BATS_TEST_TMPDIR/s.cg"
    run -0 funcs -H -e TicksStack "$BATS_TEST_TMPDIR/s.cg"
    # <main> is on the stack for all 20 mutator ticks; fib's name 14 (its
    # copies 14 and 9: recursion counted once, not summed)
    [ "${lines[0]}" = "${TAB}???${TAB}<main>${TAB}0${TAB}${TAB}20${TAB}20" ]
    [ "${lines[1]}" = "${TAB}prog.sml${TAB}fib${TAB}0${TAB}${TAB}14${TAB}14" ]
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/s.cg"
    [ "${#lines[@]}" -eq 8 ]
}

@test "MLton's inclusive events are marked in their event: lines; cg-fold, cg-flame and cg-export refuse to fold them" {
    S=$BATS_TEST_TMPDIR/s.cg
    import "$M/prog.sources" "$M/time-stack.mlmon" > "$S"
    run -0 validate --complete "$S"
    l1=$(grep -n '^event: TicksStack : inclusive ' "$S" | cut -d: -f1)
    l2=$(grep -n '^event: TicksStackGC : inclusive GC ' "$S" | cut -d: -f1)
    [ -n "$l1" ] && [ -n "$l2" ]
    why="is inclusive, as its event: line says: a stack adds up its frames, and would count it again at every level"
    for cmd in cg-fold cg-flame; do
        run -1 --separate-stderr "$CG_BINDIR/$cmd" -e TicksStack "$S"
        [ -z "$output" ]
        [ "$stderr" = "$S:$l1: unsupported: event 'TicksStack' $why; fold a self-cost event (-e EV)" ]
        run -1 --separate-stderr "$CG_BINDIR/$cmd" -e TicksStackGC "$S"
        [ "$stderr" = "$S:$l2: unsupported: event 'TicksStackGC' $why; fold a self-cost event (-e EV)" ]
    done
    for fmt in pprof speedscope; do
        run -1 --separate-stderr "$CG_BINDIR/cg-export" "$fmt" -o "$BATS_TEST_TMPDIR/x" "$S"
        [ "$stderr" = "$S:$l1: unsupported: event 'TicksStack' $why (cg-export writes every event)" ]
        [ ! -e "$BATS_TEST_TMPDIR/x" ]
    done
    # the self-cost event, MLton's CUR, folds: its summary's 23 ticks
    run -0 --separate-stderr "$CG_BINDIR/cg-fold" -e Ticks "$S"
    [ -z "$stderr" ]
    [ "$(awk '{ n += $NF } END { print n }' <<< "$output")" -eq 23 ]
    # a current profile has no inclusive event: cg-export reads it
    import "$M/prog.sources" "$M/time-current.mlmon" > "$BATS_TEST_TMPDIR/c.cg"
    no_line '^event:' "$BATS_TEST_TMPDIR/c.cg"
    run -0 "$CG_BINDIR/cg-export" speedscope -o "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/c.cg"
}

@test "an event: line's long name that begins with the word inclusive marks it so, whoever wrote it" {
    for long in 'inclusive' 'Inclusive time' 'INCLUSIVE: wall' 'inclusive, in ms'; do
        printf 'event: T : %s\nevents: S T\nfn=f\n1 1 2\n' "$long" > "$BATS_TEST_TMPDIR/i.cg"
        run -1 --separate-stderr "$CG_BINDIR/cg-fold" -e T "$BATS_TEST_TMPDIR/i.cg"
        [[ "$stderr" == "$BATS_TEST_TMPDIR/i.cg:1: unsupported: event 'T' is inclusive, "* ]] || { echo "$long: $stderr"; false; }
        run -0 "$CG_BINDIR/cg-fold" -e S "$BATS_TEST_TMPDIR/i.cg"
        [ "$output" = "f 1" ]
    done
    for v in 'T : inclusiveness' 'T = S : not inclusive' 'T' 'T = inclusive' 'U : inclusive'; do
        printf 'event: %s\nevents: S T\nfn=f\n1 1 2\n' "$v" > "$BATS_TEST_TMPDIR/s.cg"
        run -0 --separate-stderr "$CG_BINDIR/cg-fold" -e T "$BATS_TEST_TMPDIR/s.cg"
        [ "$output" = "f 2" ] || { echo "$v: $output $stderr"; false; }
    done
    # a formula before the long name
    printf 'event: T = S : inclusive\nevents: S T\nfn=f\n1 1 2\n' > "$BATS_TEST_TMPDIR/f.cg"
    run -1 "$CG_BINDIR/cg-fold" -e T "$BATS_TEST_TMPDIR/f.cg"
}

@test "two mlmon.out files are summed as mlprof sums them" {
    run -0 --separate-stderr import "$M/prog.sources" "$M/time-current.mlmon" "$M/time-current-2.mlmon"
    echo "$output" > "$BATS_TEST_TMPDIR/two.cg"
    grep -qx 'summary: 91' "$BATS_TEST_TMPDIR/two.cg"      # 73 + 7 + 10 + 1
    run -0 funcs -H "$BATS_TEST_TMPDIR/two.cg"
    # fib 52 + 6, <gc> 7 + 1, even 5 + 1, List.map 4 + 1, render.fn 3 + 1, <main> 2 + 1
    [ "${lines[0]}" = "${TAB}prog.sml${TAB}fib${TAB}0${TAB}${TAB}58${TAB}58" ]
    [ "${lines[1]}" = "${TAB}???${TAB}<gc>${TAB}0${TAB}${TAB}8${TAB}8" ]
    [ "${lines[2]}" = "${TAB}prog.sml${TAB}even${TAB}0${TAB}${TAB}6${TAB}6" ]
    [ "${lines[3]}" = "${TAB}prog.sml${TAB}odd${TAB}0${TAB}${TAB}6${TAB}6" ]
    [ "${lines[4]}" = "${TAB}<basis>/list/list.sml${TAB}List.map${TAB}0${TAB}${TAB}5${TAB}5" ]
    [ "${lines[5]}" = "${TAB}prog.sml${TAB}render.fn${TAB}0${TAB}${TAB}4${TAB}4" ]
    [ "${lines[6]}" = "${TAB}???${TAB}<main>${TAB}0${TAB}${TAB}3${TAB}3" ]
    [ "${lines[7]}" = "${TAB}prog.sml${TAB}render${TAB}0${TAB}${TAB}1${TAB}1" ]
    # and awk's element-by-element sum of the master lines agrees
    paste -d' ' <(tail -n 9 "$M/time-current.mlmon") <(tail -n 9 "$M/time-current-2.mlmon") |
        awk '{ s += $1 + $2 } END { exit s != 91 }'
}

@test "--split: one function per source, a split copy named by its source" {
    import --split "$M/prog.sources" "$M/time-stack.mlmon" > "$BATS_TEST_TMPDIR/split.cg"
    run -0 validate --complete "$BATS_TEST_TMPDIR/split.cg"
    run -0 funcs -H "$BATS_TEST_TMPDIR/split.cg"
    [ "${#lines[@]}" -eq 10 ]
    # source 3 "10 14 2", source 9 "4 9 1": the split lines of time-stack.mlmon
    [[ "$output" == *"${TAB}prog.sml${TAB}fib [source 3]${TAB}0${TAB}1${TAB}10${TAB}14${TAB}2${TAB}"* ]]
    [[ "$output" == *"${TAB}prog.sml${TAB}fib [source 9]${TAB}0${TAB}1${TAB}4${TAB}9${TAB}1${TAB}"* ]]
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/split.cg"
    # the 8 arcs, fib's split into main -> fib [3], fib [3] -> fib [3] and
    # -> fib [9], fib [9] -> fib [3], render.fn -> fib [3]: 10
    [ "${#lines[@]}" -eq 10 ]
    [[ "$output" == *"${TAB}prog.sml${TAB}fib [source 9]${TAB}${TAB}prog.sml${TAB}fib [source 3]${TAB}0${TAB}"* ]]
}

@test "no mlmon.out: the call graph alone, every cost 0" {
    run -0 --separate-stderr import "$M/prog.sources"
    echo "$output" > "$BATS_TEST_TMPDIR/g.cg"
    run -0 validate --complete "$BATS_TEST_TMPDIR/g.cg"
    grep -qx 'events: Unmeasured' "$BATS_TEST_TMPDIR/g.cg"
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/g.cg"
    [ "$output" = "$ARCS" ]
    run -0 funcs -T "$BATS_TEST_TMPDIR/g.cg"
    [ "${lines[1]}" = "Unmeasured${TAB}0" ]
}

@test "--object names the object of every function" {
    run -0 bash -c '"$0" mlton --object prog "$1" "$2" | "$3" -H' "$CG_BINDIR/cg-import" "$M/prog.sources" "$M/alloc-current.mlmon" "$CG_BINDIR/cg-funcs"
    [ "${lines[0]}" = "prog${TAB}prog.sml${TAB}render.fn${TAB}0${TAB}${TAB}2048${TAB}2048" ]
    [ "${#lines[@]}" -eq 9 ]
}

@test "-o OUT: the profile written to OUT, replaced only by a whole one" {
    run -0 --separate-stderr import -o "$BATS_TEST_TMPDIR/out.cg" "$M/prog.sources" "$M/count-stack.mlmon"
    [ -z "$output" ]
    [ "$(cat "$BATS_TEST_TMPDIR/out.cg")" = "$(import "$M/prog.sources" "$M/count-stack.mlmon")" ]
    cp "$BATS_TEST_TMPDIR/out.cg" "$BATS_TEST_TMPDIR/before.cg"
    run -1 --separate-stderr import -o "$BATS_TEST_TMPDIR/out.cg" "$M/prog.sources" "$M/FactorialComparer.mlmon"
    cmp "$BATS_TEST_TMPDIR/out.cg" "$BATS_TEST_TMPDIR/before.cg"
    no_temp_in "$BATS_TEST_TMPDIR"
}

@test "the public FactorialComparer mlmon.out is refused without its show-sources" {
    # alone, where the show-sources output is expected
    run -1 --separate-stderr import "$M/FactorialComparer.mlmon"
    [ -z "$output" ]
    [ "$stderr" = "$M/FactorialComparer.mlmon:1: syntax: expected show-sources output (the magic number 0xXXXXXXXX), found 'MLton prof': an mlmon.out file" ]
    # with another executable's show-sources: its magic number differs
    run -1 --separate-stderr import "$M/prog.sources" "$M/FactorialComparer.mlmon"
    [ -z "$output" ]
    [ "$stderr" = "$M/FactorialComparer.mlmon:4: syntax: magic number 0x74c3a3c0 differs from the show-sources magic 0x1b2c3d4e: the profile of another executable" ]
}

# refuse FILE LINE KIND MESSAGE [ARGS...]: cg-import mlton ARGS exits 1,
# writes nothing and prints exactly FILE:LINE: KIND: MESSAGE
refuse() {
    local file=$1 line=$2 kind=$3 message=$4
    shift 4
    run -1 --separate-stderr import "$@"
    [ -z "$output" ]
    [ "$stderr" = "$file:$line: $kind: $message" ]
}

# bad NAME FROM SED: a copy of an example with one sed edit
bad() { sed "$3" "$M/$2" > "$BATS_TEST_TMPDIR/$1"; echo "$BATS_TEST_TMPDIR/$1"; }

@test "show-sources refusals, each at its line" {
    S=$M/prog.sources
    f=$(bad cr.sources prog.sources '6s/$/\r/')
    refuse "$f" 6 syntax "a carriage return (CR) at column 16: MLton ends lines with LF alone" "$f"
    f=$(bad idx.sources prog.sources '20s/.*/99 7/')
    refuse "$f" 20 syntax "name index 99 out of range (9 names)" "$f"
    f=$(bad seq.sources prog.sources '27s/.*/3 4 5 10 /')
    refuse "$f" 27 syntax "source index 10 out of range (10 sources)" "$f"
    f=$(bad succ.sources prog.sources '21s/.*/8 9/')
    refuse "$f" 21 syntax "successor sequence index 9 out of range (9 sequences)" "$f"
    f=$(bad sign.sources prog.sources '12s/.*/+10/')
    refuse "$f" 12 syntax "expected the number of sources, found '+10'" "$f"
    f=$(bad hex.sources prog.sources '16s/.*/0x3 4/')
    refuse "$f" 16 syntax "expected a name index, found '0x3'" "$f"
    f=$(bad pos.sources prog.sources '6s/: 3/:3/')
    refuse "$f" 6 syntax "expected a position FILE: LINE or <unknown>, found 'prog.sml:3'" "$f"
    f=$(bad magic.sources prog.sources '1s/.*/0x1B2C3D4E/')
    refuse "$f" 1 syntax "expected the executable's magic number 0xXXXXXXXX, found '0x1B2C3D4E'" "$f"
    f=$(bad after.sources prog.sources '$a\
x')
    refuse "$f" 33 syntax "text after the last line (the successor sequences)" "$f"
    printf '0x1b2c3d4e\n0\n0\n0\n' > "$BATS_TEST_TMPDIR/none.sources"
    refuse "$BATS_TEST_TMPDIR/none.sources" 2 unsupported "no source names: the executable was not compiled for profiling (mlton -profile alloc|count|time)" "$BATS_TEST_TMPDIR/none.sources"
    head -c -1 "$S" > "$BATS_TEST_TMPDIR/cut.sources"
    refuse "$BATS_TEST_TMPDIR/cut.sources" 32 syntax "no line ending after the last line" "$BATS_TEST_TMPDIR/cut.sources"
    head -n 20 "$S" > "$BATS_TEST_TMPDIR/short.sources"
    refuse "$BATS_TEST_TMPDIR/short.sources" 20 syntax "the input ends before a source" "$BATS_TEST_TMPDIR/short.sources"
    refuse "$S" 6 resource "line length (UTF-16 code units) over the line limit of 14 (raise it with --limit line=N or --no-limits)" --limit line=14 "$S"
}

@test "a name with spaces where MLton writes a TAB: one warning at the first, the count, read as a C function" {
    f=$(bad spaced.sources prog.sources '6s/\t/ /;8s/\t/ /')
    run -0 --separate-stderr import "$f" "$M/time-current.mlmon"
    [ "$stderr" = "$f:6: warning: a source name reads NAME FILE: LINE with spaces, where MLton writes a TAB after NAME: read as the name of a C function (2 lines)" ]
    echo "$output" > "$BATS_TEST_TMPDIR/p.cg"
    funcs -H "$BATS_TEST_TMPDIR/p.cg" | grep -qx "${TAB}???${TAB}fib prog.sml: 3${TAB}0${TAB}${TAB}52${TAB}52"
    # one such line: "1 line"; a C function's name, or a name with a space
    # but no position after it: no warning
    f=$(bad spaced1.sources prog.sources '7s/\t/ /')
    run -0 --separate-stderr import "$f"
    [ "$stderr" = "$f:7: warning: a source name reads NAME FILE: LINE with spaces, where MLton writes a TAB after NAME: read as the name of a C function (1 line)" ]
    for e in '6s/.*/GC_collect/' '6s/.*/fib of: x/' '6s/.*/fib: 3/' '6s/.*/a b: 3x/'; do
        f=$(bad quiet.sources prog.sources "$e")
        run -0 --separate-stderr import "$f"
        [ -z "$stderr" ] || { echo "$e: $stderr"; false; }
    done
}

@test "mlmon.out refusals, each at its line, naming both values" {
    S=$M/prog.sources
    f=$(bad short.mlmon time-stack.mlmon '10s/.*/10 14/')
    refuse "$f" 10 syntax "expected CUR STACK STACKGC (a stack profile), found '10 14'" "$S" "$f"
    f=$(bad long.mlmon time-current.mlmon '10s/.*/40 1/')
    refuse "$f" 10 syntax "expected CUR (a current profile), found '40 1'" "$S" "$f"
    f=$(bad hex.mlmon time-current.mlmon '10s/.*/0x28/')
    refuse "$f" 10 syntax "expected a count, found '0x28'" "$S" "$f"
    f=$(bad neg.mlmon time-current.mlmon '5s/.*/73 -7/')
    refuse "$f" 5 syntax "expected TOTALGC, found '-7'" "$S" "$f"
    f=$(bad len.mlmon time-current.mlmon '6s/.*/11/')
    refuse "$f" 6 syntax "11 sources, and the show-sources output has 10: the profile of another executable" "$S" "$f"
    f=$(bad names.mlmon time-current.mlmon '17s/.*/8/')
    refuse "$f" 17 syntax "8 source names, and the show-sources output has 9: the profile of another executable" "$S" "$f"
    f=$(bad kind.mlmon time-current.mlmon '2s/.*/ticks/')
    refuse "$f" 2 syntax "expected the profile kind (alloc or count or time), found 'ticks'" "$S" "$f"
    f=$(bad after.mlmon time-current.mlmon '$a\
0')
    refuse "$f" 27 syntax "text after the last line (the counts of the source names)" "$S" "$f"
    refuse "$M/alloc-current.mlmon" 2 syntax "profile kind 'alloc' differs from 'time', the kind of the mlmon.out files before" "$S" "$M/time-current.mlmon" "$M/alloc-current.mlmon"
    refuse "$M/time-stack.mlmon" 3 syntax "profile style 'stack' differs from 'current', the style of the mlmon.out files before" "$S" "$M/time-current.mlmon" "$M/time-stack.mlmon"
    refuse "$S" 1 syntax "expected 'MLton prof', found a magic number: show-sources output, not an mlmon.out file" "$S" "$S"
}

@test "usage errors, --help, --version, unreadable input, a failed write" {
    run -2 --separate-stderr import
    [ -z "$output" ]
    [ "${stderr_lines[0]}" = "cg-import mlton: no SHOW-SOURCES file given" ]
    [ "${stderr_lines[1]}" = "usage: cg-import mlton [-o OUT] [--object NAME] [--split]" ]
    run -2 --separate-stderr import --compat "$M/prog.sources"
    [ "${stderr_lines[0]}" = "cg-import mlton: unrecognized option '--compat'" ]
    run -2 --separate-stderr import --object $'a\nb' "$M/prog.sources"
    [ "${stderr_lines[0]}" = "cg-import mlton: --object NAME holds a line ending" ]
    run -0 --separate-stderr import --help
    [ "${lines[0]}" = "usage: cg-import mlton [-o OUT] [--object NAME] [--split]" ]
    [ -z "$stderr" ]
    run -0 --separate-stderr import --version
    [[ "$output" == *[0-9].[0-9]* ]]
    run -2 --separate-stderr import "$BATS_TEST_TMPDIR/missing"
    [ "$stderr" = "cg-import mlton: $BATS_TEST_TMPDIR/missing: No such file or directory" ]
    run -2 --separate-stderr bash -c '"$0" mlton "$1" "$2" > /dev/full' "$CG_BINDIR/cg-import" "$M/prog.sources" "$M/time-current.mlmon"
    [[ "$stderr" == *"write error"* ]]
}

@test "- reads standard input, named <stdin> in a diagnostic" {
    run -0 --separate-stderr bash -c '"$0" mlton - "$1" < "$2" | "$3" -T' "$CG_BINDIR/cg-import" "$M/time-current.mlmon" "$M/prog.sources" "$CG_BINDIR/cg-funcs"
    [ "${lines[1]}" = "Ticks${TAB}80" ]
    run -1 --separate-stderr bash -c '"$0" mlton "$1" - < "$1"' "$CG_BINDIR/cg-import" "$M/prog.sources"
    [ "$stderr" = "<stdin>:1: syntax: expected 'MLton prof', found a magic number: show-sources output, not an mlmon.out file" ]
}
