#!/bin/sh
# oom.sh BINDIR PRELOAD PROFILE - cg-annotate out of memory: with each of
# its realloc calls failed in turn (PRELOAD, fail_realloc.c), up to the
# first run that reaches none and prints the whole report, a run prints
# nothing on standard output, one line "cg-annotate: out of memory" (or
# "cg-annotate: FILE: out of memory", reading it) on standard error and
# exits 4.
# Skipped (77) where the preload cannot work (the sanitizers' builds).
set -u
bin=$1 preload=$2 profile=$3
tmp=${TMPDIR:-/tmp}/oom.$$
trap 'rm -f "$tmp".want "$tmp".out "$tmp".err' EXIT
status=0
spoiled=0
for opts in "--auto=yes" "--tree=both --auto=no"; do
    # shellcheck disable=SC2086
    "$bin/cg-annotate" $opts "$profile" >"$tmp.want" 2>/dev/null || {
        echo "cg-annotate $opts failed without a failure"
        exit 1
    }
    # shellcheck disable=SC2086
    FAIL_AT=-1 LD_PRELOAD=$preload "$bin/cg-annotate" $opts "$profile" \
        >"$tmp.out" 2>/dev/null && cmp -s "$tmp.out" "$tmp.want" || exit 77
    # each realloc in turn, up to the first run that reaches none
    n=0
    while [ "$n" -lt 5000 ]; do
        # shellcheck disable=SC2086
        FAIL_AT=$n LD_PRELOAD=$preload "$bin/cg-annotate" $opts "$profile" \
            >"$tmp.out" 2>"$tmp.err"
        rc=$?
        if [ "$rc" -eq 0 ] && cmp -s "$tmp.out" "$tmp.want"; then
            if [ "$n" -eq 0 ]; then
                # cg-annotate reallocates: the preload failed nothing, as
                # under a sanitizer's allocator
                echo "the preload fails no realloc here: skipped"
                exit 77
            fi
            break
        elif [ "$rc" -eq 4 ] && [ ! -s "$tmp.out" ] &&
            [ "$(wc -l <"$tmp.err")" -eq 1 ] &&
            grep -Eqx 'cg-annotate: (.*: )?out of memory' "$tmp.err"; then
            spoiled=$((spoiled + 1))
        else
            echo "$opts, realloc $n failed: status $rc," \
                "$(wc -c <"$tmp.out") bytes out: $(cat "$tmp.err")"
            status=1
        fi
        n=$((n + 1))
    done
done
if [ "$spoiled" -eq 0 ]; then
    echo "no run ran out of memory"
    status=1
fi
exit "$status"
