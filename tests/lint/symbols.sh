#!/bin/sh
# symbols.sh LIB HEADER - every symbol that the static library LIB defines
# for other objects is declared in HEADER (cgprof.h): the library's own
# internal functions carry the prefix cgi_ and, being undeclared there,
# must not start with cg_, so that they cannot be taken for the API; no
# other prefix may appear at all, so that a program linked with the
# library meets no name it did not ask for.
lib=$1 header=$2
if [ ! -f "$lib" ] || [ ! -f "$header" ]; then
    echo "usage: symbols.sh LIB HEADER" >&2
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
exit $status
