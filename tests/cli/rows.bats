#!/usr/bin/env bats
# cg-rows: the rows of many profiles as CSV for SQL engines, each input a
# profile of its own with the figures of cg-funcs -C, cg-funcs -c and
# cg-fold; the engines themselves are tests/engines/ (ctest -L engines).
load common

rows() { "$CG_BINDIR/cg-rows" "$@"; }

setup() {
    T=$BATS_TEST_TMPDIR
    cd "$T" || return 1
    # main costs 10 Ir 1 Dr and calls f twice, for 7 Ir 2 Dr; f costs 7 2
    printf 'events: Ir Dr\nfl=a.c\nfn=main\n1 10 1\ncfn=f\ncalls=2 5\n1 7 2\nfn=f\n5 7 2\n' > a.cg
    printf 'events: Ir\nob=/bin/b\nfn=g\n3 4\n' > b.cg
    printf 'events: Ir\nfn=broken\n1 x\n' > bad.cg
}

# A stacks CSV (on standard input) as folded lines: stack, a space, value.
folded() {
    python3 -c '
import csv, sys
for r in list(csv.reader(sys.stdin))[1:]:
    sys.stdout.write(r[3] + " " + r[4] + "\n")'
}

# The corpus's files, each with the flag it is read with.
corpus_files() {
    local f
    for f in "$CORPUS"/valgrind/*.callgrind "$TESTS_DIR"/../examples/*.callgrind \
        "$CORPUS"/thirdparty/*; do
        [ "${f##*/}" = SOURCES.tsv ] || echo "$f"
    done
}

@test "functions, calls and stacks of a small profile, as worked out by hand" {
    # main: inclusive 10 + 7 Ir, 1 + 2 Dr, called 0; f called 2; each
    # event's rows by inclusive cost; no object: "" (empty, quoted)
    run -0 --separate-stderr rows functions a.cg
    [ -z "$stderr" ]
    [ "$output" = 'profile,labels,event,ob,fl,fn,called,self,inclusive
a.cg,{},Ir,"",a.c,main,0,10,17
a.cg,{},Ir,"",a.c,f,2,7,7
a.cg,{},Dr,"",a.c,main,0,1,3
a.cg,{},Dr,"",a.c,f,2,2,2' ]
    run -0 rows calls a.cg
    [ "$output" = 'profile,labels,event,ob,fl,fn,cob,cfl,cfn,calls,inclusive
a.cg,{},Ir,"",a.c,main,"",a.c,f,2,7
a.cg,{},Dr,"",a.c,main,"",a.c,f,2,2' ]
    run -0 rows stacks a.cg
    [ "$output" = 'profile,labels,event,stack,value
a.cg,{},Ir,main,10
a.cg,{},Ir,main;f,7
a.cg,{},Dr,main,1
a.cg,{},Dr,main;f,2' ]
}

@test "each input a profile of its own, in the order given, with its own events" {
    run -0 rows functions b.cg a.cg
    [ "$output" = 'profile,labels,event,ob,fl,fn,called,self,inclusive
b.cg,{},Ir,/bin/b,"",g,0,4,4
a.cg,{},Ir,"",a.c,main,0,10,17
a.cg,{},Ir,"",a.c,f,2,7,7
a.cg,{},Dr,"",a.c,main,0,1,3
a.cg,{},Dr,"",a.c,f,2,2,2' ]
    # the same input twice is two profiles: the rows twice
    [ "$(rows calls -H a.cg a.cg | wc -l)" -eq 4 ]
}

@test "-H: no header row; standard input is the profile <stdin>" {
    run -0 rows stacks -H - < b.cg
    [ "$output" = '<stdin>,{},Ir,g,4' ]
    run -0 rows stacks -H < b.cg
    [ "$output" = '<stdin>,{},Ir,g,4' ]
}

@test "--label: a JSON object in the order given, escaped as JSON, quoted as CSV" {
    run -0 rows functions -H --label host=web1 --label 'release=1.2=rc' b.cg
    [ "$output" = 'b.cg,"{""host"":""web1"",""release"":""1.2=rc""}",Ir,/bin/b,"",g,0,4,4' ]
    # a quote, a backslash, controls, UTF-8, an empty value
    run -0 rows stacks -H --label "$(printf 'k"\\=a\tb\001\nc\303\251')" --label e= b.cg
    [ "$output" = 'b.cg,"{""k\""\\"":""a\tb\u0001\nc'$'\303\251''"",""e"":""""}",Ir,g,4' ]
    # read back by Python's csv and json modules
    rows stacks --label "$(printf 'k"\\=a\tb\001\nc\303\251')" --label e= b.cg > out.csv
    python3 -c '
import csv, json, sys
rows = list(csv.reader(open("out.csv", newline="", encoding="utf-8")))
got = json.loads(rows[1][1])
want = {"k\"\\": "a\tb\x01\nc\u00e9", "e": ""}
sys.exit(0 if got == want and list(got) == list(want) else "labels %r" % got)'
}

@test "--label usage errors: no =, an empty key, a key twice, not UTF-8" {
    run -2 --separate-stderr rows functions --label host a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --label host: expected KEY=VALUE" ]
    run -2 --separate-stderr rows functions --label =v a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --label =v: the key is empty" ]
    run -2 --separate-stderr rows functions --label a=1 --label b=2 --label a=3 a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --label a=3: the key is given twice" ]
    run -2 --separate-stderr rows functions --label "$(printf 'a=\377')" a.cg
    [[ $stderr == *"not UTF-8"* ]]
    [ -z "$output" ]
}

@test "usage errors: the table, the stacks' options, -0, -j" {
    run -2 --separate-stderr rows
    [ "${stderr%%$'\n'*}" = "cg-rows: expected a table: functions, calls or stacks" ]
    [[ $stderr == *"usage: cg-rows functions|calls|stacks"* ]]
    run -2 --separate-stderr rows a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: 'a.cg' is no table: expected functions, calls or stacks" ]
    run -2 --separate-stderr rows functions --qualify file a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --qualify: an option of the stacks table" ]
    run -2 --separate-stderr rows calls --max-depth 3 a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --max-depth: an option of the stacks table" ]
    run -2 --separate-stderr rows stacks --qualify line a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: --qualify: expected file or object" ]
    run -2 --separate-stderr rows functions -0 a.cg
    [ "${stderr%%$'\n'*}" = "cg-rows: -0 goes with --files-from" ]
    run -2 rows functions -j 0 a.cg
    run -2 --separate-stderr rows functions --bogus a.cg
    [ -z "$output" ]
}

@test "--help and --version" {
    run -0 rows --help
    [[ $output == *"profile,labels,event,stack,value"* ]]
    [[ $output == *"--label KEY=VALUE"* ]]
    run -0 rows --version
    [[ $output == "cg-rows (cgprof) "* ]]
}

@test "hostile names: every byte kept, quoted where CSV needs it" {
    # a comma, quotes, a tab, backslashes (\N: ClickHouse's NULL), a
    # semicolon (the stack's separator), a CR, a leading ' and #
    printf 'events: Ir\nfn=main\n1 1\ncfn=a,b "q"\tt;s\\N\ncalls=1 1\n2 2\nfn=a,b "q"\tt;s\\N\n3 2\nfn=c\rr\n4 3\nfn=\\N\n5 4\nfn=%s\n6 5\nfn=#h\n7 6\n' "'q" > h.cg
    run -0 rows functions -H h.cg
    [ "$output" = "h.cg,{},Ir,\"\",\"\",#h,0,6,6
h.cg,{},Ir,\"\",\"\",'q,0,5,5
h.cg,{},Ir,\"\",\"\",\"\\N\",0,4,4
h.cg,{},Ir,\"\",\"\",main,0,1,3
h.cg,{},Ir,\"\",\"\",\"c$(printf '\r')r\",0,3,3
h.cg,{},Ir,\"\",\"\",\"a,b \"\"q\"\"$(printf '\t')t;s\\N\",1,2,2" ] || {
        # the bytes of a leading ' or #: quoted too
        rows functions -H h.cg | grep -q "^h.cg,{},Ir,\"\",\"\",\"#h\",0,6,6"
        rows functions -H h.cg | grep -q "^h.cg,{},Ir,\"\",\"\",\"'q\",0,5,5"
    }
    # the stacks escape ; % CR LF as cg-fold does, and are quoted as CSV
    run -0 rows stacks -H h.cg
    [[ $output == *'h.cg,{},Ir,"main;a,b ""q"""'$'\t''"t%3Bs\N",2'* ]] ||
        [[ $output == *'h.cg,{},Ir,"main;a,b ""q""'$'\t''t%3Bs\N",2'* ]]
    [[ $output == *'h.cg,{},Ir,c%0Dr,3'* ]]
    # every name read back by Python's csv module is the profile's
    rows functions h.cg > f.csv
    python3 -c '
import csv, sys
got = sorted(r[5] for r in list(csv.reader(open("f.csv", newline="", encoding="utf-8")))[1:])
want = sorted(["main", "a,b \"q\"\tt;s\\N", "c\rr", "\\N", "\x27q", "#h"])
sys.exit(0 if got == want else "names %r" % got)'
}

@test "hostile names: a leading ' or # is quoted" {
    printf 'events: Ir\nfn=#h\n1 6\nfn=%s\n1 5\n' "'q" > h.cg
    run -0 rows functions -H h.cg
    [ "$output" = "h.cg,{},Ir,\"\",\"\",\"#h\",0,6,6
h.cg,{},Ir,\"\",\"\",\"'q\",0,5,5" ]
}

@test "names hold no LF and no blank at either end: the reader's lines and trimming" {
    # a line ends a name; a name's blanks at either end are the line's
    printf 'events: Ir\nfn=  spaced out \t\n1 6\n' > s.cg
    run -0 rows functions -H s.cg
    [ "$output" = 's.cg,{},Ir,"","",spaced out,0,6,6' ]
}

@test "the profile column: a path as given, quoted as CSV; bytes not UTF-8 kept" {
    cp a.cg 'we,ird "name".cg'
    run -0 rows stacks -H 'we,ird "name".cg'
    [ "${lines[0]}" = '"we,ird ""name"".cg",{},Ir,main,10' ]
    cp b.cg "$(printf 'l\351.cg')"
    rows stacks -H "$(printf 'l\351.cg')" > out.csv
    cmp out.csv <(printf 'l\351.cg,{},Ir,g,4\n')
}

@test "--compat: a Latin-1 line's names written as UTF-8" {
    printf 'events: Ir\nfn=caf\351\n1 6\n' > l1.cg
    run -1 --separate-stderr rows functions l1.cg
    [ -z "$output" ]
    run -0 --separate-stderr rows functions -H --compat l1.cg
    [ "$output" = "l1.cg,{},Ir,\"\",\"\",caf$(printf '\303\251'),0,6,6" ]
    [[ $stderr == *"read as Latin-1"* ]]
}

@test "gzip under --compat: the rows of the decompressed profile" {
    gzip -c a.cg > a.cg.gz
    rows calls --compat a.cg > plain.csv
    run -0 --separate-stderr rows calls --compat a.cg.gz
    [ "$output" = "$(sed 's/^a\.cg,/a.cg.gz,/' plain.csv)" ]
    [[ $stderr == *"gzip-compressed input: read decompressed"* ]]
    run -1 --separate-stderr rows calls a.cg.gz
    [ -z "$output" ]
}

@test "an invalid input: said, none of its rows, the others' written, exit 1" {
    run -1 --separate-stderr rows functions a.cg bad.cg b.cg
    [ "$output" = "$(rows functions a.cg b.cg)" ]
    [ "$stderr" = "bad.cg:3: syntax: $(validate bad.cg 2>&1 | sed 's/^bad.cg:3: syntax: //')" ]
    # --keep-going: the same (accepted, as cg-tsv)
    run -1 --separate-stderr rows functions --keep-going a.cg bad.cg b.cg
    [ "$output" = "$(rows functions a.cg b.cg)" ]
    # only invalid inputs: nothing written, not even the header
    run -1 --separate-stderr rows stacks bad.cg bad.cg
    [ -z "$output" ]
    [ "$(echo "$stderr" | grep -c '^bad.cg:3: syntax: ')" -eq 2 ]
}

@test "an unreadable input: exit 2, the others written" {
    run -2 --separate-stderr rows functions a.cg missing.cg b.cg
    [ "$output" = "$(rows functions a.cg b.cg)" ]
    [ "$stderr" = "cg-rows: missing.cg: No such file or directory" ]
}

@test "an empty input among several: skipped with a warning; all of them: no profile" {
    : > empty.cg
    run -0 --separate-stderr rows functions a.cg empty.cg
    [ "$output" = "$(rows functions a.cg)" ]
    [ "$stderr" = "empty.cg:0: warning: empty input: skipped" ]
    run -0 --separate-stderr rows functions -q a.cg empty.cg
    [ -z "$stderr" ]
    run -1 --separate-stderr rows functions empty.cg empty.cg
    [ -z "$output" ]
    [ "$(echo "$stderr" | tail -1)" = "cg-rows: no profile: every input is empty" ]
}

@test "--files-from and -0: the same rows as the operands" {
    rows calls a.cg b.cg a.cg > want.csv
    printf 'a.cg\nb.cg\n\n' > list
    run -0 rows calls --files-from list a.cg
    [ "$output" = "$(cat want.csv)" ]
    printf 'b.cg\0a.cg\0' | rows calls -0 --files-from - a.cg > got.csv
    # the operands first, then the list's names
    [ "$(rows calls a.cg b.cg a.cg | sed 1d | sort)" = "$(sed 1d got.csv | sort)" ]
    [ "$(sed -n 2p got.csv | cut -d, -f1)" = a.cg ]
}

@test "-j N: the same bytes as -j 1, over many inputs" {
    corpus_files > once
    cat once once > list # every file twice
    for t in functions calls stacks; do
        rows "$t" --compat -q --files-from list > one.csv
        rows "$t" --compat -q -j 2 --files-from list > two.csv
        rows "$t" --compat -q -j 5 --files-from list > five.csv
        cmp one.csv two.csv
        cmp one.csv five.csv
        [ "$(wc -l < one.csv)" -gt 1000 ]
    done
    # one input: -j N is accepted and has no effect
    cmp <(rows stacks "$TESTS_DIR/../examples/hanoi.callgrind") \
        <(rows stacks -j 3 "$TESTS_DIR/../examples/hanoi.callgrind")
}

@test "-j N: an invalid input among many, the same output and status as -j 1" {
    local i
    for i in $(seq 1 30); do echo a.cg; echo b.cg; [ "$i" != 17 ] || echo bad.cg; done > list
    run -1 rows functions -j 1 --files-from list
    local want=$output
    run -1 rows functions -j 4 --files-from list
    [ "$output" = "$want" ]
}

@test "figures of every valgrind recording equal cg-funcs -C, cg-funcs -c and cg-fold's" {
    run -0 python3 "$TESTS_DIR/rows/compare.py" "$CG_BINDIR" --compat -j 2 \
        "$CORPUS"/valgrind/*.callgrind "$TESTS_DIR"/../examples/*.callgrind
    echo "$output"
    [[ $output != *FAIL* ]]
}

@test "figures of every third-party profile (--compat) equal the commands'" {
    local f files=()
    for f in "$CORPUS"/thirdparty/*; do
        [ "${f##*/}" = SOURCES.tsv ] || files+=("$f")
    done
    run -0 python3 "$TESTS_DIR/rows/compare.py" "$CG_BINDIR" --compat -j 3 "${files[@]}"
    echo "$output"
}

@test "figures of every accepted conformance case equal the commands'" {
    local f files=()
    for f in "$CASES"/*.cg; do
        validate --compat "$f" 2> /dev/null && files+=("$f")
    done
    [ "${#files[@]}" -gt 10 ]
    run -0 python3 "$TESTS_DIR/rows/compare.py" "$CG_BINDIR" --compat "${files[@]}"
    echo "$output"
}

@test "--no-cycles and --qualify: as cg-funcs --no-cycles and cg-fold -q" {
    local ex=$TESTS_DIR/../examples/hanoi.callgrind
    rows functions -H --no-cycles "$ex" | cut -d, -f9 > got
    "$CG_BINDIR/cg-funcs" -C -H --no-cycles -e Ir -s Ir:incl "$ex" | cut -f7 > want
    cmp got want
    run -1 cmp -s got <(rows functions -H "$ex" | cut -d, -f9)
    # the stack column and value, as folded lines, are cg-fold's
    cmp <(rows stacks --qualify file "$ex" | folded) <("$CG_BINDIR/cg-fold" -q file "$ex")
    cmp <(rows stacks --qualify object --max-depth 4 "$ex" | folded) \
        <("$CG_BINDIR/cg-fold" -q object --max-depth 4 "$ex")
}

@test "an inclusive event (event: ... inclusive): no stacks of it, a warning" {
    run -0 --separate-stderr rows stacks -H "$TESTS_DIR/alloc/inclusive.cg"
    [ "${#lines[@]}" -eq 2 ]
    [[ ${lines[0]} == *",S,f,1" ]]
    [[ $stderr == *"the event is inclusive"*"(event 'T'; 1 input)" ]]
    run -0 --separate-stderr rows stacks -q "$TESTS_DIR/alloc/inclusive.cg"
    [ -z "$stderr" ]
}

@test "a failed write: exit 2" {
    [ -w /dev/full ] || skip "no /dev/full"
    run -2 --separate-stderr bash -c '"$1" functions a.cg b.cg > /dev/full' _ "$CG_BINDIR/cg-rows"
    [[ $stderr == "cg-rows: write error: "* ]]
}

# bats test_tags=slow
@test "memory follows one input, not the count of inputs" {
    local ex=$TESTS_DIR/../examples/hanoi.callgrind i
    [ -x /usr/bin/time ] || skip "no /usr/bin/time"
    # the sanitizers' allocator keeps freed memory aside
    if grep -q __asan_init "$CG_BINDIR/cg-rows"; then
        skip "under AddressSanitizer"
    fi
    for i in $(seq 1 50); do echo "$ex"; done > fifty
    for i in $(seq 1 20); do cat fifty; done > thousand
    for n in fifty thousand; do
        /usr/bin/time -f %M -o "$n.rss" "$CG_BINDIR/cg-rows" stacks -j 2 --files-from "$n" > /dev/null
    done
    echo "peak KiB: $(cat fifty.rss) for 50 inputs, $(cat thousand.rss) for 1000"
    [ "$(cat thousand.rss)" -lt $(( $(cat fifty.rss) * 3 / 2 )) ]
}
