#!/bin/sh
# The public header and cgprof(3) in step: every function cgprof.h
# declares has a .Nm entry in man/cgprof.3 (so that `man NAME` finds it
# once installed), and every .Nm cg_... names a declared function.
# Usage: man-header.sh SOURCE_DIR
set -eu
src=${1:?usage: man-header.sh SOURCE_DIR}
tmp=${TMPDIR:-/tmp}/man-header.$$
trap 'rm -f "$tmp".h "$tmp".m' EXIT

# A declaration starts a line with its return type (typedefs aside): the
# name is the cg_ word right before the first '('.
sed -n 's/^[A-Za-z_][A-Za-z0-9_ ]*[ *]\(cg_[a-z0-9_]*\)(.*/\1/p' \
    "$src/lib/cgprof.h" | grep -v '^typedef' | LC_ALL=C sort -u > "$tmp.h"
grep -q . "$tmp.h" || { echo "no function found in cgprof.h" >&2; exit 1; }
sed -n 's/^\.Nm \(cg_[a-z0-9_]*\).*/\1/p' "$src/man/cgprof.3" |
    LC_ALL=C sort > "$tmp.m"

status=0
missing=$(LC_ALL=C comm -23 "$tmp.h" "$tmp.m" | tr '\n' ' ')
extra=$(LC_ALL=C comm -13 "$tmp.h" "$tmp.m" | tr '\n' ' ')
twice=$(uniq -d "$tmp.m" | tr '\n' ' ')
if [ -n "$missing" ]; then
    echo "declared in cgprof.h, no .Nm in cgprof.3: $missing" >&2
    status=1
fi
if [ -n "$extra" ]; then
    echo ".Nm in cgprof.3, not declared in cgprof.h: $extra" >&2
    status=1
fi
if [ -n "$twice" ]; then
    echo ".Nm twice in cgprof.3: $twice" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "$(wc -l < "$tmp.h") functions, each with its .Nm"
exit "$status"
