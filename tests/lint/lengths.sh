#!/bin/sh
# lengths.sh SRCDIR - no source file under lib/ cmd/ tests/ bench/ is over
# 1000 lines: past that a file holds several things, and is split along
# its banners into files that each say what they hold.  The files are
# those git tracks or would (not ignored), or every one found outside a
# git checkout; sources are code (C, Python, shell, bats, the producers'
# programs the tests run, CMake), not the profiles and expected outputs
# beside them.
#
#   lengths.sh SRCDIR
set -u
src=$1
max=1000

if [ ! -d "$src/lib" ]; then
    echo "usage: lengths.sh SRCDIR" >&2
    exit 2
fi
if git -C "$src" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(cd "$src" && git ls-files --cached --others --exclude-standard \
        lib cmd tests bench)
else
    files=$(cd "$src" && find lib cmd tests bench -type f | sort)
fi
status=0
checked=0
for f in $(printf '%s\n' "$files" |
    grep -E '\.(c|h|py|sh|bash|bats|awk|go|php|mjs|sml|cmake)$|(^|/)CMakeLists\.txt$'); do
    [ -f "$src/$f" ] || continue
    checked=$((checked + 1))
    n=$(wc -l < "$src/$f")
    if [ "$n" -gt "$max" ]; then
        echo "$f: $n lines, over $max: split it along its banners"
        status=1
    fi
done
if [ "$checked" -eq 0 ]; then
    echo "lengths.sh: no source files under $src" >&2
    exit 1
fi
echo "$checked files"
exit "$status"
