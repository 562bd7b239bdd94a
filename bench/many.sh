#!/bin/sh
# bench/many.sh - many profiles: cg-merge over 3,000 real-shaped inputs
# with -j1 and -j2, beside cg-validate over the same inputs, and the peak
# RSS of merging 300 of them against 3,000.
#
#   sh bench/many.sh [BINDIR]
#
# The inputs (bench/data/many/, made once) are the recordings of
# tests/stacks/record.sh (Valgrind: C programs, python3; Xdebug; Go) and
# the Xdebug, cProfile and other third-party files of tests/corpus, copied
# in turn to MANY_FILES files (default 3000), every third one
# gzip-compressed.  Each command runs MANY_RUNS times (default 3); the
# table gives the fastest wall time and its user time, and the
# instructions of one run of each (valgrind --tool=callgrind) over the
# first 300 inputs.  Needs valgrind and GNU time.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/build/bin}" && pwd)
data=$top/bench/data/many
n=${MANY_FILES:-3000}
runs=${MANY_RUNS:-3}
export LC_ALL=C

if [ ! -s "$data/list" ] || [ "$(wc -l < "$data/list")" -ne "$n" ]; then
    rm -rf "$data" && mkdir -p "$data/rec" "$data/in"
    sh "$top/tests/stacks/record.sh" "$data/rec" > "$data/sources" 2> /dev/null
    for f in "$top"/tests/corpus/thirdparty/*xdebug* \
             "$top"/tests/corpus/thirdparty/pyprof2calltree* \
             "$top"/tests/corpus/thirdparty/yappi*; do
        echo "$f" >> "$data/sources"
    done
    sh "$top/bench/copies.sh" "$data/sources" "$n" "$data/in" > "$data/list"
    head -300 "$data/list" > "$data/list300"
fi
bytes=$(xargs cat < "$data/list" | wc -c)
plain=$(for f in $(cat "$data/list"); do case $f in *.gz) gzip -dc "$f" ;; *) cat "$f" ;; esac; done | wc -c)
echo "inputs: $n files, $bytes bytes on disk, $plain bytes of text"

# best WALL USER RSS of MANY_RUNS runs of a command
best() {
    b=
    r=0
    while [ "$r" -lt "$runs" ]; do
        /usr/bin/time -f '%e %U %M' -o "$data/time" "$@" > /dev/null 2>&1 || true
        t=$(cat "$data/time")
        if [ -z "$b" ] || [ "$(echo "$t $b" | awk '{ print ($1 < $4) }')" = 1 ]; then
            b=$t
        fi
        r=$((r + 1))
    done
    echo "$b"
}

instr() {
    valgrind -q --tool=callgrind --callgrind-out-file="$data/instr.cg" "$@" > /dev/null 2>&1 || true
    awk '/^summary:|^totals:/ { print $2; exit }' "$data/instr.cg"
}

v=$(best "$bin/cg-validate" --compat --quiet --files-from "$data/list")
m1=$(best "$bin/cg-merge" --compat --quiet -j1 --files-from "$data/list" -o "$data/m1.cg")
m2=$(best "$bin/cg-merge" --compat --quiet -j2 --files-from "$data/list" -o "$data/m2.cg")
cmp "$data/m1.cg" "$data/m2.cg"
r300=$(best "$bin/cg-merge" --compat --quiet -j1 --files-from "$data/list300" -o "$data/m300.cg")
iv=$(instr "$bin/cg-validate" --compat --quiet --files-from "$data/list300")
im=$(instr "$bin/cg-merge" --compat --quiet --files-from "$data/list300" -o "$data/mi.cg")

echo "| command | wall s | user s | peak RSS KB | x cg-validate (wall) |"
echo "|---|---:|---:|---:|---:|"
for row in "cg-validate:$v" "cg-merge -j1:$m1" "cg-merge -j2:$m2" "cg-merge -j1, 300 inputs:$r300"; do
    name=${row%%:*}
    set -- ${row#*:}
    echo "| $name | $1 | $2 | $3 | $(echo "$1 ${v%% *}" | awk '{ printf "%.2f", $1 / $2 }') |"
done
echo
echo "-j2 speed-up: $(echo "${m1%% *} ${m2%% *}" | awk '{ printf "%.2f", $1 / $2 }')x"
echo "peak RSS, 3000 against 300 inputs: $(echo "$m1 $r300" | awk '{ printf "%.2fx (+%d KB)", $3 / $6, $3 - $6 }')"
echo "instructions over the first 300 inputs: cg-validate $iv, cg-merge $im ($(echo "$im $iv" | awk '{ printf "%.2f", $1 / $2 }')x)"
