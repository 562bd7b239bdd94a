#!/usr/bin/env bats
# A file's own summary: and totals: against its costs: a warning naming
# both figures from every command, summed over many inputs, and
# cg-validate --strict-totals (exit 5).  The figures are derived here by
# hand or by figures() below, never by the commands.
load common

# figures FILE: each summary: or totals: line that disagrees with the sum
# of its part's cost lines (a call's cost line left out), as
# "LINE KEY EVENT WRITTEN SUM" for its first event that differs; the
# events past the values written are not compared.  Plain files only
# (no --compat repairs, cost columns of decimal numbers).
figures() {
    python3 - "$1" <<'PY'
import re, sys
lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
parts, part, state, after_calls = [], None, "none", False
for n, line in enumerate(lines, 1):
    line = line.rstrip()
    if not line or line.lstrip().startswith("#"):
        continue
    m = re.match(r"([A-Za-z][A-Za-z0-9_-]*):(.*)$", line)
    if m:
        key, value = m.group(1), m.group(2).split()
        if part is None or (state in ("body", "trailer") and key != "totals"):
            part = {"events": [], "npos": 1, "figures": [], "sums": None}
            parts.append(part)
            state = "headers"
        if key == "events":
            part["events"] = value
            part["sums"] = [0] * len(value)
        elif key == "positions":
            part["npos"] = len(value)
        elif key in ("summary", "totals"):
            part["figures"].append((n, key, [int(v, 0) for v in value]))
            if key == "totals":
                state = "trailer"
        continue
    state = "body"
    if re.match(r"[A-Za-z]+=", line):
        after_calls = after_calls or line.startswith("calls=")
        continue
    costs = line.split()[part["npos"]:]
    if after_calls:
        after_calls = False
        continue
    for i, c in enumerate(costs):
        part["sums"][i] += int(c)
for part in parts:
    for n, key, values in part["figures"]:
        for i, v in enumerate(values):
            if v != part["sums"][i]:
                print(n, key, part["events"][i], v, part["sums"][i])
                break
PY
}

# The warning figures() predicts for the first line of a FILE that has
# one, part P: NAME:LINE: warning: KEY: says EV N where ... add up to M.
predicted() {
    local line key ev written sum
    read -r line key ev written sum < <(figures "$1" | grep " $3 " | head -1)
    echo "$1:$line: $4: $3: says $ev $written where the cost lines of part $2 add up to $sum"
}

setup() {
    T=$BATS_TEST_TMPDIR
    # 4 + 6 = 10 over totals: 12
    printf 'events: Ir\nfn=a\n1 4\n2 6\ntotals: 12\n' > "$T/t12.cg"
    # the same costs, the figures right
    printf 'events: Ir\nsummary: 10\nfn=a\n1 4\n2 6\ntotals: 10\n' > "$T/ok.cg"
}

@test "totals: 12 over costs of 10: a warning naming both figures, the event and the line; exit 0" {
    run -0 --separate-stderr validate "$T/t12.cg"
    [ "$stderr" = "$T/t12.cg:5: warning: totals: says Ir 12 where the cost lines of part 1 add up to 10 (1 line)" ]
    [ "$stderr" = "$(predicted "$T/t12.cg" 1 totals warning) (1 line)" ]
    run -0 --separate-stderr validate "$T/ok.cg"
    [ -z "$stderr" ]
    [ -z "$(figures "$T/ok.cg")" ]
}

@test "summary: and totals: each said, at their own line" {
    # Ir: 3 + 4 = 7, Dr: 1 + 0 = 1; summary wrong in Ir, totals in Dr
    printf 'events: Ir Dr\nsummary: 8 1\nfn=a\n1 3 1\n2 4\ntotals: 7 2\n' > "$T/both.cg"
    run -0 --separate-stderr validate "$T/both.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    [ "${stderr_lines[0]}" = "$T/both.cg:2: warning: summary: says Ir 8 where the cost lines of part 1 add up to 7 (1 line)" ]
    [ "${stderr_lines[1]}" = "$T/both.cg:6: warning: totals: says Dr 2 where the cost lines of part 1 add up to 1 (1 line)" ]
    [ "${stderr_lines[0]}" = "$(predicted "$T/both.cg" 1 summary warning) (1 line)" ]
    [ "${stderr_lines[1]}" = "$(predicted "$T/both.cg" 1 totals warning) (1 line)" ]
}

@test "each event: the first that differs is named, the ones not written are not compared" {
    # costs Ir 5, Dr 9, Dw 2
    for want in 'Ir:6 9 2' 'Dr:5 8 2' 'Dw:5 9 3'; do
        ev=${want%%:*} vals=${want#*:}
        printf 'events: Ir Dr Dw\nfn=a\n1 5 9 2\ntotals: %s\n' "$vals" > "$T/e.cg"
        run -0 --separate-stderr validate "$T/e.cg"
        [[ "$stderr" == "$T/e.cg:4: warning: totals: says $ev "* ]]
        [ "$stderr" = "$(predicted "$T/e.cg" 1 totals warning) (1 line)" ]
    done
    # Valgrind leaves trailing events out (its cache-use events): Dr and
    # Dw not written, not compared
    printf 'events: Ir Dr Dw\nsummary: 5\nfn=a\n1 5 9 2\ntotals: 5\n' > "$T/short.cg"
    run -0 --separate-stderr validate "$T/short.cg"
    [ -z "$stderr" ]
}

@test "an event an event: line marks inclusive is not added up (MLton's stack ticks, as cg-import writes them)" {
    # T: self 2 + 3 = 5; S: inclusive figures, 5 and 3 at the lines
    printf 'events: T S\nevent: S : inclusive stack ticks\nsummary: 5 5\nfn=main\n1 2 5\nfn=f\n2 3 3\n' > "$T/incl.cg"
    run -0 --separate-stderr validate "$T/incl.cg"
    [ -z "$stderr" ]
    # the self event is still checked: summary: says T 6
    sed 's/^summary: 5 5$/summary: 6 5/' "$T/incl.cg" > "$T/incl6.cg"
    run -0 --separate-stderr validate "$T/incl6.cg"
    [ "$stderr" = "$T/incl6.cg:3: warning: summary: says T 6 where the cost lines of part 1 add up to 5 (1 line)" ]
    # without the event: line, S is a self cost: 5 + 3 = 8
    grep -v '^event:' "$T/incl.cg" > "$T/self.cg"
    run -0 --separate-stderr validate "$T/self.cg"
    [ "$stderr" = "$T/self.cg:2: warning: summary: says S 5 where the cost lines of part 1 add up to 8 (1 line)" ]
}

@test "per part: each part against its own costs; a call's inclusive cost is not counted" {
    # part 1: self 1 + 2 = 3 (the call's 50 is inclusive, not counted):
    # right; part 2: 7 over totals: 9; part 3: 4 over summary: 5
    cat > "$T/parts.cg" <<'CG'
events: Ir
fn=main
1 1
cfn=f
calls=1 9
2 50
fn=f
9 2
totals: 3

events: Ir
fn=main
1 7
totals: 9

events: Ir
summary: 5
fn=main
1 4
totals: 4
CG
    run -0 --separate-stderr validate "$T/parts.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    [ "${stderr_lines[0]}" = "$T/parts.cg:17: warning: summary: says Ir 5 where the cost lines of part 3 add up to 4 (1 line)" ]
    [ "${stderr_lines[1]}" = "$T/parts.cg:14: warning: totals: says Ir 9 where the cost lines of part 2 add up to 7 (1 line)" ]
    [ "${stderr_lines[0]}" = "$(predicted "$T/parts.cg" 3 summary warning) (1 line)" ]
    [ "${stderr_lines[1]}" = "$(predicted "$T/parts.cg" 2 totals warning) (1 line)" ]
    # two totals: lines that disagree: counted, the first named
    sed 's/^totals: 3$/totals: 53/' "$T/parts.cg" > "$T/two.cg"
    run -0 --separate-stderr validate "$T/two.cg"
    [ "${stderr_lines[1]}" = "$T/two.cg:9: warning: totals: says Ir 53 where the cost lines of part 1 add up to 3 (2 lines)" ]
    [ "$(figures "$T/two.cg" | grep -c ' totals ')" -eq 2 ]
}

@test "costs past 64 bits: the sum is said as more than 2^64-1" {
    printf 'events: Ir\nfn=a\n1 18446744073709551615\n2 1\ntotals: 0\n' > "$T/big.cg"
    run -0 --separate-stderr validate "$T/big.cg"
    [ "$stderr" = "$T/big.cg:5: warning: totals: says Ir 0 where the cost lines of part 1 add up to more than 18446744073709551615 (1 line)" ]
    # exactly 2^64-1 is said as it is
    printf 'events: Ir\nfn=a\n1 18446744073709551614\n2 1\ntotals: 0\n' > "$T/max.cg"
    run -0 --separate-stderr validate "$T/max.cg"
    [[ "$stderr" == *"add up to 18446744073709551615 (1 line)" ]]
}

@test "--strict-totals: an error, exit 5, not a warning; --quiet keeps it; the figures right pass" {
    run -5 --separate-stderr validate --strict-totals "$T/t12.cg"
    [ "$stderr" = "$T/t12.cg:5: error: totals: says Ir 12 where the cost lines of part 1 add up to 10 (1 line)" ]
    [ -z "$output" ]
    run -5 --separate-stderr validate --strict-totals -q "$T/t12.cg"
    [ "${#stderr_lines[@]}" -eq 1 ]
    run -0 --separate-stderr validate --strict-totals -v "$T/ok.cg"
    [ -z "$stderr" ]
    [ "$output" = "$T/ok.cg: 1 part, 2 records (0 calls), 1 event" ]
    # the other warnings stay warnings
    printf 'version: 0.9.6\nevents: Ir\nfn=a\n1 4\ntotals: 5\n' > "$T/x.cg"
    run -5 --separate-stderr validate --strict-totals --compat "$T/x.cg"
    [ "${stderr_lines[0]}" = "$T/x.cg:5: error: totals: says Ir 5 where the cost lines of part 1 add up to 4 (1 line)" ]
    [ "${stderr_lines[1]}" = "$T/x.cg:1: warning: dotted version: read as version 1 (1 line)" ]
}

@test "--strict-totals with many inputs: the worst status wins, an invalid input over 5" {
    printf 'events: A\nfn=f\n1 x\n' > "$T/bad.cg"
    run -5 --separate-stderr validate --strict-totals "$T/ok.cg" "$T/t12.cg"
    [ "$stderr" = "$T/t12.cg:5: error: totals: says Ir 12 where the cost lines of part 1 add up to 10 (1 line)" ]
    run -1 --separate-stderr validate --strict-totals "$T/t12.cg" "$T/bad.cg"
    [ "${#stderr_lines[@]}" -eq 2 ]
    run -1 --separate-stderr validate --strict-totals -j 2 "$T/bad.cg" "$T/t12.cg" "$T/ok.cg"
    [ "${stderr_lines[1]}" = "$T/t12.cg:5: error: totals: says Ir 12 where the cost lines of part 1 add up to 10 (1 line)" ]
    # without it the strict verdicts are unchanged: exit 0
    run -0 validate "$T/t12.cg" "$T/ok.cg"
}

@test "many inputs: the warnings summed by kind, naming the first input" {
    cp "$T/t12.cg" "$T/a.cg"
    printf 'events: Ir\nfn=a\n1 4\ntotals: 3\n\nevents: Ir\nfn=b\n1 1\ntotals: 2\n' > "$T/b.cg"
    run -0 --separate-stderr validate "$T/ok.cg" "$T/a.cg" "$T/b.cg"
    # a.cg: 1 line, b.cg: 2 lines
    [ "$stderr" = "$T/a.cg:5: warning: totals: says Ir 12 where the cost lines of part 1 add up to 10 (3 lines in 2 inputs)" ]
    [ "$( { figures "$T/a.cg"; figures "$T/b.cg"; } | wc -l)" -eq 3 ]
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" "$T/a.cg" "$T/b.cg"
    [ "$stderr" = "$T/a.cg:5: warning: totals: says Ir 12 where the cost lines of part 1 add up to 10 (3 lines in 2 inputs)" ]
    run -0 --separate-stderr validate -q "$T/a.cg" "$T/b.cg"
    [ -z "$stderr" ]
}

@test "the analysis commands say it too, and --quiet silences it" {
    want="$T/t12.cg:5: warning: totals: says Ir 12 where the cost lines of part 1 add up to 10 (1 line)"
    for cmd in funcs fold tsv parts annotate normalize dot flame merge; do
        run -0 --separate-stderr "$CG_BINDIR/cg-$cmd" "$T/t12.cg"
        [ "$stderr" = "$want" ] || { echo "cg-$cmd: $stderr"; return 1; }
        run -0 --separate-stderr "$CG_BINDIR/cg-$cmd" --quiet "$T/t12.cg"
        [ -z "$stderr" ] || { echo "cg-$cmd --quiet: $stderr"; return 1; }
    done
    run -0 --separate-stderr "$CG_BINDIR/cg-export" pprof -o "$T/p.pb.gz" "$T/t12.cg"
    [ "$stderr" = "$want" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-rows" functions "$T/t12.cg"
    [ "$stderr" = "$want" ]
}

@test "a real pyprof2calltree export: its summary: (the largest inclusive time) is not its costs' sum" {
    command -v pyprof2calltree > /dev/null || skip "Debian's pyprof2calltree is not installed"
    # cProfile on a clock that ticks once per reading (a microsecond
    # each), so that the recording is the same on every run
    python3 - "$T/rec.prof" "$TESTS_DIR/programs/interp.py" <<'PY'
import cProfile, itertools, runpy, sys
ticks = itertools.count()
prof = cProfile.Profile(lambda: next(ticks), 1e-6)
prof.enable()
runpy.run_path(sys.argv[2], run_name="__main__")
prof.disable()
prof.dump_stats(sys.argv[1])
PY
    pyprof2calltree -i "$T/rec.prof" -o "$T/rec.cg" > /dev/null
    grep -q '^summary: ' "$T/rec.cg"
    read -r line key ev written sum < <(figures "$T/rec.cg")
    [ "$key" = summary ] && [ "$written" -ne "$sum" ]
    run -0 --separate-stderr validate "$T/rec.cg"
    [ "$stderr" = "$T/rec.cg:$line: warning: summary: says $ev $written where the cost lines of part 1 add up to $sum (1 line)" ]
    run -5 --separate-stderr validate --strict-totals "$T/rec.cg"
    [ "$stderr" = "$T/rec.cg:$line: error: summary: says $ev $written where the cost lines of part 1 add up to $sum (1 line)" ]
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" "$T/rec.cg"
    [ "$stderr" = "$T/rec.cg:$line: warning: summary: says $ev $written where the cost lines of part 1 add up to $sum (1 line)" ]
}

@test "the shipped pyprof2calltree export (tests/corpus) warns with its figures" {
    f=$CORPUS/thirdparty/pyprof2calltree_tiny_rosalind.callgrind.out
    read -r line key ev written sum < <(figures "$f")
    [ "$line $key $ev $written $sum" = "3 summary ns 4343448000 4464630000" ]
    run -0 --separate-stderr validate "$f"
    [ "$stderr" = "$f:3: warning: summary: says ns 4343448000 where the cost lines of part 1 add up to 4464630000 (1 line)" ]
}

# bats test_tags=valgrind
@test "a Valgrind recording with the cache simulation: its summary: off by its own count, in cg-validate and cg-funcs" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    cc -g -O0 -o "$T/hanoi" "$TESTS_DIR/programs/hanoi.c"
    valgrind -q --tool=callgrind --cache-sim=yes --dump-instr=yes --compress-pos=no \
        --compress-strings=no --callgrind-out-file="$T/h.cg" "$T/hanoi" > /dev/null 2>&1
    # what figures() finds, if anything, is what every reading says
    want=
    if [ -n "$(figures "$T/h.cg" | grep ' summary ')" ]; then
        want="$(predicted "$T/h.cg" 1 summary warning) (1 line)"
    fi
    if [ -n "$(figures "$T/h.cg" | grep ' totals ')" ]; then
        want="${want:+$want$'\n'}$(predicted "$T/h.cg" 1 totals warning) (1 line)"
    fi
    run -0 --separate-stderr validate "$T/h.cg"
    [ "$stderr" = "$want" ] || { echo "$stderr / $want"; return 1; }
    run -0 --separate-stderr "$CG_BINDIR/cg-funcs" "$T/h.cg"
    [ "$stderr" = "$want" ] || { echo "cg-funcs: $stderr / $want"; return 1; }
    # a totals: made wrong by one in its last event is found
    awk '/^totals:/ { $NF = $NF + 1 } { print }' "$T/h.cg" > "$T/w.cg"
    want=$(predicted "$T/w.cg" 1 totals warning)
    [[ "$want" == *"says "* ]]
    run -0 --separate-stderr validate "$T/w.cg"
    [[ "$stderr" == *"$want (1 line)" ]] || { echo "$stderr"; return 1; }
}
