#!/bin/sh
# symbols.sh LIB HEADER [MAX] - every symbol that the static library LIB
# defines for other objects is declared in HEADER (cgprof.h): the
# library's own internal functions carry the prefix cgi_ and, being
# undeclared there, must not start with cg_, so that they cannot be taken
# for the API; no other prefix may appear at all, so that a program linked
# with the library meets no name it did not ask for.  And HEADER declares
# at most MAX functions (90): the library's face stays small, what only
# the commands need going to the internal cgprof_internal.h.
lib=$1 header=$2 max=${3:-90}
if [ ! -f "$lib" ] || [ ! -f "$header" ]; then
    echo "usage: symbols.sh LIB HEADER [MAX]" >&2
    exit 2
fi
command -v nm >/dev/null 2>&1 || { echo "symbols.sh: nm not found" >&2; exit 1; }
defined=$(nm -g --defined-only -P "$lib" 2>/dev/null |
    awk '$2 ~ /^[TDBRCGSV]$/ { print $1 }' | sort -u)
[ -n "$defined" ] || { echo "symbols.sh: $lib defines no symbol" >&2; exit 1; }
status=0
for s in $defined; do
    case $s in
    cgi_*) ;;
    cg_*)
        grep -q "\\<$s\\>" "$header" ||
            { echo "$s: starts with cg_ but is not declared in cgprof.h"; status=1; } ;;
    *) echo "$s: neither the API's cg_ nor the internal cgi_"; status=1 ;;
    esac
done
# A declaration starts a line with its return type (static inline ones
# too), its name the word right before the first '(' (as man-header.sh
# reads them); a function pointer typedef, "(*name)(", is no match.
count=$(sed -n 's/^[A-Za-z_][A-Za-z0-9_ ]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$header" |
    sort -u | wc -l)
if [ "$count" -gt "$max" ]; then
    echo "cgprof.h declares $count functions, more than $max"
    status=1
fi
exit $status
