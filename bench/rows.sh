#!/bin/sh
# bench/rows.sh - cg-rows' rate in rows a second against the rate at which
# the engines load the same rows: SQLite (sqlite3 .import into the
# shipped tables, indexes included), DuckDB (COPY ... FROM, through
# @duckdb/node-api) and ClickHouse's engine in process (chDB: INSERT INTO
# ... SELECT FROM file(), the CSVWithNames reader of clickhouse-client's
# INSERT ... FORMAT CSVWithNames).  One run of each.
#
#   sh bench/rows.sh [BINDIR [BUILDDIR]]
#
# The inputs (bench/data/rows/, made once) are the profiles of
# tests/corpus and examples/ (Valgrind recordings; Xdebug; cProfile,
# yappi; Go pprof; and the other producers' files there) copied in turn to
# ROWS_FILES files (default 1000), every third gzip-compressed, read with
# --compat.  The npm packages are those the engines tests install into
# BUILDDIR (npm-duckdb, npm-clickhouse: ctest -L engines); an engine whose
# package is not there is left out, as is sqlite3 when not installed.
# Needs GNU time; valgrind for the instruction counts.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$top/build/bin}" && pwd)
build=$(cd "${2:-$bin/..}" && pwd)
data=$top/bench/data/rows
n=${ROWS_FILES:-1000}
export LC_ALL=C

if [ ! -s "$data/list" ] || [ "$(wc -l < "$data/list")" -ne "$n" ]; then
    rm -rf "$data" && mkdir -p "$data/in"
    for f in "$top"/tests/corpus/valgrind/*.callgrind "$top"/examples/*.callgrind \
             "$top"/tests/corpus/thirdparty/*; do
        case $f in *SOURCES.tsv) ;; *) echo "$f" ;; esac
    done > "$data/sources"
    sh "$top/bench/copies.sh" "$data/sources" "$n" "$data/in" > "$data/list"
fi
echo "inputs: $n files in turn from $(wc -l < "$data/sources") sources:"
sed "s|^$top/||" "$data/sources" | tr '\n' ' '
echo
echo

# seconds a command takes (GNU time's wall clock), its output to OUT
wall() {
    out=$1
    shift
    /usr/bin/time -f %e -o "$data/time" "$@" > "$out" 2> /dev/null || true
    cat "$data/time"
}

rate() { # ROWS SECONDS
    echo "$1 $2" | awk '{ if ($2 > 0) printf "%.0f", $1 / $2; else print "-" }'
}

node_load() { # ENGINE TABLE CSV: the load's seconds, or - without it
    mods=$build/npm-$1/node_modules
    if [ ! -d "$mods" ] || ! command -v node > /dev/null; then
        echo -
        return
    fi
    rm -rf "$data/db-$1"
    printf '{"db": "%s", "ddl": "%s", "loads": [["%s", "%s"]], "queries": [], "from_file": true}' \
        "$data/db-$1" "$top/sql/$1.sql" "$2" "$3" |
        NODE_PATH=$mods node "$top/tests/engines/engine.mjs" "$1" > "$data/load.json" 2> /dev/null ||
        { echo -; return; }
    sed 's/.*"load_ms":\[\([0-9]*\)\].*/\1/' "$data/load.json" | awk '{ printf "%.3f", $1 / 1000 }'
}

sqlite_load() { # TABLE CSV
    if ! command -v sqlite3 > /dev/null; then
        echo -
        return
    fi
    rm -f "$data/prof.db"
    sqlite3 "$data/prof.db" < "$top/sql/sqlite.sql"
    wall /dev/null sqlite3 "$data/prof.db" ".import --csv --skip 1 $2 $1"
}

v=$(wall /dev/null "$bin/cg-validate" --compat -q --files-from "$data/list")
echo "cg-validate over the inputs: $v s"
echo
echo "| table | rows | CSV MB | cg-rows -j1 s | rows/s | cg-rows -j2 s | rows/s | sqlite3 .import rows/s | DuckDB COPY rows/s | chDB INSERT rows/s |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for t in functions calls stacks; do
    csv=$data/$t.csv
    j1=$(wall "$csv" "$bin/cg-rows" "$t" --compat -q -j1 --files-from "$data/list")
    j2=$(wall "$data/two.csv" "$bin/cg-rows" "$t" --compat -q -j2 --files-from "$data/list")
    cmp "$csv" "$data/two.csv"
    rows=$(($(wc -l < "$csv") - 1))
    mb=$(wc -c < "$csv" | awk '{ printf "%.1f", $1 / 1e6 }')
    sq=$(sqlite_load "$t" "$csv")
    dd=$(node_load duckdb "$t" "$csv")
    ch=$(node_load clickhouse "$t" "$csv")
    echo "| $t | $rows | $mb | $j1 | $(rate "$rows" "$j1") | $j2 | $(rate "$rows" "$j2") | $(rate "$rows" "$sq") | $(rate "$rows" "$dd") | $(rate "$rows" "$ch") |"
done
rm -rf "$data/db-duckdb" "$data/db-clickhouse" "$data/prof.db" "$data/two.csv"

# Instructions (valgrind --tool=callgrind) over the first 300 inputs: a
# figure the machine's load does not move.
if command -v valgrind > /dev/null; then
    head -300 "$data/list" > "$data/list300"
    echo
    echo "| over 300 inputs | instructions | x cg-validate |"
    echo "|---|---:|---:|"
    instr() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" --compat -q \
            --files-from "$data/list300" 2>&1 > /dev/null |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    base=$(instr "$bin/cg-validate")
    echo "| cg-validate | $base | 1.00 |"
    for t in functions calls stacks; do
        n=$(instr "$bin/cg-rows" "$t")
        echo "| cg-rows $t | $n | $(echo "$n $base" | awk '{ printf "%.2f", $1 / $2 }') |"
    done
fi
