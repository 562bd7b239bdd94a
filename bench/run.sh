#!/bin/sh
# bench/run.sh - time the cgprof commands against the tools users run
# instead, on the same inputs, in one run; print a Markdown table.
#
#   sh bench/run.sh [BINDIR]        (BINDIR defaults to build/bin)
#
# Inputs (made once, kept in bench/data/, which git ignores), all recorded
# with valgrind --tool=callgrind --dump-instr=yes and grown, where needed,
# by appending whole recordings as further parts (names, call density and
# compressed positions stay Valgrind's):
#   ls-1M     ls -la /usr/share/doc, appended to itself up to 1 MiB
#   cc-8M     cc1 compiling lib/write/normalize.c -O0, then python3 recordings
#             appended up to 8 MiB
#   cc-16M    cc1 compiling lib/read/parse.c -O2, then python3 recordings
#             appended up to 16 MiB
#   big-300M  cc-16M repeated as parts up to 300 MB (BENCH_BIG=0 skips it)
#   patho     valid but hostile: 1,000 parts, 4 KiB names, an ID redefined
#             on every record (generated with awk)
#   longname  a 1 MiB name referenced through its ID 50,000 times, switching
#             with another function on every record (over the default
#             budget: measured with --no-limits, as every input here)
# Each command's median wall time comes from hyperfine (BENCH_RUNS runs,
# default 7; callgrind_annotate 3), its peak RSS from /usr/bin/time -f %M.
# BENCH_INPUTS="cc-16M patho" measures only those inputs.  cg-tsv is not run
# on longname: its rows would hold the 1 MiB name 50,000 times (52 GB).
# cg-funcs, cg-diff (of a file with itself), cg-dot and cg-fold are
# compared with callgrind_annotate --inclusive=yes, the others with plain
# callgrind_annotate.  BENCH_INSTR=1 adds a table of instructions per
# input byte (valgrind --tool=callgrind) on the largest input measured,
# which do not move with the machine's load.
# Needs valgrind, gcc, python3, hyperfine, GNU time (apt-get install -y
# valgrind hyperfine time).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/build/bin}" && pwd)
data=$top/bench/data
runs=${BENCH_RUNS:-7}
mkdir -p "$data"
export LC_ALL=C

for tool in valgrind gcc hyperfine /usr/bin/time callgrind_annotate; do
    command -v "$tool" >/dev/null 2>&1 || { echo "bench: $tool is needed" >&2; exit 2; }
done
python=$(command -v /usr/bin/python3 || command -v python3)

record() { # record OUT COMMAND... - the biggest profile of the process tree
    out=$1
    shift
    rm -rf "$data/rec" && mkdir -p "$data/rec"
    valgrind -q --tool=callgrind --dump-instr=yes --trace-children=yes \
        --callgrind-out-file="$data/rec/%p.cg" "$@" > /dev/null 2>&1
    # the largest recording is the program, not a wrapper shell
    # shellcheck disable=SC2012
    mv "$(ls -S "$data"/rec/*.cg | head -1)" "$out"
    rm -rf "$data/rec"
}

size() { wc -c < "$1" | tr -d ' '; }

grow() { # grow FILE PIECE MIB - append PIECE until FILE has MIB MiB
    while [ "$(size "$1")" -lt $(($3 * 1024 * 1024)) ]; do
        cat "$2" >> "$1"
    done
}

[ -s "$data/py.cg" ] ||
    record "$data/py.cg" "$python" -c 'import json; print(json.dumps([1]))'
if [ ! -s "$data/ls-1M.cg" ]; then
    record "$data/ls.cg" ls -la /usr/share/doc
    cp "$data/ls.cg" "$data/ls-1M.cg"
    grow "$data/ls-1M.cg" "$data/ls.cg" 1
    rm -f "$data/ls.cg"
fi
if [ ! -s "$data/cc-8M.cg" ]; then
    record "$data/cc-8M.cg" gcc -O0 -I"$top/lib" -I"$top/lib/base" -I"$top/lib/read" -I"$top/lib/analyse" -I"$top/lib/write" -I"$top/lib/import" -I"$bin/../include" -c "$top/lib/write/normalize.c" -o "$data/x.o"
    grow "$data/cc-8M.cg" "$data/py.cg" 8
fi
if [ ! -s "$data/cc-16M.cg" ]; then
    record "$data/cc-16M.cg" gcc -O2 -I"$top/lib" -I"$top/lib/base" -I"$top/lib/read" -I"$top/lib/analyse" -I"$top/lib/write" -I"$top/lib/import" -I"$bin/../include" -c "$top/lib/read/parse.c" -o "$data/x.o"
    grow "$data/cc-16M.cg" "$data/py.cg" 16
fi
if [ "${BENCH_BIG:-1}" = 1 ] && [ ! -s "$data/big-300M.cg" ]; then
    : > "$data/big-300M.cg"
    while [ "$(size "$data/big-300M.cg")" -lt 300000000 ]; do
        cat "$data/cc-16M.cg" >> "$data/big-300M.cg"
    done
fi
[ -s "$data/patho.cg" ] || awk 'BEGIN {
    name = ""; for (i = 0; i < 4096; i++) name = name "n"
    for (p = 1; p <= 1000; p++) {
        printf "part: %d\npositions: instr line\nevents: Ir Dr\n", p
        printf "ob=(1) /lib/%s\nfl=(1) /src/%s.c\n", name, name
        for (r = 0; r < 20; r++) {
            printf "fn=(1) f%d_%d_%s\n0x%x %d %d %d\n", p, r, substr(name, 1, 200), 4096 + r, r + 1, r * 7, r
            printf "cfn=(2) g%d\ncalls=%d +4 *\n+1 * %d\n", r, r + 1, r * 100
        }
        printf "totals: 1 1\n"
    }
}' > "$data/patho.cg"
[ -s "$data/longname.cg" ] || awk 'BEGIN {
    printf "events: A\nfn=(1) "
    for (i = 0; i < 1048576; i++) printf "n"
    printf "\nfn=(2) g\n"
    for (i = 0; i < 50000; i++) printf "fn=(1)\n1 1\nfn=(2)\n2 2\n"
}' > "$data/longname.cg"
rm -f "$data/x.o"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgbench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# median seconds of a command line, from hyperfine (output discarded)
median() { # median RUNS COMMAND
    hyperfine -N --style none -w 1 -r "$1" --export-csv "$tmp/h.csv" "$2" > /dev/null 2>&1 ||
        hyperfine --style none -w 1 -r "$1" --export-csv "$tmp/h.csv" "$2" > /dev/null 2>&1
    awk -F, 'NR == 2 { print $4 }' "$tmp/h.csv"
}

# peak resident set size in MB, median of 3 (of 1 for the slow annotate)
peak() { # peak COMMAND
    n=3
    case $1 in callgrind_annotate*) n=1 ;; esac
    for i in $(seq $n); do
        /usr/bin/time -f %M sh -c "$1" 2>&1 > /dev/null | tail -1
    done | sort -n | sed -n "$(( (n + 1) / 2 ))p" | awk '{ printf "%.1f", $1 / 1024 }'
}

# an awk program, expanded by awk
# shellcheck disable=SC2016
sum_awk='/^fn=/ { f = $0 } /^[0-9+*-]/ { s[f] += $NF } END { for (k in s) n++; print n }'

printf '| input | MB | command | median s | MB/s | peak RSS MB | x wc -l | x md5sum | vs callgrind_annotate |\n'
printf '|---|---:|---|---:|---:|---:|---:|---:|---:|\n'
for input in ${BENCH_INPUTS:-ls-1M cc-8M cc-16M big-300M patho longname}; do
    f=$data/$input.cg
    [ -s "$f" ] || continue
    mb=$(awk -v b="$(size "$f")" 'BEGIN { printf "%.1f", b / 1048576 }')
    r=$runs
    [ "$input" = big-300M ] && r=3
    wc_s=$(median "$r" "wc -l $f")
    md5_s=$(median "$r" "md5sum $f")
    ann_s='' anni_s=''
    if [ "$input" != big-300M ]; then
        ann_s=$(median 3 "callgrind_annotate $f")
        anni_s=$(median 3 "callgrind_annotate --inclusive=yes $f")
    fi
    for cmd in "wc -l $f" "md5sum $f" \
        "awk '$sum_awk' $f" \
        "callgrind_annotate $f" \
        "$bin/cg-validate --no-limits $f" \
        "$bin/cg-normalize --no-limits $f" \
        "$bin/cg-tsv --no-limits $f" \
        "$bin/cg-parts --no-limits $f" \
        "callgrind_annotate --inclusive=yes $f" \
        "$bin/cg-funcs --no-limits $f" \
        "$bin/cg-diff --no-limits $f $f" \
        "$bin/cg-dot --no-limits $f" \
        "$bin/cg-fold --no-limits $f"; do
        case $cmd in
            "wc -l"*) s=$wc_s ;;
            md5sum*) s=$md5_s ;;
            "callgrind_annotate --inclusive"*) [ -n "$anni_s" ] || continue; s=$anni_s ;;
            callgrind_annotate*) [ -n "$ann_s" ] || continue; s=$ann_s ;;
            # every row holds the 1 MiB name: 52 GB of output, by design
            *cg-tsv*) [ "$input" != longname ] || continue
                      s=$(median "$r" "$cmd") ;;
            *) s=$(median "$r" "$cmd") ;;
        esac
        rss=$(peak "$cmd")
        name=$(echo "$cmd" | sed -e "s|$bin/||" -e "s| $f||g" -e "s|'.*'|'sum per fn'|" -e 's| --no-limits||')
        # cg-funcs and the commands built on it against annotate's
        # per-function listing with inclusive costs
        base=$ann_s
        case $name in cg-funcs*|cg-diff*|cg-dot*|cg-fold*|*inclusive*) base=$anni_s ;; esac
        awk -v input="$input" -v mb="$mb" -v name="$name" -v s="$s" -v rss="$rss" \
            -v wc="$wc_s" -v md5="$md5_s" -v ann="$base" 'BEGIN {
            vs = ann == "" ? "-" : sprintf("%.0fx faster", ann / s)
            if (ann != "" && s >= ann) vs = sprintf("%.2fx", ann / s)
            printf "| %s | %s | %s | %.4f | %.0f | %s | %.1f | %.2f | %s |\n",
                input, mb, name, s, mb / s, rss, s / wc, s / md5, vs }'
    done
done

# Instructions per input byte, on the last (largest) input measured.
if [ "${BENCH_INSTR:-0}" = 1 ] && [ -n "${f:-}" ]; then
    printf '\n| input | command | instructions | per input byte | x md5sum |\n|---|---|---:|---:|---:|\n'
    bytes=$(size "$f")
    instr() {
        # shellcheck disable=SC2086 # the command's words, paths without blanks
        valgrind -q --tool=callgrind --callgrind-out-file="$tmp/i.cg" $1 > /dev/null 2>&1
        sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/i.cg" | head -1
    }
    md5_i=$(instr "md5sum $f")
    for cmd in "md5sum $f" "$bin/cg-validate --no-limits $f" "$bin/cg-normalize --no-limits $f" \
        "$bin/cg-tsv --no-limits $f" "$bin/cg-funcs --no-limits $f" "$bin/cg-diff --no-limits $f $f" \
        "$bin/cg-dot --no-limits $f" "$bin/cg-fold --no-limits $f"; do
        i=$(instr "$cmd")
        name=$(echo "$cmd" | sed -e "s|$bin/||" -e "s| $f||g" -e 's| --no-limits||')
        awk -v input="$(basename "$f" .cg)" -v name="$name" -v i="$i" -v b="$bytes" -v m="$md5_i" \
            'BEGIN { printf "| %s | %s | %d | %.1f | %.2f |\n", input, name, i, i / b, i / m }'
    done
fi
