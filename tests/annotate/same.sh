#!/bin/sh
# same.sh BINDIR PROFILE - callgrind_annotate prints the same per-function
# totals (self and inclusive) for PROFILE and for its cg-normalize'd form.
# Lines that name the file or quote an input line in a warning are left
# out, and trailing blanks (which the profile does not retain) are ignored.
bindir=$1 profile=$2
dir=$(mktemp -d "${TMPDIR:-/tmp}/cgsame.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$bindir/cg-normalize" --no-limits "$profile" > "$dir/n.cg" || exit 2
listing() {
    callgrind_annotate --auto=no --threshold=100 --inclusive="$2" "$1" 2>&1 |
        sed -e "/^Profile data file /d" -e "/^    line: '/d" \
            -e 's/^WARNING: line [0-9]*/WARNING: line N/' \
            -e 's/[[:blank:]]*$//'
}
status=0
for incl in no yes; do
    listing "$profile" $incl > "$dir/a"
    listing "$dir/n.cg" $incl > "$dir/b"
    diff "$dir/a" "$dir/b" || status=1
done
exit $status
