#!/usr/bin/env bats
# cg-flame: the SVG is well-formed XML whose every frame's figures are the
# sums of cg-fold's stacks (tests/flame/check.py derives them from
# cg-fold's lines), whose totals are cg-funcs's, hostile names stay text,
# --diff colours the change of inclusive costs and shows what vanished,
# the README's picture is what the command makes now, and every error is
# an error.  The browser step is tests/flame/browser.py (ctest
# flame-browser, label slow).
load common

flame() { "$CG_BINDIR/cg-flame" "$@"; }
fold() { "$CG_BINDIR/cg-fold" "$@"; }
funcs() { "$CG_BINDIR/cg-funcs" -C "$@"; } # the functions alone, no cycle rows

setup() {
    T=$BATS_TEST_TMPDIR
    EX=$TESTS_DIR/../examples/hanoi.callgrind
    CHECK=$TESTS_DIR/flame/check.py
    command -v python3 >/dev/null || skip "python3 is not installed"
}

need_xmllint() { command -v xmllint >/dev/null || skip "xmllint (libxml2-utils) is not installed"; }

# The title of the frame named NAME (its first line), whole.
title_of() { # title_of SVG NAME
    python3 -c '
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g"):
    t = g.find(ns + "title")
    if t is not None and t.text.split("\n")[0] == sys.argv[2]:
        print(g.get("class") + "|" + t.text.replace("\n", "|") + "|" + g.find(ns + "rect").get("fill"))' "$1" "$2"
}

# jobs PROFILE [cg-flame/cg-fold options...]: write the SVGs of PROFILE
# (every frame, and by default) to $T/N.all.svg and $T/N.svg, N counting
# from 1, and append to $T/jobs the checks of them against cg-fold's
# stacks and (without -q, whose names cg-funcs has not) cg-funcs's self
# costs; check runs the jobs in one python3.
jobs() {
    local p=$1 n
    shift
    n=1
    [ ! -e "$T/jobs" ] || n=$(( $(wc -l < "$T/jobs") / 2 + 1 ))
    flame --minwidth 0 "$@" "$p" > "$T/$n.all.svg"
    flame "$@" "$p" > "$T/$n.svg"
    fold "$@" "$p" > "$T/$n.fold"
    case " $* " in
    *" -q "*) printf '%s\t%s\t--all\n' "$T/$n.all.svg" "$T/$n.fold" >> "$T/jobs" ;;
    *) funcs -H "$@" "$p" | cut -f1-6 > "$T/$n.funcs"
       printf '%s\t%s\t--all\t--funcs\t%s\n' "$T/$n.all.svg" "$T/$n.fold" "$T/$n.funcs" >> "$T/jobs" ;;
    esac
    printf '%s\t%s\n' "$T/$n.svg" "$T/$n.fold" >> "$T/jobs"
}
check() {
    python3 "$CHECK" --many < "$T/jobs"
    rm "$T/jobs"
}

# The y of the root's rect.
root_y() { grep -A1 'data-p=""><title>all' "$1" | sed -n 's/.*<rect x="10.00" y="\([0-9]*\)".*/\1/p'; }

@test "the example: every frame is cg-fold's sums, the root carries cg-funcs's total" {
    need_xmllint
    jobs "$EX"
    check
    xmllint --noout "$T/1.all.svg" "$T/1.svg"
    total=$(funcs -T -H "$EX" | cut -f2)
    [ "$(title_of "$T/1.svg" all)" = "f|all|Ir: $total (100.00%), self 0|rgb(215,215,215)" ]
    # the frames on the root (depth 1) add up to the total
    python3 - "$T/1.all.svg" "$total" <<'PY'
import re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
s = sum(int(re.search(r": (\d+) ", g.find(ns + "title").text).group(1))
        for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g")
        if g.get("data-p") == "0")
sys.exit(s != int(sys.argv[2]))
PY
    # by default some frames are too narrow: their cost is in a title
    grep -q 'not drawn: [0-9]* in [0-9]* frames\? narrower than 0.1 px' "$T/1.svg"
    [ "$(grep -c '<g class="f' "$T/1.svg")" -lt "$(grep -c '<g class="f' "$T/1.all.svg")" ]
}

@test "every corpus profile: well-formed, figures from cg-fold's stacks, -q and -e too" {
    need_xmllint
    jobs "$EX" -q file
    jobs "$EX" -q object
    n=0
    for f in "$CORPUS"/valgrind/*.callgrind "$CORPUS"/thirdparty/*; do
        case $f in *.tsv|*.txt) continue ;; esac
        validate --compat --no-limits "$f" 2>/dev/null || continue
        jobs "$f" --compat --no-limits 2>/dev/null
        n=$((n + 1))
    done
    [ "$n" -ge 20 ]
    printf 'events: A B\nfn=f\n1 3 4\ncfn=g\ncalls=1 1\n1 5 6\nfn=g\n1 5 6\n' > "$T/ab.cg"
    jobs "$T/ab.cg" -e B
    m=$((n + 3))
    [ "$(title_of "$T/$m.all.svg" g | cut -d'|' -f1-3)" = "f|g|B: 6 (60.00%), self 6" ]
    [ "$(title_of "$T/$m.all.svg" all)" = "f|all|B: 10 (100.00%), self 0|rgb(215,215,215)" ]
    [ "$(wc -l < "$T/jobs")" -eq $((2 * m)) ]
    xmllint --noout "$T"/*.svg
    check
}

@test "hostile names: valid XML, shown as text, never markup or script" {
    need_xmllint
    sh "$TESTS_DIR/flame/hostile.sh" "$T/h.cg"
    jobs "$T/h.cg"
    check
    cp "$T/1.all.svg" "$T/all.svg"
    xmllint --noout "$T/all.svg"
    # one script element: the document's; every name's < is escaped
    [ "$(grep -c '<script' "$T/all.svg")" -eq 1 ]
    grep -qF '&lt;/script&gt;&lt;script&gt;document.documentElement' "$T/all.svg"
    grep -qF '&lt;img src=x onerror=&quot;' "$T/all.svg"
    grep -qF ']]&gt;&lt;script&gt;' "$T/all.svg"
    grep -qF 'a &quot;quoted&quot; &#39;single&#39; &amp; &lt;b&gt;bold&lt;/b&gt; &amp;amp;' "$T/all.svg"
    # controls as control pictures, U+FFFE as U+FFFD, the rest as it was
    grep -q "ctl$(printf '\342\220\201\342\220\233\342\220\241')end" "$T/all.svg"
    grep -q "caf$(printf '\303\251 \360\237\224\245 \357\277\275 ')" "$T/all.svg"
    no_line "$(printf '\357\277\276')" "$T/all.svg"
    LC_ALL=C no_line "$(printf '[\001-\010\013\014\016-\037\177]')" "$T/all.svg"
    # names reach the script only as text
    no_line -e innerHTML -e outerHTML -e insertAdjacentHTML -e 'document.write' "$T/all.svg"
    # the title and the -q prefix are escaped too
    printf 'events: Ir\nob=/x/<o&b>\nfn=f\n1 1\n' > "$T/o.cg"
    flame -q object --title '<T&"'"'"'>' "$T/o.cg" > "$T/o.svg"
    xmllint --noout "$T/o.svg"
    grep -qF '<text id="title" x="600.0" y="24">&lt;T&amp;&quot;&#39;&gt;</text>' "$T/o.svg"
    grep -qF '<title>&lt;o&amp;b&gt;:f' "$T/o.svg"
}

# OLD: main calls slow and steady; gone is a root of its own.  NEW: slow
# takes 250 for 100, fresh appears, gone is gone.  (tests/cli/diff.bats's
# pair, names only.)
write_pair() {
    printf 'events: Ir\nfn=main\n1 10\ncfn=slow\ncalls=1 2\n2 100\ncfn=steady\ncalls=1 3\n3 50\nfn=slow\n4 100\nfn=steady\n5 50\nfn=gone\n6 5\n' > "$T/old.cg"
    printf 'events: Ir\nfn=main\n1 10\ncfn=slow\ncalls=1 2\n2 250\ncfn=steady\ncalls=1 3\n3 50\nfn=slow\n4 250\nfn=steady\n5 50\nfn=fresh\n6 7\n' > "$T/new.cg"
}

@test "--diff: the change of inclusive cost, on the callers too; what vanished is drawn" {
    need_xmllint
    write_pair
    run -0 --separate-stderr flame --diff "$T/old.cg" "$T/new.cg"
    [ -z "$stderr" ]
    printf '%s\n' "$output" > "$T/d.svg"
    xmllint --noout "$T/d.svg"
    # worked out by hand: main 160 -> 310, slow 100 -> 250 (the largest
    # change, 150, with the root's 152: 230 - round(200 * 150/152) = 33)
    [ "$(title_of "$T/d.svg" slow)" = "f|slow|Ir: old 100, new 250, change +150 (+150.00%)|self: old 100, new 250|rgb(255,33,33)" ]
    [ "$(title_of "$T/d.svg" main)" = "f|main|Ir: old 160, new 310, change +150 (+93.75%)|self: old 10, new 10|rgb(255,33,33)" ]
    [ "$(title_of "$T/d.svg" steady)" = "f|steady|Ir: old 50, new 50, change 0 (0.00%)|self: old 50, new 50|rgb(224,224,224)" ]
    [ "$(title_of "$T/d.svg" gone)" = "f gone|gone|Ir: old 5, new 0, change -5 (-100.00%), only in OLD|self: old 5, new 0|rgb(223,223,255)" ]
    [ "$(title_of "$T/d.svg" fresh)" = "f|fresh|Ir: old 0, new 7, change +7 (new), only in NEW|self: old 0, new 7|rgb(255,221,221)" ]
    [ "$(title_of "$T/d.svg" all)" = "f|all|Ir: old 165, new 317, change +152 (+92.12%)|self: old 0, new 0|rgb(255,30,30)" ]
    # and every frame against the two sides' stacks
    fold "$T/old.cg" > "$T/o.fold"
    fold "$T/new.cg" > "$T/n.fold"
    python3 "$CHECK" "$T/d.svg" "$T/n.fold" "$T/o.fold" --all
    # the other way round, the colours turn
    flame --diff "$T/new.cg" "$T/old.cg" > "$T/r.svg"
    [ "$(title_of "$T/r.svg" slow | cut -d'|' -f3,5)" = "Ir: old 250, new 100, change -150 (-60.00%)|rgb(33,33,255)" ]
    python3 "$CHECK" "$T/r.svg" "$T/o.fold" "$T/n.fold" --all
}

@test "--diff on the corpus and with -q: every frame against both sides' stacks" {
    a=$CORPUS/valgrind/v19-hanoi-combine-everybb.callgrind
    b=$EX
    # two recordings of other builds and libraries: functions match as
    # cg-diff matches them (object, file, name), the stacks by their frame
    # names; renaming what the frame name leaves out away makes the two
    # one (the matching's own tests are in diff-match.bats)
    for q in "" "-q file"; do
        if [ -z "$q" ]; then set -- --mod-ob 's/.*//' --mod-fl 's/.*//'
        else set -- --mod-ob 's/.*//'; fi
        # shellcheck disable=SC2086 # q is zero or two words
        flame $q --minwidth 0 --diff "$@" "$a" "$b" > "$T/d.svg"
        # shellcheck disable=SC2086
        fold $q "$a" > "$T/o.fold"
        # shellcheck disable=SC2086
        fold $q "$b" > "$T/n.fold"
        python3 "$CHECK" "$T/d.svg" "$T/n.fold" "$T/o.fold" --all
    done
    flame --diff --mod-ob 's/.*//' --mod-fl 's/.*//' "$a" "$b" > "$T/d.svg"
    fold "$a" > "$T/o.fold"
    fold "$b" > "$T/n.fold"
    python3 "$CHECK" "$T/d.svg" "$T/n.fold" "$T/o.fold"
    grep -q 'not drawn: ' "$T/d.svg"
}

@test "sizes, --inverted, --title: where the frames are" {
    flame --width 600 --title 'Mine' "$EX" > "$T/w.svg"
    grep -q '<svg version="1.1" xmlns="http://www.w3.org/2000/svg" width="600" ' "$T/w.svg"
    grep -q '<rect x="10.00" y="[0-9]*" width="580.00" height="15" fill="rgb(215,215,215)"' "$T/w.svg"
    grep -q '<text id="title" x="300.0" y="24">Mine</text>' "$T/w.svg"
    # the root at the bottom, or at the top under --inverted
    h=$(sed -n 's/^<svg .* height="\([0-9]*\)".*/\1/p' "$T/w.svg")
    [ "$(root_y "$T/w.svg")" -eq $((h - 34 - 16)) ]
    flame --inverted "$EX" > "$T/i.svg"
    [ "$(root_y "$T/i.svg")" -eq 60 ]
    # a larger --minwidth draws fewer frames, and says what it left out
    flame --minwidth 50 "$EX" > "$T/m.svg"
    fold "$EX" > "$T/folded"
    python3 "$CHECK" "$T/m.svg" "$T/folded"
    [ "$(grep -c '<g class="f' "$T/m.svg")" -lt 20 ]
}

@test "the same input, the same bytes; the README's picture is what the command makes now" {
    cd "$TESTS_DIR/.."
    flame examples/hanoi.callgrind > "$T/a.svg"
    flame examples/hanoi.callgrind > "$T/b.svg"
    cmp "$T/a.svg" "$T/b.svg"
    grep -qx 'cg-flame examples/hanoi.callgrind > examples/hanoi-flame.svg' README.md
    cmp examples/hanoi-flame.svg "$T/a.svg"
    # standard input reads the same
    flame < examples/hanoi.callgrind | cmp - "$T/a.svg"
}

@test "errors: invalid input writes nothing (exit 1); usage and output errors exit 2" {
    write_pair
    printf 'events: Ir\nfn=f\n1 x\n' > "$T/bad.cg"
    run -1 --separate-stderr flame "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
    run -1 --separate-stderr flame --diff "$T/old.cg" "$T/bad.cg"
    [ -z "$output" ]
    [[ "$stderr" == "$T/bad.cg:3: syntax: "* ]]
    run -1 --separate-stderr flame --diff "$T/bad.cg" "$T/new.cg"
    [ -z "$output" ]
    run -2 --separate-stderr flame --diff "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --diff: expected two profiles, OLD and NEW" ]
    run -2 --separate-stderr flame --width 50 "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --width 50: expected 100 to 100000 pixels" ]
    run -2 --separate-stderr flame --width x "$T/old.cg"
    [[ "${stderr_lines[0]}" == "cg-flame: --width x: expected a number of pixels"* ]]
    run -2 --separate-stderr flame --minwidth -1 "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --min-width -1: expected a number of pixels" ]
    run -2 --separate-stderr flame --minwidth 1e3 "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --min-width 1e3: expected a number of pixels" ]
    run -2 --separate-stderr flame -q nope "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: -q: expected file or object" ]
    run -2 --separate-stderr flame -e Ir,Dr "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: -e: one event" ]
    run -2 --separate-stderr flame --title "$(printf 'bad \377')" "$T/old.cg"
    [ "${stderr_lines[0]}" = "cg-flame: --title: not UTF-8" ]
    run -2 --separate-stderr flame -e Nope "$T/old.cg"
    [ "$stderr" = "cg-flame: -e: event 'Nope' is not an event of the input" ]
    [ -z "$output" ]
    printf 'events: Dr\nfn=f\n1 3\n' > "$T/dr.cg"
    run -2 --separate-stderr flame --diff "$T/dr.cg" "$T/new.cg"
    [ "$stderr" = "cg-flame: $T/dr.cg: -e: event 'Ir' is not in OLD" ]
    [ -z "$output" ]
    run -2 --separate-stderr flame -e Dr --diff "$T/dr.cg" "$T/new.cg"
    [ "$stderr" = "cg-flame: -e: event 'Dr' is not an event of the input" ]
    [ -z "$output" ]
    run -2 --separate-stderr flame "$T/none.cg"
    [ "$stderr" = "cg-flame: $T/none.cg: No such file or directory" ]
    run -2 --separate-stderr bash -c '"$0" "$1" > /dev/full' "$CG_BINDIR/cg-flame" "$T/old.cg"
    [[ "$stderr" == "cg-flame: write error: "* ]]
    run -0 flame --help
    [[ "${lines[0]}" == "usage: cg-flame "* ]]
}

@test "a profile without cost or without records: the root alone" {
    printf 'events: Ir\nfn=f\n1 0\n' > "$T/zero.cg"
    printf 'events: Ir\n' > "$T/empty.cg"
    for f in "$T/zero.cg" "$T/empty.cg"; do
        flame "$f" > "$T/z.svg"
        [ "$(title_of "$T/z.svg" all)" = "f|all|Ir: 0 (0.00%), self 0|rgb(215,215,215)" ]
        [ "$(grep -c '<g class="f' "$T/z.svg")" -eq 1 ]
    done
}

# bats test_tags=valgrind
@test "recorded: total() slowed and audit() removed, in red up to main, and audit drawn" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    mkdir -p "$T/v1" "$T/v2"
    cc -g -O0 -DAUDIT -o "$T/v1/shop" "$TESTS_DIR/programs/shop.c"
    cc -g -O0 -DSLOW_TOTAL -o "$T/v2/shop" "$TESTS_DIR/programs/shop.c"
    (cd "$T/v1" && valgrind -q --tool=callgrind --callgrind-out-file=../v1.cg ./shop > /dev/null)
    (cd "$T/v2" && valgrind -q --tool=callgrind --callgrind-out-file=../v2.cg ./shop > /dev/null)
    flame --minwidth 0 --diff "$T/v1.cg" "$T/v2.cg" > "$T/d.svg"
    fold "$T/v1.cg" > "$T/o.fold"
    fold "$T/v2.cg" > "$T/n.fold"
    python3 "$CHECK" "$T/d.svg" "$T/n.fold" "$T/o.fold" --all
    # total, main and what calls main are red; audit is there, dashed
    [[ "$(title_of "$T/d.svg" total)" == "f|total|Ir: old "*", change +"*"|rgb(255,"* ]]
    [[ "$(title_of "$T/d.svg" main)" == "f|main|Ir: old "*", change +"*"|rgb(255,"* ]]
    [[ "$(title_of "$T/d.svg" '(below main)')" == "f|(below main)|"*", change +"*"|rgb(255,"* ]]
    [[ "$(title_of "$T/d.svg" audit)" == "f gone|audit|Ir: old "*", new 0, change -"*", only in OLD|self: old "*", new 0|rgb("*",255)" ]]
    # total's change is its inclusive cost's, as cg-funcs counts it
    old=$(funcs -H -e Ir "$T/v1.cg" | awk -F '\t' '$3 == "total" { print $7 }')
    new=$(funcs -H -e Ir "$T/v2.cg" | awk -F '\t' '$3 == "total" { print $7 }')
    [[ "$(title_of "$T/d.svg" total)" == "f|total|Ir: old $old, new $new, change +$((new - old)) ("* ]]
}

# The <rect> of every frame, in order: the picture's geometry alone.
rects() { grep -o '<rect x="[^"]*" y="[^"]*" width="[^"]*"' "$1"; }

@test "--folded: cg-fold's stacks drawn again are the same picture, their counts exact" {
    fold "$EX" > "$T/ex.fold"
    flame --folded "$T/ex.fold" > "$T/f.svg"
    flame "$EX" > "$T/p.svg"
    python3 "$CHECK" "$T/f.svg" "$T/ex.fold"
    [ "$(rects "$T/f.svg")" = "$(rects "$T/p.svg")" ]
    [[ "$(title_of "$T/f.svg" main)" == "f|main|samples: "* ]]
    # standard input, and two files adding up
    flame --folded < "$T/ex.fold" | cmp - "$T/f.svg"
    flame --folded "$T/ex.fold" "$T/ex.fold" > "$T/two.svg"
    cat "$T/ex.fold" "$T/ex.fold" > "$T/twice.fold"
    python3 "$CHECK" "$T/two.svg" "$T/twice.fold"
    # what cg-fold escapes is read back: ';' and '%' in a name
    printf 'a%%3Bb;c%%25 3\nCRLF;x 2\r\n\n' > "$T/esc.fold"
    flame --folded --min-width 0 "$T/esc.fold" > "$T/esc.svg"
    [[ "$(title_of "$T/esc.svg" 'a;b')" == "f|a;b|samples: 3 "* ]]
    [[ "$(title_of "$T/esc.svg" 'c%')" == "f|c%|samples: 3 "* ]]
    [[ "$(title_of "$T/esc.svg" x)" == "f|x|samples: 2 "* ]]
}

@test "--folded --diff and pego's exact stacks" {
    fold "$EX" > "$T/new.fold"
    head -3 "$T/new.fold" > "$T/old.fold"
    flame --folded --min-width 0 --diff "$T/old.fold" "$T/new.fold" > "$T/d.svg"
    python3 "$CHECK" "$T/d.svg" "$T/new.fold" "$T/old.fold" --all
    "$CG_BINDIR/cg-import" pego --folded "$TESTS_DIR/import/pego/expr.trace.jsonl" > "$T/pego.fold"
    flame --folded --min-width 0 "$T/pego.fold" > "$T/pego.svg"
    python3 "$CHECK" "$T/pego.svg" "$T/pego.fold" --all
}

@test "--folded: a line of another form is an error at its line, nothing written" {
    for bad in 'a;b x' 'a;;b 3' ';a 3' 'a;b' ' 3' 'a;b -3' 'a;b 99999999999999999999' "$(printf 'a\377 3')"; do
        printf 'ok;fine 1\n%s\n' "$bad" > "$T/bad.fold"
        run -1 --separate-stderr flame --folded "$T/bad.fold"
        [[ "$stderr" == "$T/bad.fold:2: syntax: "* ]]
        [ -z "$output" ]
    done
    printf '\n\n' > "$T/blank.fold"
    run -1 --separate-stderr flame --folded "$T/blank.fold"
    [ "$stderr" = "$T/blank.fold:0: syntax: no stack: an empty input, or blank lines only" ]
    for opt in '-e Ir' '-q file' --no-cycles; do
        # shellcheck disable=SC2086 # an option and its argument
        run -2 --separate-stderr flame --folded $opt "$T/blank.fold"
        [ "${stderr_lines[0]}" = "cg-flame: --folded: -e, -q and --no-cycles are of profiles, not of folded stacks" ]
    done
    # a Callgrind profile is not folded stacks
    run -1 --separate-stderr flame --folded "$EX"
    [[ "$stderr" == "$EX:1: syntax: expected FRAME;FRAME;... COUNT"* ]]
    [ -z "$output" ]
}

@test "a frame whose change is 0 is grey; --minwidth is --min-width" {
    flame --min-width 0 --diff "$EX" "$EX" > "$T/same.svg"
    fills=$(grep -o 'fill="rgb([0-9,]*)" rx' "$T/same.svg" | sort -u)
    [ "$fills" = 'fill="rgb(224,224,224)" rx' ]
    flame --minwidth 3 "$EX" > "$T/a.svg"
    flame --min-width 3 "$EX" > "$T/b.svg"
    cmp "$T/a.svg" "$T/b.svg"
}

@test "--no-cycles draws cg-fold --no-cycles's stacks" {
    printf 'events: Ir\nfn=main\n1 1\ncfn=a\ncalls=1 1\n1 100\nfn=a\n1 40\ncfn=b\ncalls=1 1\n1 90\nfn=b\n1 60\ncfn=a\ncalls=1 1\n1 30\n' > "$T/cyc.cg"
    fold --no-cycles "$T/cyc.cg" > "$T/nc.fold"
    flame --no-cycles --min-width 0 "$T/cyc.cg" > "$T/nc.svg"
    python3 "$CHECK" "$T/nc.svg" "$T/nc.fold" --all
}

@test "parts: the same stacks in several parts add up, a function under many callers, --max-depth cuts across parts" {
    # by hand: part 1 main 1, main;a 2, main;a;b 8; part 2 main 3,
    # main;a 4, main;a;b 5; part 3 main 1, main;b 6; part 4 main;fI 1 and
    # main;fI;x 2 for I = 1..5 (x's self 10 split over its five callers)
    { printf 'events: Ir\npart: 1\nfn=main\n1 1\ncfn=a\ncalls=1 1\n1 10\nfn=a\n1 2\ncfn=b\ncalls=1 1\n1 8\nfn=b\n1 8\n'
      printf 'part: 2\nevents: Ir\nfn=main\n1 3\ncfn=a\ncalls=1 1\n1 9\nfn=a\n1 4\ncfn=b\ncalls=1 1\n1 5\nfn=b\n1 5\n'
      printf 'part: 3\nevents: Ir\nfn=main\n1 1\ncfn=b\ncalls=1 1\n1 6\nfn=b\n1 6\n'
      printf 'part: 4\nevents: Ir\nfn=main\n1 0\n'
      for i in 1 2 3 4 5; do printf 'cfn=f%s\ncalls=1 1\n1 3\n' $i; done
      for i in 1 2 3 4 5; do printf 'fn=f%s\n1 1\ncfn=x\ncalls=1 1\n1 2\n' $i; done
      printf 'fn=x\n1 10\n'; } > "$T/parts.cg"
    run -0 --separate-stderr fold "$T/parts.cg"
    want='main 5
main;a 6
main;a;b 13
main;b 6'
    for i in 1 2 3 4 5; do want="$want"$'\n'"main;f$i 1"$'\n'"main;f$i;x 2"; done
    [ "$output" = "$want" ]
    [ "$stderr" = "" ]
    # at depth 2: a holds b's 8 + 5 under it, each fI its x's 2
    run -0 --separate-stderr fold --max-depth 2 "$T/parts.cg"
    want='main 5
main;a 19
main;b 6'
    for i in 1 2 3 4 5; do want="$want"$'\n'"main;f$i 3"; done
    [ "$output" = "$want" ]
    [ "$stderr" = "cg-fold: warning: stacks deeper than --max-depth were cut, 23 of the cost under their last frame kept given to it" ]
}

@test "a profile that contradicts itself: drawn as it can be, and said" {
    # libc is called for 10 and calls main for 12
    printf 'events: Hits\nfn=start\n1 0\ncfn=libc\ncalls=1 1\n1 10\nfn=libc\n1 0\ncfn=main\ncalls=1 1\n1 12\nfn=main\n1 12\n' > "$T/torn.cg"
    run -0 --separate-stderr flame "$T/torn.cg"
    [ "$stderr" = "cg-flame: warning: the profile contradicts itself at 1 function (calls into a function that carry more than it holds, or a caller that hands out more than it was called for), by 2 (16.67% of the total); the stacks there are narrower than the figures; most at libc (2)" ]
    run -0 --separate-stderr fold "$T/torn.cg"
    [ "$output" = "$(printf 'main 2\nstart;libc;main 10')" ]
    [ "$stderr" = "cg-fold: warning: the profile contradicts itself at 1 function (calls into a function that carry more than it holds, or a caller that hands out more than it was called for), by 2 (16.67% of the total); the stacks there are narrower than the figures; most at libc (2)" ]
}

# bats test_tags=valgrind
@test "recorded: python3's Py_RunMain as wide as its inclusive share, threads under their own roots" {
    command -v valgrind >/dev/null || skip "valgrind is not installed"
    py=/usr/bin/python3
    [ -x "$py" ] || skip "no /usr/bin/python3"
    valgrind -q --tool=callgrind --callgrind-out-file="$T/py.cg" "$py" -S -c 'import json; json.loads(json.dumps(list(range(3000))))'
    flame --min-width 0 "$T/py.cg" > "$T/py.svg"
    incl=$(funcs -H "$T/py.cg" | awk -F '\t' '$3 == "Py_RunMain" { print $7 }')
    total=$(funcs -T -H "$T/py.cg" | cut -f2)
    # the widths of Py_RunMain's frames, in pixels, against its share of
    # the plot (1180 pixels): within a pixel of what cg-funcs says
    drawn=$(python3 -c '
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
w = sum(float(g.find(ns + "rect").get("width")) for g in ET.parse(sys.argv[1]).getroot().iter(ns + "g")
        if g.find(ns + "title") is not None and g.find(ns + "title").text.split("\n")[0] == "Py_RunMain")
print(round(w))' "$T/py.svg")
    want=$(awk -v i="$incl" -v t="$total" 'BEGIN { printf "%d", 1180 * i / t + 0.5 }')
    [ "$drawn" -ge $((want - 1)) ] && [ "$drawn" -le $((want + 1)) ]
}
