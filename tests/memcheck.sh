#!/bin/sh
# memcheck.sh BINDIR PATH... - every command over every file of PATHs
# (files or folders) under Valgrind memcheck: zero errors, zero leaks.
# An invalid input goes through the commands' error paths (cg-validate,
# cg-tsv, cg-funcs); a valid one through every command.  Two files at a
# time.  Prints one FAIL line per bad run, then "N passed, M failed".
if [ "${1:-}" = --one ]; then
    # --one BINDIR FILE: the runs of one file, a PASS or FAIL line each
    bindir=$2 f=$3
    log=$(mktemp "${TMPDIR:-/tmp}/cgmem.XXXXXX") || exit 2
    trap 'rm -f "$log"' EXIT
    check() { # check CMD ARGS... (the file comes last)
        valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full \
            --show-leak-kinds=all --errors-for-leak-kinds=all --log-file="$log" \
            "$@" "$f" > /dev/null 2>&1 < /dev/null
        if [ $? -eq 99 ] || [ -s "$log" ]; then
            echo "FAIL $* $f: $(head -c 300 "$log")"
        else
            echo "PASS"
        fi
    }
    check "$bindir/cg-validate" --no-limits
    check "$bindir/cg-tsv"
    check "$bindir/cg-funcs" --no-limits --compat
    "$bindir/cg-validate" --no-limits --compat "$f" > /dev/null 2>&1 || exit 0
    check "$bindir/cg-parts" --compat
    check "$bindir/cg-normalize" --no-limits --compat
    check "$bindir/cg-normalize" --no-limits -i --compat
    check "$bindir/cg-funcs" --no-limits --compat -c -p
    check "$bindir/cg-diff" --no-limits --compat "$f"
    check "$bindir/cg-dot" --no-limits --compat -n 0 -E 0
    check "$bindir/cg-fold" --no-limits --compat
    exit 0
fi
bindir=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp "${TMPDIR:-/tmp}/cgmem.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
for path in "$@"; do
    find "$path" -type f ! -name '*.txt' ! -name '*.tsv' ! -name '*.sh' ! -name '*.md' ! -name '*.svg'
done | sort | xargs -P 2 -n 1 sh "$here/memcheck.sh" --one "$bindir" > "$out"
grep '^FAIL' "$out"
passed=$(grep -c '^PASS' "$out")
failed=$(grep -c '^FAIL' "$out")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
