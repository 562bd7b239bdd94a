#!/bin/sh
# The cost of --compat on a profile that needs no repair: instructions
# (callgrind, exact) of each command on the shipped example with and
# without it, and the ratio; exit 1 when one passes 1.05 (--compat
# repairs in the one parse of an input, never in a second).
# Usage: sh bench/compat.sh [BINDIR]   (default build/bin; needs valgrind)
set -eu
bin=${1:-build/bin}
ex=$(dirname "$0")/../examples/hanoi.callgrind

count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
        2>&1 >/dev/null | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

status=0
printf '| command | instructions | with --compat | ratio |\n|---|---|---|---|\n'
for c in cg-validate cg-funcs cg-normalize cg-tsv cg-parts cg-dot cg-fold; do
    plain=$(count "$bin/$c" "$ex")
    compat=$(count "$bin/$c" --compat "$ex")
    ratio=$(awk -v a="$compat" -v b="$plain" 'BEGIN { printf "%.3f", a / b }')
    printf '| %s | %s | %s | %s |\n' "$c" "$plain" "$compat" "$ratio"
    if awk -v r="$ratio" 'BEGIN { exit !(r > 1.05) }'; then
        status=1
    fi
done
exit "$status"
