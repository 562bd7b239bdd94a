#!/bin/sh
# bench/stream.sh - every command on a large input: wall time and peak
# RSS of one run each beside md5sum and wc -l, before and after, and
# instructions per byte on one recording.
#
#   sh bench/stream.sh [BINDIR [BEFORE_BINDIR]]
#
# BINDIR defaults to build/bin; BEFORE_BINDIR (optional) holds the same
# commands built from an earlier commit, measured beside them.  The input
# is bench/data/cc1.cg, cc1 compiling lib/write/normalize.c -O0 recorded with
# valgrind --tool=callgrind --dump-instr=yes (made once, about 4 MB),
# repeated as parts until it passes STREAM_MB MiB (default 1024): still a
# valid profile, with STREAM_MB/4 times each record.  The script checks
# that cg-validate -v counts K times the records and calls of one copy
# (counted with awk: cost lines and calls= lines) and that every binary
# prints the same line, and that cg-funcs gives K times each function's
# figures of one copy.  The times are wall and user seconds, "x
# cg-validate" against the same build's cg-validate.  Needs valgrind, gcc
# and GNU time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/build/bin}" && pwd)
before=${2:+$(cd "$2" && pwd)}
data=$top/bench/data
mb=${STREAM_MB:-1024}
mkdir -p "$data"
export LC_ALL=C
size() { wc -c < "$1" | tr -d ' '; }

one=$data/cc1.cg
if [ ! -s "$one" ]; then
    rm -rf "$data/rec" && mkdir -p "$data/rec"
    valgrind -q --tool=callgrind --dump-instr=yes --trace-children=yes \
        --callgrind-out-file="$data/rec/%p.cg" \
        gcc -O0 -I"$top/lib" -I"$top/lib/base" -I"$top/lib/read" -I"$top/lib/analyse" -I"$top/lib/write" -I"$top/lib/import" -I"$bin/../include" -c "$top/lib/write/normalize.c" \
        -o "$data/rec/x.o" > /dev/null 2>&1
    # shellcheck disable=SC2012 # the largest recording is cc1
    mv "$(ls -S "$data"/rec/*.cg | head -1)" "$one"
    rm -rf "$data/rec"
fi
big=$data/big-${mb}M.cg
if [ ! -s "$big" ]; then
    : > "$big"
    while [ "$(size "$big")" -le $((mb * 1024 * 1024)) ]; do
        cat "$one" >> "$big"
    done
fi
k=$(($(size "$big") / $(size "$one")))

# the figures: K times one copy's, by awk, and the same from every binary
want=$(awk -v k="$k" '/^[0-9+*-]/ { r++ } /^calls=/ { c++ }
    END { printf "%d parts, %d records (%d calls)", k, k * r, k * c }' "$one")
for b in "$bin" ${before:+"$before"}; do
    got=$("$b/cg-validate" --no-limits -v "$big" | sed 's/^[^:]*: //; s/, [0-9]* events*$//')
    [ "$got" = "$want" ] || { echo "stream: $b/cg-validate: '$got', expected '$want'" >&2; exit 1; }
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgstream.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# cg-funcs: K times each function's called count and costs of one copy
# (printed with %.0f: mawk writes large numbers as 7.2e+10, and doubles
# are exact to 2^53)
"$bin/cg-funcs" --no-limits "$one" | awk -F'\t' -v k="$k" 'BEGIN { OFS = FS }
    NR > 1 { $4 = sprintf("%.0f", $4 * k)
             for (i = 6; i <= NF; i++) $i = sprintf("%.0f", $i * k) } 1' > "$tmp/want"
"$bin/cg-funcs" --no-limits "$big" > "$tmp/got"
cmp -s "$tmp/want" "$tmp/got" || { echo "stream: cg-funcs of $k copies is not $k times one copy's" >&2; exit 1; }

run() { # run COMMAND: "seconds peakMB user" of one run, output discarded
    /usr/bin/time -o "$tmp/t" -f '%e %M %U' sh -c "$1 > /dev/null"
    awk '{ printf "%.2f %.1f %.2f", $1, $2 / 1024, $3 }' "$tmp/t"
}

bytes=$(size "$big")
printf '| %s (%d MB, %d copies of cc1.cg) | wall s | user s | MB/s | peak RSS MB | x md5sum | x cg-validate |\n' \
    "$(basename "$big")" $((bytes / 1000000)) "$k"
printf '|---|---:|---:|---:|---:|---:|---:|\n'
md5=$(run "md5sum $big" | cut -d' ' -f1)
# each command of the list, the build before (when given) first
commands() {
    for c in "$@"; do
        [ -z "$before" ] || echo "$before/$c --no-limits"
        echo "$bin/$c --no-limits"
    done
}
# cg-diff compares one copy with the big input
cmds=$(commands cg-validate cg-parts cg-funcs "cg-diff $one" cg-dot cg-fold \
    cg-flame cg-annotate cg-tsv cg-normalize)
IFS='
'
# shellcheck disable=SC2086 # one command a line
set -- "md5sum" "wc -l" $cmds
unset IFS
val= valb=
for cmd in "$@"; do
    if [ "$cmd" = md5sum ]; then r=$(run "md5sum $big")
    else r=$(run "$cmd $big"); fi
    [ "$cmd" != "$bin/cg-validate --no-limits" ] || val=$(echo "$r" | cut -d' ' -f1)
    [ "$cmd" != "$before/cg-validate --no-limits" ] || valb=$(echo "$r" | cut -d' ' -f1)
    ref=$val
    case $cmd in "$before"/*) [ -z "$before" ] || ref=$valb ;; esac
    name=$(echo "$cmd" | sed -e "s|^$bin/||" -e 's| --no-limits||' -e "s|$one|cc1.cg|")
    [ -z "$before" ] || name=$(echo "$name" | sed "s|^$before/\(.*\)|\1 (before)|")
    echo "$r" | awk -v n="$name" -v b="$bytes" -v m="$md5" -v v="${ref:-0}" '{
        printf "| %s | %.2f | %.2f | %.0f | %.1f | %.2f | %s |\n", n, $1, $3,
            b / 1e6 / $1, $2, $1 / m, (v > 0 ? sprintf("%.2f", $1 / v) : "") }'
done

printf '\n| cc1.cg (%d bytes) | instructions | per byte | x md5sum | x cg-validate |\n|---|---:|---:|---:|---:|\n' "$(size "$one")"
instr() {
    # shellcheck disable=SC2086 # the command's words, paths without blanks
    valgrind -q --tool=callgrind --callgrind-out-file="$tmp/i.cg" $1 > /dev/null 2>&1
    sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/i.cg" | head -1
}
m=$(instr "md5sum $one")
v=$(instr "$bin/cg-validate --no-limits $one")
IFS='
'
# shellcheck disable=SC2086 # one command a line
set -- "md5sum" $(commands cg-validate cg-parts cg-funcs cg-tsv cg-normalize)
unset IFS
for cmd in "$@"; do
    if [ "$cmd" = md5sum ]; then i=$m; else i=$(instr "$cmd $one"); fi
    name=$(echo "$cmd" | sed -e "s|^$bin/||" -e 's| --no-limits||')
    [ -z "$before" ] || name=$(echo "$name" | sed "s|^$before/\(.*\)|\1 (before)|")
    awk -v n="$name" -v i="$i" -v b="$(size "$one")" -v m="$m" -v v="$v" \
        'BEGIN { printf "| %s | %d | %.1f | %.2f | %.2f |\n", n, i, i / b, i / m, i / v }'
done
