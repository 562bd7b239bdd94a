#!/bin/sh
# bench/speed.sh - the speed table of the commands on one core: wall time
# on a large input beside md5sum, peak RSS, and instructions per byte.
#
#   sh bench/speed.sh [BINDIR [BEFORE_BINDIR]]
#
# BINDIR defaults to build/bin; BEFORE_BINDIR (optional) holds the same
# commands built from an earlier commit, measured in the same run.
# The input is bench/data/cc1.cg, cc1 compiling lib/write/normalize.c -O0
# recorded with valgrind --tool=callgrind --dump-instr=yes (made once,
# about 4 MB), repeated as parts until it passes STREAM_MB MiB (default
# 1024): a valid profile with K copies of each record.  Before timing,
# every build's cg-validate -v must count K times the records and calls
# of one copy (counted with awk), and cg-funcs must give K times each
# function's figures of one copy.
#
# Wall time: SPEED_RUNS rounds (default 3); each round runs md5sum and
# every command of every build once, interleaved, so a change of the
# machine's load falls on all of them; the table gives the median.  Peak
# RSS (GNU time %M) is the largest of the rounds.  Instructions per byte
# come from valgrind --tool=callgrind on a slice of SLICE_MB MiB (default
# 16) made the same way from cc1.cg; they do not move with the load.
# "x md5sum" and "x cg-validate" are ratios of medians within one build;
# "target" is the bound of issue 51 and "met" says whether the ratio (and
# the RSS bound, where there is one) holds.  Needs valgrind, gcc and GNU
# time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/build/bin}" && pwd)
before=${2:+$(cd "$2" && pwd)}
data=$top/bench/data
mb=${STREAM_MB:-1024}
slice=${SLICE_MB:-16}
runs=${SPEED_RUNS:-3}
mkdir -p "$data"
export LC_ALL=C
size() { wc -c < "$1" | tr -d ' '; }
for tool in valgrind gcc /usr/bin/time md5sum; do
    command -v "$tool" > /dev/null 2>&1 || { echo "speed: $tool is needed" >&2; exit 2; }
done

one=$data/cc1.cg
if [ ! -s "$one" ]; then
    rm -rf "$data/rec" && mkdir -p "$data/rec"
    valgrind -q --tool=callgrind --dump-instr=yes --trace-children=yes \
        --callgrind-out-file="$data/rec/%p.cg" \
        gcc -O0 -I"$top/lib" -I"$top/lib/base" -I"$top/lib/read" -I"$top/lib/analyse" \
        -I"$top/lib/write" -I"$top/lib/import" -I"$bin/../include" -c "$top/lib/write/normalize.c" \
        -o "$data/rec/x.o" > /dev/null 2>&1
    # shellcheck disable=SC2012 # the largest recording is cc1
    mv "$(ls -S "$data"/rec/*.cg | head -1)" "$one"
    rm -rf "$data/rec"
fi
grow() { # grow MIB: the file of cc1.cg repeated past MIB MiB
    f=$data/big-${1}M.cg
    if [ ! -s "$f" ]; then
        : > "$f.tmp"
        while [ "$(size "$f.tmp")" -le $(($1 * 1024 * 1024)) ]; do
            cat "$one" >> "$f.tmp"
        done
        mv "$f.tmp" "$f"
    fi
    echo "$f"
}
big=$(grow "$mb")
small=$(grow "$slice")
k=$(($(size "$big") / $(size "$one")))
bytes=$(size "$big")

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgspeed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# the figures: K times one copy's, by awk, and the same from every build
want=$(awk -v k="$k" '/^[0-9+*-]/ { r++ } /^calls=/ { c++ }
    END { printf "%d parts, %d records (%d calls)", k, k * r, k * c }' "$one")
"$bin/cg-funcs" --no-limits "$one" | awk -F'\t' -v k="$k" 'BEGIN { OFS = FS }
    NR > 1 { $4 = sprintf("%.0f", $4 * k)
             for (i = 6; i <= NF; i++) $i = sprintf("%.0f", $i * k) } 1' > "$tmp/want"
for b in "$bin" ${before:+"$before"}; do
    got=$("$b/cg-validate" --no-limits -v "$big" | sed 's/^[^:]*: //; s/, [0-9]* events*$//')
    [ "$got" = "$want" ] || { echo "speed: $b/cg-validate: '$got', expected '$want'" >&2; exit 1; }
    # (printed with %.0f above: mawk writes large numbers as 7.2e+10)
    "$b/cg-funcs" --no-limits "$big" > "$tmp/got"
    cmp -s "$tmp/want" "$tmp/got" || { echo "speed: $b/cg-funcs of $k copies is not $k times one copy's" >&2; exit 1; }
done

# the commands of the table with their targets:
# NAME KIND BOUND [RSS_MB]; KIND md5 is x md5sum, val is x cg-validate
targets='cg-validate md5 1.0
cg-funcs val 1.5
cg-dot val 1.5
cg-fold val 2.5 128
cg-flame val 2.5 128
cg-annotate val 2.5
cg-normalize val 3
cg-tsv val 5'
names=$(echo "$targets" | cut -d' ' -f1)
builds="after${before:+ before}"
dir() { if [ "$1" = after ]; then echo "$bin"; else echo "$before"; fi; }

# one run: "seconds peakKB" appended to $tmp/BUILD.NAME
run() { # run KEY COMMAND...
    key=$1
    shift
    /usr/bin/time -o "$tmp/t" -f '%e %M' "$@" > /dev/null
    cat "$tmp/t" >> "$tmp/$key"
}
i=0
while [ "$i" -lt "$runs" ]; do
    run md5sum md5sum "$big"
    for c in $names; do
        for b in $builds; do
            run "$b.$c" "$(dir "$b")/$c" --no-limits "$big"
        done
    done
    i=$((i + 1))
done
median() { sort -n "$1" | awk '{ t[NR] = $1 } END { print t[int((NR + 1) / 2)] }'; }
peak() { sort -k2,2n "$1" | tail -1 | awk '{ printf "%.1f", $2 / 1024 }'; }

# instructions of one run of a command on the slice
instr() {
    valgrind -q --tool=callgrind --callgrind-out-file="$tmp/i.cg" "$@" > /dev/null 2>&1
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/i.cg" | head -1
}
sbytes=$(size "$small")
md5_s=$(median "$tmp/md5sum")
md5_i=$(instr md5sum "$small")

printf '%s: %d MB (%d copies of cc1.cg), %d rounds, medians; instructions on %s (%d MB)\n\n' \
    "$(basename "$big")" $((bytes / 1000000)) "$k" "$runs" "$(basename "$small")" $((sbytes / 1000000))
printf '| command | build | wall s | MB/s | x md5sum | x cg-validate | target | met | peak RSS MB | instr/byte |\n'
printf '|---|---|---:|---:|---:|---:|---|---|---:|---:|\n'
awk -v s="$md5_s" -v b="$bytes" -v i="$md5_i" -v sb="$sbytes" 'BEGIN {
    printf "| md5sum | | %.2f | %.0f | 1.00 | | | | | %.1f |\n", s, b / 1e6 / s, i / sb }'
echo "$targets" | while read -r c kind bound rss; do
    for b in $builds; do
        s=$(median "$tmp/$b.$c")
        v=$(median "$tmp/$b.cg-validate")
        m=$(peak "$tmp/$b.$c")
        ins=$(instr "$(dir "$b")/$c" --no-limits "$small")
        awk -v c="$c" -v b="$b" -v s="$s" -v v="$v" -v md5="$md5_s" -v by="$bytes" \
            -v kind="$kind" -v bound="$bound" -v rss="${rss:-}" -v m="$m" -v i="$ins" -v sb="$sbytes" 'BEGIN {
            r = kind == "md5" ? s / md5 : s / v
            t = sprintf("<= %sx %s", bound, kind == "md5" ? "md5sum" : "cg-validate")
            met = r <= bound + 0
            if (rss != "") { t = t sprintf(", RSS <= %s MB", rss); met = met && m <= rss + 0 }
            printf "| %s | %s | %.2f | %.0f | %.2f | %.2f | %s | %s | %s | %.1f |\n",
                c, b, s, by / 1e6 / s, s / md5, s / v, t, met ? "yes" : "no", m, i / sb }'
    done
done
