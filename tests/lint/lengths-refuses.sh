#!/bin/sh
# lengths-refuses.sh - lengths.sh refuses a source of 1001 lines, in any
# of its folders (the public header too), and takes one of 1000 and a long
# file that is not a source (a profile).
#
#   lengths-refuses.sh LENGTHS_SH
set -u
lengths=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/lib/read" "$dir/cmd" "$dir/tests/cli" "$dir/bench"
seq 1000 > "$dir/lib/ok.c"
seq 1001 > "$dir/tests/cli/long.callgrind"
status=0
out=$(sh "$lengths" "$dir") || { echo "refused a tree within bounds: $out"; status=1; }
for long in lib/cgprof.h cmd/long.h tests/cli/long.bats bench/long.py lib/read/long.c; do
    seq 1001 > "$dir/$long"
    if out=$(sh "$lengths" "$dir"); then
        echo "took $long of 1001 lines: $out"
        status=1
    elif ! printf '%s\n' "$out" | grep -qx "$long: 1001 lines, over 1000: split it along its banners"; then
        echo "refused $long without naming it: $out"
        status=1
    fi
    rm "$dir/$long"
done
exit "$status"
