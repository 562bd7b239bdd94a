#!/bin/sh
# matrix.sh [--memcheck [--sample N]] BINDIR PATH... - every command over
# every file of PATHs (files or folders): no memory error, no leak, no
# undefined behaviour.
#
# BINDIR is a build with AddressSanitizer and UndefinedBehaviorSanitizer
# (CI's build-asan), whose reports are what a run is checked for; with
# --memcheck, a plain build run under Valgrind memcheck instead, over every
# Nth file with --sample N (memcheck repeats what the sanitizers check, at
# fifty times the cost: a sample keeps it for what they cannot see, such as
# reads of uninitialised memory).  An invalid input goes through the
# commands' error paths (cg-validate, cg-tsv, cg-funcs); a valid one
# through every command.  Two files at a time.  Prints one FAIL line per
# bad run, then "N passed, M failed".
if [ "${1:-}" = --one ]; then
    # --one MODE BINDIR FILE: the runs of one file, a PASS or FAIL line each
    mode=$2 bindir=$3 f=$4
    log=$(mktemp "${TMPDIR:-/tmp}/cgmatrix.XXXXXX") || exit 2
    trap 'rm -f "$log"' EXIT
    check() { # check CMD ARGS... (the file comes last)
        if [ "$mode" = memcheck ]; then
            valgrind -q --tool=memcheck --error-exitcode=99 --leak-check=full \
                --show-leak-kinds=all --errors-for-leak-kinds=all \
                --log-file="$log" "$@" "$f" > /dev/null 2>&1 < /dev/null
            rc=$?
        else
            ASAN_OPTIONS=exitcode=99:detect_leaks=1 LSAN_OPTIONS=exitcode=99 \
                UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
                "$@" "$f" > /dev/null 2> "$log" < /dev/null
            rc=$?
            grep -qE 'Sanitizer|runtime error' "$log" || : > "$log"
        fi
        if [ $rc -eq 99 ] || [ $rc -gt 128 ] || [ -s "$log" ]; then
            echo "FAIL $* $f: status $rc: $(head -c 300 "$log")"
        else
            echo "PASS"
        fi
    }
    check "$bindir/cg-validate" --no-limits
    check "$bindir/cg-tsv"
    check "$bindir/cg-funcs" --no-limits --compat
    check "$bindir/cg-merge" --compat
    "$bindir/cg-validate" --no-limits --compat "$f" > /dev/null 2>&1 || exit 0
    # a merge of the file with itself, on two threads
    check "$bindir/cg-merge" --compat -j2 "$f"
    check "$bindir/cg-parts" --compat
    check "$bindir/cg-normalize" --no-limits --compat
    check "$bindir/cg-normalize" --no-limits -i --compat
    check "$bindir/cg-funcs" --no-limits --compat -c -p
    check "$bindir/cg-diff" --no-limits --compat "$f"
    check "$bindir/cg-dot" --no-limits --compat -n 0 -E 0
    check "$bindir/cg-fold" --no-limits --compat
    check "$bindir/cg-flame" --no-limits --compat --minwidth 0
    check "$bindir/cg-flame" --no-limits --compat --diff "$f"
    check "$bindir/cg-annotate" --no-limits --compat --tree both --no-auto
    check "$bindir/cg-export" pprof --no-limits --compat
    check "$bindir/cg-export" speedscope --no-limits --compat
    check "$bindir/cg-rows" calls --no-limits --compat
    # the file's stacks twice, on two threads, in order
    check "$bindir/cg-rows" stacks --no-limits --compat -j2 "$f"
    exit 0
fi
mode=sanitizers sample=1
if [ "${1:-}" = --memcheck ]; then
    mode=memcheck
    shift
    if [ "${1:-}" = --sample ]; then
        sample=$2
        shift 2
    fi
fi
if [ $# -lt 2 ]; then
    echo "usage: matrix.sh [--memcheck [--sample N]] BINDIR PATH..." >&2
    exit 2
fi
bindir=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp "${TMPDIR:-/tmp}/cgmatrix.XXXXXX") || exit 2
trap 'rm -f "$out"' EXIT
for path in "$@"; do
    find "$path" -type f ! -name '*.txt' ! -name '*.tsv' ! -name '*.sh' ! -name '*.md' ! -name '*.svg'
done | sort | awk -v n="$sample" '(NR - 1) % n == 0' |
    xargs -P 2 -n 1 sh "$here/matrix.sh" --one "$mode" "$bindir" > "$out"
grep '^FAIL' "$out"
passed=$(grep -c '^PASS' "$out")
failed=$(grep -c '^FAIL' "$out")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
