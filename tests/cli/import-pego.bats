#!/usr/bin/env bats
# cg-import pego: every figure of cg-funcs over the output derived apart,
# by a few lines of Python over the JSON (derive_trace, derive_profile
# below), for the example inputs of tests/import/pego; the trace and the
# profile of one run agree; --parts, --folded, warnings, refusals at their
# line, -o, usage errors.
load common

import() { "$CG_BINDIR/cg-import" pego "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows
EX=$TESTS_DIR/import/pego

# derive_trace FILE EV,EV...: the rows cg-funcs -H --no-cycles prints for
# those events (fn called self... incl...), then after a "--" line the
# rows of -c (caller callee calls incl...), each block sorted.  Inclusive
# cost as cg-funcs(1) counts it without cycles: the arcs into a function
# except its calls to itself, or, never called, its self cost and its arcs
# out except to itself.
derive_trace() {
    python3 - "$@" <<'PY'
import json, sys
evs = sys.argv[2].split(',')
zero = lambda: dict.fromkeys(evs, 0)
self, arcs, count, stack = {'<parse>': zero()}, {}, {}, []
def add(d, k, v):
    d.setdefault(k, zero())
    for e in evs: d[k][e] += v.get(e, 0)
def arc(caller, rule, incl, n):
    add(arcs, (caller, rule), incl)
    count[(caller, rule)] = count.get((caller, rule), 0) + n
for line in open(sys.argv[1]):
    ev = json.loads(line)
    kind, rule = ev.get('event', ev.get('kind')), ev['rule']
    caller = stack[-1][0] if stack else '<parse>'
    if kind == 'enter':
        if ev['depth'] == 1:
            stack.clear()              # a new parse: the open calls aborted
        add(self, rule, {'Entered': 1})
        stack.append((rule, {'Entered': 1}))
    elif kind == 'skipped':
        add(self, rule, {'Skipped': 1})
        arc(caller, rule, {'Skipped': 1}, 0)
        if stack: stack[-1][1]['Skipped'] = stack[-1][1].get('Skipped', 0) + 1
    else:
        _, incl = stack.pop()
        caller = stack[-1][0] if stack else '<parse>'
        own = {'Evals': ev['evals'], 'MemoHits': int(ev.get('memo', False)),
               'Matched': int(ev['matched']), 'Failed': int(not ev['matched']),
               'Consumed': ev['end'] - ev['pos'] if ev['matched'] else 0}
        add(self, rule, own)
        for k, v in own.items(): incl[k] = incl.get(k, 0) + v
        arc(caller, rule, incl, 1)
        if stack:
            for k, v in incl.items(): stack[-1][1][k] = stack[-1][1].get(k, 0) + v
rows = []
for f in self:
    called = sum(n for (a, b), n in count.items() if b == f)
    inc = zero()
    if any(n > 0 for (a, b), n in count.items() if b == f):
        for (a, b), c in arcs.items():
            if b == f and a != f: add({0: inc}, 0, c)
    else:
        add({0: inc}, 0, self[f])
        for (a, b), c in arcs.items():
            if a == f and b != f: add({0: inc}, 0, c)
    rows.append('\t'.join([f, str(called)] + [str(self[f][e]) for e in evs] +
                          [str(inc[e]) for e in evs]))
print('\n'.join(sorted(rows)))
print('--')
print('\n'.join(sorted('\t'.join([a, b, str(count[(a, b)])] +
                                 [str(c[e]) for e in evs])
                       for (a, b), c in arcs.items())))
PY
}

# The same two blocks from cg-funcs over a profile.
funcs_rows() {
    funcs -H --no-cycles -e "$2" "$1" | cut -f3,4,6- | sort
    echo --
    funcs -H -c -e "$2" "$1" | cut -f3,6- | sort
}

# check_trace FILE EVENTS: the output is valid and cg-funcs agrees.
check_trace() {
    import "$EX/$1" > "$BATS_TEST_TMPDIR/out.cg"
    validate "$BATS_TEST_TMPDIR/out.cg"
    derive_trace "$EX/$1" "$2" > "$BATS_TEST_TMPDIR/want"
    funcs_rows "$BATS_TEST_TMPDIR/out.cg" "$2" > "$BATS_TEST_TMPDIR/got"
    diff "$BATS_TEST_TMPDIR/want" "$BATS_TEST_TMPDIR/got"
}

ENGINE=Evals,MemoHits,Matched,Failed,Consumed
TS=Evals,MemoHits,Matched,Failed,Consumed,Entered,Skipped

@test "expression grammar: each rule's calls, own and inclusive figures, arcs" {
    check_trace expr.trace.jsonl $ENGINE
}

@test "JSON grammar, failures and a memo hit" {
    check_trace json.trace.jsonl $ENGINE
}

@test "left recursion: growth evaluations, memo hits of the seed, self calls" {
    check_trace leftrec.trace.jsonl $ENGINE
    # the seed's reuses: sum calls itself 4 times from its one call
    run -0 funcs -H -c -e MemoHits "$BATS_TEST_TMPDIR/out.cg"
    [ "$(awk -F'\t' '$3 == "sum" && $6 == "sum" { print $7 "/" $8 }' <<<"$output")" = 4/4 ]
}

@test "lookahead calls are calls like the others" {
    check_trace lookahead.trace.jsonl $ENGINE
}

@test "a filtered stream: the top calls at depth 2 are called from <parse>" {
    check_trace expr-filtered.trace.jsonl $ENGINE
    run -0 funcs -H -c -e Evals "$BATS_TEST_TMPDIR/out.cg"
    [ "$(awk -F'\t' '$3 == "<parse>" { print $6, $7 }' <<<"$output")" = "term 2" ]
}

@test "TypeScript spelling: Entered and Skipped, a skip is an arc with no call" {
    check_trace ts.trace.jsonl $TS
    run -0 funcs -H -c -e Skipped "$BATS_TEST_TMPDIR/out.cg"
    [ "$(awk -F'\t' '$6 == "paren" { print $3, $7, $8 }' <<<"$output")" = "factor 0 2" ]
}

@test "an aborted call: Entered, a warning at its enter, no arc into it" {
    run --separate-stderr -0 import "$EX/aborted.trace.jsonl"
    [ "$stderr" = "$EX/aborted.trace.jsonl:1: warning: 3 calls entered and never exited (the first: expr): counted in Entered, with no call arc" ]
    check_trace aborted.trace.jsonl $ENGINE,Entered
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/out.cg"
    [ "$(awk -F'\t' '$6 == "expr"' <<<"$output")" = "" ]
}

# derive_profile FILE EV,...: fn and the counters of each rule from a
# profile, times in nanoseconds (TypeScript milliseconds times 10^6,
# rounded half up).
derive_profile() {
    python3 - "$@" <<'PY'
import json, sys
from decimal import Decimal, ROUND_HALF_UP
p = json.load(open(sys.argv[1]), parse_float=Decimal)
key = {'Evals': 'evals', 'MemoHits': 'memoHits', 'Matched': 'matched',
       'Failed': 'failed', 'Consumed': 'consumed', 'Entered': 'entered',
       'Skipped': 'skipped', 'Wasted': 'wasted', 'Repeats': 'repeats',
       'SelfTime': 'selfTime', 'Time': 'time'}
ts = 'entered' in p
def value(r, e):
    v = r[key[e]]
    if ts and e in ('SelfTime', 'Time'):
        v = (Decimal(v) * 10**6).to_integral_value(ROUND_HALF_UP)
    return str(int(v))
for r in sorted(p['rules'], key=lambda r: r['rule']):
    print('\t'.join([r['rule']] + [value(r, e) for e in sys.argv[2].split(',')]))
PY
}

check_profile() {
    import "$EX/$1" > "$BATS_TEST_TMPDIR/out.cg"
    validate "$BATS_TEST_TMPDIR/out.cg"
    run -0 funcs -H -e "$2" "$BATS_TEST_TMPDIR/out.cg"
    local n
    n=$(tr ',' '\n' <<<"$2" | wc -l)
    diff <(derive_profile "$EX/$1" "$2") \
         <(cut -f3,6-$((5 + n)) <<<"$output" | sort)
}

@test "engine profile: each rule's counters, SelfTime and Time in ns" {
    check_profile expr.profile.json $ENGINE,Wasted,Repeats,SelfTime,Time
    check_profile leftrec.profile.json $ENGINE,Wasted,Repeats,SelfTime,Time
    grep -qx 'desc: Result: ok' "$BATS_TEST_TMPDIR/out.cg"
    # no arcs: a profile has none
    run -0 funcs -H -c "$BATS_TEST_TMPDIR/out.cg"
    [ "$output" = "" ]
}

@test "TypeScript profile: Entered and Skipped, milliseconds made nanoseconds" {
    check_profile ts.profile.json $TS,Repeats,SelfTime,Time
    # wasted is unknown there (wastedKnown false): no Wasted event
    run -0 funcs -H -T "$BATS_TEST_TMPDIR/out.cg"
    [ "$(cut -f1 <<<"$output" | tr '\n' ' ')" = "Evals MemoHits Matched Failed Consumed Entered Skipped Repeats SelfTime Time " ]
}

@test "a profile cut to its first rules: a warning, the rules it lists" {
    run --separate-stderr -0 import "$EX/expr-cut.profile.json"
    [ "$stderr" = "$EX/expr-cut.profile.json:9: warning: the rules listed have 6 of the profile's 14 calls: the profile was cut to its first rules (pego profile -n 0 lists them all)" ]
    check_profile expr-cut.profile.json $ENGINE
}

@test "the trace and the profile of one run agree per rule" {
    for run in expr leftrec ts; do
        import "$EX/$run.trace.jsonl" > "$BATS_TEST_TMPDIR/t.cg"
        import "$EX/$run.profile.json" > "$BATS_TEST_TMPDIR/p.cg"
        # every rule the profile has, as the trace counts it
        diff <(funcs -H -e $ENGINE "$BATS_TEST_TMPDIR/p.cg" | cut -f3,6-10 | sort) \
             <(funcs -H -e $ENGINE "$BATS_TEST_TMPDIR/t.cg" | cut -f3,6-10 |
               grep -v '^<parse>' | sort)
    done
}

@test "both importers name their version in creator:, that of --version" {
    v=$("$CG_BINDIR/cg-import" --version | sed 's/^cg-import (cgprof) //')
    [ -n "$v" ]
    [ "$(import "$EX/expr.profile.json" | grep '^creator:')" = "creator: cgprof $v cg-import pego (pego profile)" ]
    [ "$(import "$EX/expr.trace.jsonl" | grep '^creator:')" = "creator: cgprof $v cg-import pego (pego rule trace)" ]
    M=$TESTS_DIR/import/mlton
    [ "$("$CG_BINDIR/cg-import" mlton "$M/prog.sources" | grep '^creator:')" = "creator: cgprof $v cg-import mlton (MLton show-sources and mlmon.out)" ]
}

@test "--parts: one part per parse" {
    import --parts "$EX/ts.trace.jsonl" > "$BATS_TEST_TMPDIR/out.cg"
    validate "$BATS_TEST_TMPDIR/out.cg"
    run -0 "$CG_BINDIR/cg-parts" -H "$BATS_TEST_TMPDIR/out.cg"
    [ "${#lines[@]}" -eq 2 ]
    # the second parse: "4" makes expr, term, factor and num one call each
    run -0 funcs -H -p -e Evals "$BATS_TEST_TMPDIR/out.cg"
    [ "$(awk -F'\t' '$1 == 2 && $4 == "expr" { print $5, $7 }' <<<"$output")" = "1 1" ]
    # without --parts, one part with both parses
    import "$EX/ts.trace.jsonl" > "$BATS_TEST_TMPDIR/one.cg"
    run -0 "$CG_BINDIR/cg-parts" -H "$BATS_TEST_TMPDIR/one.cg"
    [ "${#lines[@]}" -eq 1 ]
}

# The folded counts of each rule (its frame last) against cg-funcs's self.
check_folded() {
    import --folded -e "$2" "$EX/$1" > "$BATS_TEST_TMPDIR/folded"
    import "$EX/$1" > "$BATS_TEST_TMPDIR/out.cg"
    diff <(awk '{ n = split($1, f, ";"); s[f[n]] += $2 }
                END { for (r in s) print r "\t" s[r] }' "$BATS_TEST_TMPDIR/folded" | sort) \
         <(funcs -H -e "$2" "$BATS_TEST_TMPDIR/out.cg" | awk -F'\t' '$6 > 0 { print $3 "\t" $6 }' | sort)
}

@test "--folded: the exact stacks, adding up to each rule's self cost" {
    check_folded json.trace.jsonl Evals
    check_folded ts.trace.jsonl Skipped
    check_folded aborted.trace.jsonl Entered
    check_folded leftrec.trace.jsonl MemoHits
    # the stacks as the trace has them
    run -0 import --folded "$EX/expr-filtered.trace.jsonl"
    [ "${lines[0]}" = "<parse>;term 2" ]
    [ "${lines[1]}" = "<parse>;term;factor 3" ]
    [ "${lines[2]}" = "<parse>;term;factor;num 3" ]
    [ "${lines[3]}" = "<parse>;term;mulop 3" ]
    [ "${#lines[@]}" -eq 4 ]
}

@test "--grammar names the file of every function" {
    run -0 import --grammar calc.peg "$EX/expr.trace.jsonl"
    grep -qx 'fl=(1) calc.peg' <<<"$output"
    run -0 import "$EX/expr.trace.jsonl"
    grep -qx 'fl=(1) ???' <<<"$output"
}

@test "refusals at their line, nothing written" {
    printf '%s\n' '{"event":"enter","rule":"s","depth":1,"pos":0,"line":1,"col":1}' \
        '{"event":"exit","rule":"s","depth":1,"pos":0,"line":1,"col":1,"matched":false,"end":2,"evals":1,"examined":1}' \
        > "$BATS_TEST_TMPDIR/bad.jsonl"
    run --separate-stderr -1 import "$BATS_TEST_TMPDIR/bad.jsonl"
    [ "$output" = "" ]
    [ "$stderr" = "$BATS_TEST_TMPDIR/bad.jsonl:2: syntax: a failed call ends at 2, not at its pos 0" ]
    sed 's/"calls": 14/"calls": 1.5/' "$EX/expr.profile.json" > "$BATS_TEST_TMPDIR/bad.json"
    run --separate-stderr -1 import - < "$BATS_TEST_TMPDIR/bad.json"
    [ "$stderr" = "<stdin>:4: syntax: 'calls' is not a non-negative integer" ]
    # a trailing comma, as a hand edit leaves it: named, at its line
    line=$(grep -n '"selfTime"' "$EX/expr.profile.json" | head -1 | cut -d: -f1)
    sed "${line}s/\$/,/" "$EX/expr.profile.json" > "$BATS_TEST_TMPDIR/comma.json"
    run --separate-stderr -1 import "$BATS_TEST_TMPDIR/comma.json"
    [ "$stderr" = "$BATS_TEST_TMPDIR/comma.json:$line: syntax: a comma before '}': JSON allows none after the last member; expected a key (a string) after the comma" ]
    sed '3s/.*/{"event":"enter","rule":"s","depth":2,"pos":0,"line":1,"col":1,"new":1}/' \
        "$EX/expr.trace.jsonl" > "$BATS_TEST_TMPDIR/new.jsonl"
    run --separate-stderr -1 import "$BATS_TEST_TMPDIR/new.jsonl"
    [ "$stderr" = "$BATS_TEST_TMPDIR/new.jsonl:3: syntax: unknown key 'new' in a trace event" ]
    run --separate-stderr -1 import --limit line=20 "$EX/expr.trace.jsonl"
    [[ "$stderr" == "$EX/expr.trace.jsonl:1: resource: "*"(raise it with --limit line=N or --no-limits)" ]]
    run --separate-stderr -1 import --folded "$EX/expr.profile.json"
    [ "$stderr" = "$EX/expr.profile.json:0: unsupported: a profile has no stacks (a trace has)" ]
}

@test "-o OUT: written whole, kept on a refusal" {
    import -o "$BATS_TEST_TMPDIR/o.cg" "$EX/expr.trace.jsonl"
    validate "$BATS_TEST_TMPDIR/o.cg"
    cp "$BATS_TEST_TMPDIR/o.cg" "$BATS_TEST_TMPDIR/before"
    printf '{"event":"exit"}\n' > "$BATS_TEST_TMPDIR/bad.jsonl"
    run -1 import -o "$BATS_TEST_TMPDIR/o.cg" "$BATS_TEST_TMPDIR/bad.jsonl"
    cmp "$BATS_TEST_TMPDIR/o.cg" "$BATS_TEST_TMPDIR/before"
    run -2 import -o /nonexistent/dir/o.cg "$EX/expr.trace.jsonl"
    run -2 sh -c '"$0" pego "$1" > /dev/full' "$CG_BINDIR/cg-import" \
        "$EX/expr.trace.jsonl"
}

@test "usage errors, --help and --version" {
    run --separate-stderr -2 import --parts --folded "$EX/ts.trace.jsonl"
    [ "${stderr_lines[0]}" = "cg-import pego: --parts and --folded do not go together" ]
    run --separate-stderr -2 import -e Evals "$EX/ts.trace.jsonl"
    [ "${stderr_lines[0]}" = "cg-import pego: -e goes with --folded" ]
    run --separate-stderr -2 import --folded -e Time "$EX/ts.trace.jsonl"
    [ "$stderr" = "cg-import pego: -e: event 'Time' is not an event of the input" ]
    run -2 import --folded -e Evals,Failed "$EX/ts.trace.jsonl"
    run -2 import "$EX/ts.trace.jsonl" "$EX/expr.trace.jsonl"
    run -2 import --compat "$EX/ts.trace.jsonl"
    run -2 import "$BATS_TEST_TMPDIR/missing.jsonl"
    run --separate-stderr -0 import --help
    [[ "${lines[0]}" == "usage: cg-import pego "* ]]
    [ "$stderr" = "" ]
    run -0 import --version
    [[ "$output" == "cg-import pego (cgprof) "* ]]
}

@test "a long result message of non-ASCII text is cut between characters in the desc: line" {
    # 400 e-acute: the desc: line holds as many whole characters as fit
    python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["result"] = "\u00e9" * 400
json.dump(p, open(sys.argv[2], "w"), indent=2)' "$EX/expr.profile.json" "$BATS_TEST_TMPDIR/long.json"
    run -0 --separate-stderr import "$BATS_TEST_TMPDIR/long.json"
    "$CG_BINDIR/cg-import" pego "$BATS_TEST_TMPDIR/long.json" > "$BATS_TEST_TMPDIR/long.cg"
    run -0 validate "$BATS_TEST_TMPDIR/long.cg"
    grep -q "$(printf '\303\251\303\251')" "$BATS_TEST_TMPDIR/long.cg"
}
