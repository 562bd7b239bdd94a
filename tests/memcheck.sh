#!/bin/sh
# memcheck.sh BINDIR PATH... - every command over every file of PATHs
# (files or folders) under Valgrind memcheck: zero errors, zero leaks.
# Prints one FAIL line per bad run, then "N passed, M failed".
bindir=$1
shift
passed=0 failed=0
log=$(mktemp "${TMPDIR:-/tmp}/cgmem.XXXXXX") || exit 2
out=$(mktemp "${TMPDIR:-/tmp}/cgmem.XXXXXX") || exit 2
trap 'rm -f "$log" "$out"' EXIT
check() { # check FILE CMD ARGS...
    file=$1
    shift
    valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full \
        --show-leak-kinds=all --errors-for-leak-kinds=all --log-file="$log" \
        "$@" "$file" > "$out" 2>/dev/null < /dev/null
    rc=$?
    if [ $rc -eq 99 ] || [ -s "$log" ]; then
        echo "FAIL $* $file: $(head -c 300 "$log")"
        failed=$((failed + 1))
    else
        passed=$((passed + 1))
    fi
}
for path in "$@"; do
    find "$path" -type f ! -name '*.txt' ! -name '*.tsv' ! -name '*.sh' ! -name '*.md' | sort |
    while IFS= read -r f; do echo "$f"; done
done > "$out.list"
while IFS= read -r f; do
    check "$f" "$bindir/cg-validate" --no-limits
    check "$f" "$bindir/cg-tsv"
    check "$f" "$bindir/cg-parts"
    check "$f" "$bindir/cg-normalize"
    check "$f" "$bindir/cg-funcs" --no-limits
    check "$f" "$bindir/cg-funcs" --no-limits -c -p
    check "$f" "$bindir/cg-normalize" -i
    check "$f" "$bindir/cg-diff" --no-limits "$f"
    check "$f" "$bindir/cg-dot" --no-limits --compat -n 0 -E 0
    check "$f" "$bindir/cg-fold" --no-limits --compat
done < "$out.list"
rm -f "$out.list"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
