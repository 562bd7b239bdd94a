#!/usr/bin/env bats
# cg-export: the pprof message decoded here by a few lines of Python (the
# wire format, apart from the library; tests/export/pprof.py reads it with
# go tool pprof), gzip as gzip reads it, speedscope's JSON, refusals at
# their line with nothing written, the terminal refusal, usage errors.
load common

export_() { "$CG_BINDIR/cg-export" "$@"; }
EXAMPLE=$TESTS_DIR/../examples/hanoi.callgrind

# decode FILE: the profile.proto message in FILE as JSON: its strings,
# sample types, samples (locations, values), functions, locations,
# mappings and comments, each field by number.
decode() {
    python3 - "$1" <<'PY'
import json, sys
data = open(sys.argv[1], 'rb').read()
def varint(b, i):
    v = s = 0
    while True:
        c = b[i]; i += 1
        v |= (c & 0x7f) << s; s += 7
        if c < 0x80:
            return v, i
def fields(b):
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        if key & 7 == 0:
            v, i = varint(b, i)
        elif key & 7 == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise SystemExit('wire type %d' % (key & 7))
        out.append((key >> 3, v))
    return out
def packed(b):
    i, out = 0, []
    while i < len(b):
        v, i = varint(b, i)
        out.append(v)
    return out
msg = fields(data)
strings = [v.decode('utf-8', 'surrogateescape') for f, v in msg if f == 6]
sub = lambda n: [dict(fields(v)) for f, v in msg if f == n]
p = {'strings': strings,
     'types': [[strings[t.get(1, 0)], strings[t.get(2, 0)]] for t in sub(1)],
     'samples': [[packed(s.get(1, b'')), packed(s.get(2, b''))] for s in sub(2)],
     'mappings': [[m.get(1), strings[m.get(5, 0)]] for m in sub(3)],
     'locations': [[l.get(1), l.get(2, 0), dict(fields(l[4])), l.get(3, 0)] for l in sub(4)],
     'functions': [[f.get(1), strings[f.get(2, 0)], strings[f.get(4, 0)], f.get(5, 0)]
                   for f in sub(5)],
     'comments': [strings[v] for f, v in msg if f == 13],
     'default': [strings[v] for f, v in msg if f == 14],
     'period_type': [[strings[t.get(1, 0)], strings[t.get(2, 0)]] for t in sub(11)],
     'period': [v for f, v in msg if f == 12],
     'system_names': [f.get(3, 0) for f in sub(5)],
     'mapping_flags': [[m.get(k, 0) for k in (7, 8, 9, 10)] for m in sub(3)]}
print(json.dumps(p))
PY
}

# jq-like: the Python expression $2 over the JSON in file $1
query() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"; }

@test "pprof: gzip by default, the same message as --no-gzip" {
    export_ pprof -o "$BATS_TEST_TMPDIR/p.pb.gz" "$EXAMPLE"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$EXAMPLE"
    [ "$(head -c 2 "$BATS_TEST_TMPDIR/p.pb.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ]
    gzip -dc "$BATS_TEST_TMPDIR/p.pb.gz" | cmp - "$BATS_TEST_TMPDIR/p.pb"
}

@test "pprof: the message's tables, sample values and comment, decoded apart" {
    write_profile "$BATS_TEST_TMPDIR/two.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/two.cg"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    q() { query "$BATS_TEST_TMPDIR/p.json" "$1"; }
    [ "$(q "d['strings'][0] == ''")" = True ]
    [ "$(q "d['types']")" = "[['Ir', 'count'], ['Dr', 'count']]" ]
    [ "$(q "d['default']")" = "['Ir']" ]
    # a mapping per object, /bin/prog and part 2's none; the functions
    # with their file and first line
    [ "$(q "d['mappings']")" = "[[1, '/bin/prog'], [2, '']]" ]
    # part 2's main names no object nor file: a function of its own
    [ "$(q "sorted(f[1:] for f in d['functions'])")" = "[['helper', 'main.c', 20], ['main', '', 1], ['main', 'main.c', 10]]" ]
    # Ir: main 5 + 3 (util.h's line 12 is main's), helper 12, part 2's
    # main 1; Dr: main's 1 (the call's 2 is inclusive, no one's self)
    [ "$(q "sum(s[1][0] for s in d['samples'])")" = 21 ]
    [ "$(q "sum(s[1][1] for s in d['samples'])")" = 1 ]
    # main's Ir per line: 5 at 10, 3 at 12
    [ "$(q "sorted((s[1][0], [next(l[2]['2'] for l in d['locations'] if l[0] == x) for x in s[0]]) for s in d['samples'] if s[1][0] and len(s[0]) == 1)")" = "[(1, [1]), (3, [12]), (5, [10])]" ]
    # every sample counts one event: its value in the other column is 0
    [ "$(q "all(min(s[1]) == 0 for s in d['samples'])")" = True ]
    # helper's 12 at its line 20, under main's call at line 12 (leaf first)
    q "[(s[1][0], [next(l[2]['2'] for l in d['locations'] if l[0] == x) for x in s[0]]) for s in d['samples'] if s[1][0]]" > "$BATS_TEST_TMPDIR/lines"
    grep -F '(12, [20, 12])' "$BATS_TEST_TMPDIR/lines"
    [ "$(q "d['comments'][0]")" = "cg-export: $BATS_TEST_TMPDIR/two.cg; the stacks are estimated from the profile's arcs (cg-fold(1), the stack contract)" ]
}

@test "speedscope: a sampled profile per event and part, the frames, the weights" {
    write_profile "$BATS_TEST_TMPDIR/two.cg"
    export_ speedscope -o "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/two.cg"
    q() { query "$BATS_TEST_TMPDIR/s.json" "$1"; }
    [ "$(q "d['\$schema']")" = https://www.speedscope.app/file-format-schema.json ]
    [ "$(q "d['name']")" = "$BATS_TEST_TMPDIR/two.cg" ]
    [ "$(q "d['exporter']")" = "cg-export $("$CG_BINDIR/cg-funcs" --version | awk '{print $3}')" ]
    [ "$(q "[(p['type'], p['name'], p['unit'], p['endValue'], sum(p['weights'])) for p in d['profiles']]")" = "[('sampled', 'Ir, part 1 of 2', 'none', 20, 20), ('sampled', 'Ir, part 2 of 2', 'none', 1, 1), ('sampled', 'Dr, part 1 of 2', 'none', 1, 1), ('sampled', 'Dr, part 2 of 2', 'none', 0, 0)]" ]
    # part 2's main: no file, its line 1
    [ "$(q "sorted(str((f['name'], f.get('file'), f['line'])) for f in d['shared']['frames'])")" = "[\"('helper', 'main.c', 20)\", \"('main', 'main.c', 10)\", \"('main', None, 1)\"]" ]
    # root first: main, then helper for 12 of Ir; part 2's own main
    stacks() { q "[([d['shared']['frames'][i]['name'] for i in s], w) for s, w in zip(d['profiles'][$1]['samples'], d['profiles'][$1]['weights'])]"; }
    [ "$(stacks 0)" = "[(['main'], 8), (['main', 'helper'], 12)]" ]
    [ "$(stacks 1)" = "[(['main'], 1)]" ]
    [ "$(q "d['profiles'][1]['samples'][0][0] != d['profiles'][0]['samples'][0][0]")" = True ]
}

# The events of units.cg: a unit as Xdebug writes it (Time_(10ns),
# Memory_(bytes), Time_(µs)), as go tool pprof -callgrind does (cpu(ms),
# alloc_space(kB), samples(count)), a unit no format knows with a
# factor, one that is no whole number, and none.  Each row: the event,
# its cost, pprof's type, unit and figure, speedscope's unit and figure,
# worked out by hand from the units' definitions.
UNITS='Time_(10ns)	5	Time	nanoseconds	50	nanoseconds	50
Memory_(bytes)	6	Memory	bytes	6	bytes	6
Wall_(µs)	7	Wall	nanoseconds	7000	microseconds	7
cpu(ms)	8	cpu	nanoseconds	8000000	milliseconds	8
alloc_space(kB)	3	alloc_space	bytes	3072	bytes	3072
t(2min)	2	t	nanoseconds	240000000000	seconds	240
samples(count)	9	samples	count	9	none	9
hits(10calls)	4	hits	calls	40	none	4
half(0.5ms)	11	half(0.5ms)	count	11	none	11
Ir	12	Ir	count	12	none	12'

units_profile() {
    printf 'events: %s\nfn=f\n1 %s\n' "$(printf '%s\n' "$UNITS" | cut -f1 | paste -sd' ')" \
        "$(printf '%s\n' "$UNITS" | cut -f2 | paste -sd' ')" > "$1"
}

@test "units: a time in nanoseconds, a size in bytes, the figures scaled exactly, in pprof's message" {
    units_profile "$BATS_TEST_TMPDIR/u.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/u.cg"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    q() { query "$BATS_TEST_TMPDIR/p.json" "$1"; }
    q "'\n'.join('%s\t%s\t%d' % (t[0], t[1], sum(s[1][i] for s in d['samples'])) for i, t in enumerate(d['types']))" > "$BATS_TEST_TMPDIR/got"
    printf '%s\n' "$UNITS" | cut -f3-5 | diff - "$BATS_TEST_TMPDIR/got"
    # the period: the first event's type, one unit of it (10 ns)
    [ "$(q "(d['period_type'], d['period'], d['default'])")" = "([['Time', 'nanoseconds']], [10], ['Time'])" ]
}

@test "units: speedscope's unit, the largest it has that the event's is a whole number of" {
    units_profile "$BATS_TEST_TMPDIR/u.cg"
    export_ speedscope -o "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/u.cg"
    query "$BATS_TEST_TMPDIR/s.json" "'\n'.join('%s\t%s\t%d' % (p['name'], p['unit'], p['endValue']) for p in d['profiles'])" > "$BATS_TEST_TMPDIR/got"
    printf '%s\n' "$UNITS" | cut -f1,6,7 | diff - "$BATS_TEST_TMPDIR/got"
    [ "$(query "$BATS_TEST_TMPDIR/s.json" "[sum(p['weights']) == p['endValue'] for p in d['profiles']].count(False)")" = 0 ]
}

@test "units: a figure over Int64 once scaled is refused, nothing written; one at Int64 is kept" {
    # 2^63 - 1 = 9223372036854775807: 922337203685477580 x 10 fits, 922337203685477581 x 10 does not
    printf 'events: Time_(10ns)\nfn=f\n1 922337203685477581\n' > "$BATS_TEST_TMPDIR/over.cg"
    for f in pprof speedscope; do
        run --separate-stderr export_ "$f" -o "$BATS_TEST_TMPDIR/out" "$BATS_TEST_TMPDIR/over.cg"
        [ "$status" -eq 1 ]
        [ "$stderr" = "$BATS_TEST_TMPDIR/over.cg:0: unsupported: the total of event Time_(10ns), 922337203685477581 times 10 nanoseconds, is over Int64, which the format cannot hold" ]
        [ ! -e "$BATS_TEST_TMPDIR/out" ]
    done
    printf 'events: Time_(10ns)\nfn=f\n1 922337203685477580\n' > "$BATS_TEST_TMPDIR/max.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/max.cg"
    [ "$(decode "$BATS_TEST_TMPDIR/p.pb" | query /dev/stdin "sum(s[1][0] for s in d['samples'])")" = 9223372036854775800 ]
    export_ speedscope -o "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/max.cg"
    grep -F '"weights":[9223372036854775800]' "$BATS_TEST_TMPDIR/s.json"
}

@test "pprof: names are the profile's, no system name to rewrite, every mapping symbolized" {
    sh "$TESTS_DIR/flame/hostile.sh" "$BATS_TEST_TMPDIR/h.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$EXAMPLE"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    [ "$(query "$BATS_TEST_TMPDIR/p.json" "set(d['system_names'])")" = "{0}" ]
    [ "$(query "$BATS_TEST_TMPDIR/p.json" "set(map(tuple, d['mapping_flags']))")" = "{(1, 1, 1, 1)}" ]
    # a function of no object has a mapping too, of no file
    printf 'events: Ir\nfn=<module>\n1 5\n' > "$BATS_TEST_TMPDIR/n.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/n.pb" "$BATS_TEST_TMPDIR/n.cg"
    [ "$(decode "$BATS_TEST_TMPDIR/n.pb" | query /dev/stdin "(d['mappings'], [l[1] for l in d['locations']])")" = "([[1, '']], [1])" ]
}

@test "hostile names are data: byte for byte in both formats" {
    sh "$TESTS_DIR/flame/hostile.sh" "$BATS_TEST_TMPDIR/h.cg"
    "$CG_BINDIR/cg-funcs" -H -C "$BATS_TEST_TMPDIR/h.cg" | cut -f3 | sort > "$BATS_TEST_TMPDIR/want"
    [ "$(wc -l < "$BATS_TEST_TMPDIR/want")" -eq 10 ]
    export_ speedscope -o "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/h.cg"
    query "$BATS_TEST_TMPDIR/s.json" "'\n'.join(sorted(f['name'] for f in d['shared']['frames']))" > "$BATS_TEST_TMPDIR/got"
    cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/h.cg"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    query "$BATS_TEST_TMPDIR/p.json" "'\n'.join(sorted(f[1] for f in d['functions']))" > "$BATS_TEST_TMPDIR/got"
    cmp "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

@test "several files are one profile's parts" {
    f=$EXAMPLE
    export_ speedscope -o "$BATS_TEST_TMPDIR/one.json" "$f"
    export_ speedscope -o "$BATS_TEST_TMPDIR/two.json" "$f" "$f"
    q() { query "$BATS_TEST_TMPDIR/$1" "$2"; }
    # a profile per part: the example's one part, twice
    [ "$(q one.json "[p['name'] for p in d['profiles']]")" = "['Ir']" ]
    [ "$(q two.json "[p['name'] for p in d['profiles']]")" = "['Ir, part 1 of 2', 'Ir, part 2 of 2']" ]
    one=$(q one.json "[d['profiles'][0][k] for k in ('endValue', 'samples', 'weights')]")
    [ "$(q two.json "[d['profiles'][0][k] for k in ('endValue', 'samples', 'weights')]")" = "$one" ]
    [ "$(q two.json "[d['profiles'][1][k] for k in ('endValue', 'samples', 'weights')]")" = "$one" ]
}

@test "standard input, read as -" {
    f=$EXAMPLE
    export_ speedscope -o "$BATS_TEST_TMPDIR/a.json" - < "$f"
    export_ speedscope < "$f" > "$BATS_TEST_TMPDIR/b.json"
    cmp "$BATS_TEST_TMPDIR/a.json" "$BATS_TEST_TMPDIR/b.json"
    [ "$(query "$BATS_TEST_TMPDIR/a.json" "d['name']")" = "<stdin>" ]
}

@test "an invalid input: its diagnostic at its line, nothing written, -o kept" {
    printf 'events: Ir\nfn=main\n1 5\nbogus line\n' > "$BATS_TEST_TMPDIR/bad.cg"
    echo keep > "$BATS_TEST_TMPDIR/out.pb.gz"
    run --separate-stderr export_ pprof -o "$BATS_TEST_TMPDIR/out.pb.gz" "$BATS_TEST_TMPDIR/bad.cg"
    [ "$status" -eq 1 ]
    [[ "$stderr" == "$BATS_TEST_TMPDIR/bad.cg:4: syntax: expected KEY: or KEY=, found 'bogus line'" ]]
    [ "$(cat "$BATS_TEST_TMPDIR/out.pb.gz")" = keep ]
    no_temp_in "$BATS_TEST_TMPDIR"
    run --separate-stderr export_ speedscope "$BATS_TEST_TMPDIR/bad.cg"
    [ "$status" -eq 1 ]
    [ -z "$output" ]
}

@test "a producer's deviation is refused, and read with --compat, named" {
    run --separate-stderr export_ speedscope "$CORPUS/thirdparty/windler_xdebug260.cachegrind"
    [ "$status" -eq 1 ]
    run --separate-stderr export_ speedscope --compat "$CORPUS/thirdparty/windler_xdebug260.cachegrind"
    [ "$status" -eq 0 ]
    [[ "$stderr" == *"warning: summary: after body lines"* ]]
    [[ "$output" == '{"$schema"'* ]]
}

@test "pprof is not written to a terminal; speedscope is" {
    f=$EXAMPLE
    run script -qec "$CG_BINDIR/cg-export pprof $f" /dev/null
    [ "$status" -eq 2 ]
    [[ "$output" == *"cg-export pprof: a binary profile is not written to a terminal: redirect it, or use -o FILE"* ]]
    run script -qec "$CG_BINDIR/cg-export pprof -o $BATS_TEST_TMPDIR/p.pb.gz $f" /dev/null
    [ "$status" -eq 0 ]
    run script -qec "$CG_BINDIR/cg-export speedscope $f" /dev/null
    [ "$status" -eq 0 ]
    [[ "$output" == '{"$schema"'* ]]
}

@test "usage errors name the format, exit 2" {
    run --separate-stderr export_
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export: no format named"* ]]
    run --separate-stderr export_ perf x.cg
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export: unknown format 'perf' (pprof or speedscope)"* ]]
    run --separate-stderr export_ speedscope --no-gzip x.cg
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export speedscope: --no-gzip goes with pprof"* ]]
    run --separate-stderr export_ pprof --bogus
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export pprof: unrecognized option '--bogus'"* ]]
    run --separate-stderr export_ pprof -o /nonexistent/dir/p.pb.gz "$EXAMPLE"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export pprof: /nonexistent/dir/p.pb.gz: "* ]]
}

@test "--help and --version, of the command and of a format" {
    run export_ --help
    [ "$status" -eq 0 ]
    [[ "$output" == "usage: cg-export pprof"* ]]
    run export_ speedscope --help
    [ "$status" -eq 0 ]
    [[ "$output" == *"speedscope's file format (JSON)"* ]]
    run export_ --version
    [ "$status" -eq 0 ]
    [[ "$output" == "cg-export (cgprof) "[0-9]* ]]
}

@test "pprof: a recording with instruction positions gives their addresses" {
    printf 'positions: instr line\nevents: Ir\nob=a.out\nfl=m.c\nfn=main\n0x10 3 5\n+4 3 7\n+4 4 1\ncfn=f\ncalls=1 0x40 9\n+4 5 2\nfn=f\n0x40 9 2\n' > "$BATS_TEST_TMPDIR/i.cg"
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/i.cg"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    # each sample: its value, and (address, line) of its locations, leaf
    # first: main's costs at 0x10, 0x14, 0x18; f's 2 under main's call at 0x1c
    q() { query "$BATS_TEST_TMPDIR/p.json" "$1"; }
    [ "$(q "sorted((s[1][0], [next((l[3], l[2]['2']) for l in d['locations'] if l[0] == x) for x in s[0]]) for s in d['samples'])")" = "[(1, [(24, 4)]), (2, [(64, 9), (28, 5)]), (5, [(16, 3)]), (7, [(20, 3)])]" ]
}

@test "the stack estimate's options: --no-cycles, --max-depth with cg-fold's warning" {
    f=$CORPUS/thirdparty/chrome2calltree_sample.log
    export_ speedscope --compat -o "$BATS_TEST_TMPDIR/c.json" "$f" 2> /dev/null
    export_ speedscope --compat --no-cycles -o "$BATS_TEST_TMPDIR/n.json" "$f" 2> /dev/null
    # as many stacks as cg-fold's, with and without cycles, which differ
    "$CG_BINDIR/cg-fold" --compat "$f" 2> /dev/null | wc -l > "$BATS_TEST_TMPDIR/fold-c"
    "$CG_BINDIR/cg-fold" --compat --no-cycles "$f" 2> /dev/null | wc -l > "$BATS_TEST_TMPDIR/fold-n"
    run cmp -s "$BATS_TEST_TMPDIR/fold-c" "$BATS_TEST_TMPDIR/fold-n"
    [ "$status" -ne 0 ]
    [ "$(query "$BATS_TEST_TMPDIR/c.json" "len(d['profiles'][0]['weights'])")" = "$(cat "$BATS_TEST_TMPDIR/fold-c")" ]
    [ "$(query "$BATS_TEST_TMPDIR/n.json" "len(d['profiles'][0]['weights'])")" = "$(cat "$BATS_TEST_TMPDIR/fold-n")" ]
    run --separate-stderr export_ speedscope --max-depth 2 -o "$BATS_TEST_TMPDIR/d.json" "$EXAMPLE"
    [ "$status" -eq 0 ]
    [[ "$stderr" == "cg-export speedscope: warning: stacks deeper than --max-depth were cut, "* ]]
    [ "$(query "$BATS_TEST_TMPDIR/d.json" "max(len(s) for s in d['profiles'][0]['samples'])")" = 2 ]
    run --separate-stderr export_ pprof --max-depth 0 -o "$BATS_TEST_TMPDIR/p" "$EXAMPLE"
    [ "$status" -eq 2 ]
    [[ "$stderr" == "cg-export pprof: --max-depth: expected a number from 1"* ]]
}

@test "a self-contradicting file: cg-fold's warning, summed over the parts, in both formats" {
    write_profile "$BATS_TEST_TMPDIR/two.cg"
    f=$BATS_TEST_TMPDIR/two.cg
    # Dr: main's call carries 2, helper holds 0, in each copy's part 1
    "$CG_BINDIR/cg-fold" -e Dr "$f" "$f" 2> "$BATS_TEST_TMPDIR/fold" > /dev/null
    grep -F 'at 2 functions' "$BATS_TEST_TMPDIR/fold"
    for fmt in pprof speedscope; do
        export_ $fmt -o "$BATS_TEST_TMPDIR/out" "$f" "$f" 2> "$BATS_TEST_TMPDIR/$fmt"
        sed "s/^cg-export $fmt:/cg-fold:/" "$BATS_TEST_TMPDIR/$fmt" | cmp - "$BATS_TEST_TMPDIR/fold"
    done
}

@test "a file's name that is no UTF-8 is written U+FFFD in both formats" {
    cp "$EXAMPLE" "$BATS_TEST_TMPDIR/bad$(printf '\377').cg"
    export_ speedscope -o "$BATS_TEST_TMPDIR/s.json" "$BATS_TEST_TMPDIR/bad$(printf '\377').cg"
    [ "$(query "$BATS_TEST_TMPDIR/s.json" "d['name'].endswith('bad\ufffd.cg')")" = True ]
    export_ pprof --no-gzip -o "$BATS_TEST_TMPDIR/p.pb" "$BATS_TEST_TMPDIR/bad$(printf '\377').cg"
    decode "$BATS_TEST_TMPDIR/p.pb" > "$BATS_TEST_TMPDIR/p.json"
    [ "$(query "$BATS_TEST_TMPDIR/p.json" "'bad\ufffd.cg;' in d['comments'][0]")" = True ]
}

# go tool pprof -top over the pprof export $1 (more options after it):
# per name shown, the flat figures added up, "NAME<TAB>FLAT" sorted; a
# figure's unit (ns with -unit=ns) dropped.
top_flat() {
    HOME=$BATS_TEST_TMPDIR PPROF_TMPDIR=$BATS_TEST_TMPDIR go tool pprof -top \
        -nodecount=1000000 -nodefraction=0 -edgefraction=0 "$@" 2>/dev/null | python3 -c '
import collections, re, sys
flat, on = collections.Counter(), False
for line in sys.stdin.read().split("\n"):
    if re.match(r"^\s+flat\s+flat%", line):
        on = True
        continue
    m = on and re.match(r"^\s*(\S+)\s+\S+%\s+\S+%\s+\S+\s+\S+%\s\s(.*)$", line)
    if m:
        flat[m.group(2)] += int(re.sub(r"[a-z]+$", "", m.group(1)))
for n in sorted(flat):
    print("%s\t%d" % (n, flat[n]))'
}

# cg-funcs -C over $1 (with --compat): per name of the functions with an
# inclusive cost in the first event, their self costs in it times $2
# added up, "NAME<TAB>SELF" sorted as top_flat sorts.
funcs_self() {
    "$CG_BINDIR/cg-funcs" --compat -C "$1" 2>/dev/null | python3 -c '
import collections, sys
rows = [l.rstrip("\n").split("\t") for l in sys.stdin]
head, rows = rows[0], rows[1:]
ev = head[5]
own, incl = collections.Counter(), collections.Counter()
for r in rows:
    own[r[2]] += int(r[5] or 0) * int(sys.argv[1])
    incl[r[2]] += int(r[head.index(ev + ":incl")] or 0)
for n in sorted(k for k in own if incl[k]):
    print("%s\t%d" % (n, own[n]))' "$2"
}

@test "Xdebug's Time_(10ns), recorded now: go tool pprof reads nanoseconds, ten times the profile's figures" {
    command -v go > /dev/null || skip "go is not installed"
    php -m 2> /dev/null | grep -qix xdebug || skip "php with xdebug is not installed"
    T=$BATS_TEST_TMPDIR
    php -d xdebug.mode=profile -d xdebug.output_dir="$T" -d xdebug.profiler_output_name=xdebug.cg \
        -d xdebug.use_compression=0 "$TESTS_DIR/programs/shop.php" > /dev/null
    grep -Fx 'events: Time_(10ns) Memory_(bytes)' "$T/xdebug.cg"
    export_ pprof --compat -o "$T/x.pb.gz" "$T/xdebug.cg" 2> /dev/null
    HOME=$T PPROF_TMPDIR=$T go tool pprof -raw "$T/x.pb.gz" > "$T/raw" 2> /dev/null
    grep -Fx 'PeriodType: Time nanoseconds' "$T/raw"
    grep -Fx 'Period: 10' "$T/raw"
    grep -Fx 'Time/nanoseconds[dflt] Memory/bytes' "$T/raw"
    # the samples add up to 10 x the Time total, 1 x the Memory total
    python3 -c '
import sys
lines = open(sys.argv[1]).read().split("\n")
i = lines.index("Samples:") + 2
vals = [l.split(":")[0].split() for l in lines[i:lines.index("Locations")] if l.strip()]
print(sum(int(v[0]) for v in vals), sum(int(v[1]) for v in vals))' "$T/raw" > "$T/sums"
    "$CG_BINDIR/cg-funcs" --compat -H -T "$T/xdebug.cg" 2> /dev/null | cut -f2 | paste -sd' ' | awk '{ print $1 * 10, $2 }' | diff - "$T/sums"
    # every function's flat in ns, as -top prints it: 10 x its self cost
    top_flat -unit=ns "$T/x.pb.gz" > "$T/top"
    funcs_self "$T/xdebug.cg" 10 > "$T/want"
    [ "$(wc -l < "$T/want")" -ge 5 ]
    diff "$T/want" "$T/top"
    # and the whole check of tests/export/pprof.py (P1-P7)
    HOME=$T python3 "$TESTS_DIR/export/pprof.py" "$CG_BINDIR" "$T/xdebug.cg"
}

@test "cProfile, recorded now: go tool pprof shows every name as it is, <module> and <built-in method ...> too" {
    command -v go > /dev/null || skip "go is not installed"
    T=$BATS_TEST_TMPDIR
    python3 "$TESTS_DIR/programs/cprofile2cg.py" "$T/cp.cg" "$TESTS_DIR/programs/interp.py" > /dev/null
    export_ pprof -o "$T/cp.pb.gz" "$T/cp.cg" 2> /dev/null
    top_flat "$T/cp.pb.gz" > "$T/top"
    funcs_self "$T/cp.cg" 1 > "$T/want"
    grep -q '^<module>	' "$T/want"
    grep -q '^<built-in method builtins\.' "$T/want"
    grep -q '^<genexpr>	' "$T/want"
    no_line '^<unknown>' "$T/top"
    # every name with its flat: the names as cg-funcs prints them
    diff "$T/want" "$T/top"
    HOME=$T python3 "$TESTS_DIR/export/pprof.py" "$CG_BINDIR" "$T/cp.cg"
}
