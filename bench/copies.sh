#!/bin/sh
# bench/copies.sh - many inputs from a few: the files named in SOURCES
# (one a line) copied in turn to N files in DIR, every third one
# gzip-compressed; prints their names, one a line.  bench/many.sh and
# bench/rows.sh make their inputs with it.
#
#   sh bench/copies.sh SOURCES N DIR
set -eu
k=$(wc -l < "$1")
i=0
while [ "$i" -lt "$2" ]; do
    src=$(sed -n "$((i % k + 1))p" "$1")
    if [ $((i % 3)) -eq 2 ]; then
        gzip -c "$src" > "$3/p$i.gz"
        echo "$3/p$i.gz"
    else
        cp "$src" "$3/p$i.cg"
        echo "$3/p$i.cg"
    fi
    i=$((i + 1))
done
