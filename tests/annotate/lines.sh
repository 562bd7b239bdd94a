#!/bin/sh
# lines.sh BINDIR PROFILE - the self cost of every source line of the
# first event, as cg-annotate prints it, against callgrind_annotate
# --auto=yes.  The sources are stand-ins made here: for each file name of
# the profile, a file whose line N reads "LN", long enough for every line
# the profile names; both commands run where they lie, and find an
# absolute name under -I (lines of a file that exists at its absolute
# name on this machine are not "LN": neither side's are compared).  Prints
# one line per (file, line) whose figures differ, or that only one side
# prints, then "compared N lines"; exit status 1 on any difference or
# when nothing was compared.
bindir=$(cd "$1" && pwd) profile=$2
case $profile in /*) ;; *) profile=$(pwd)/$profile ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/cglines.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$bindir/cg-tsv" --no-limits "$profile" > "$dir/rows" || exit 2
# the greatest line of each relative file, from the rows' fi and line
awk -F '\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["fi"] ~ /^\.?\// && $col["line"] + 0 > max[$col["fi"]] { max[$col["fi"]] = $col["line"] + 0 }
    END { for (f in max) print max[f] "\t" f }' "$dir/rows" > "$dir/files"
mkdir "$dir/src"
cd "$dir/src" || exit 2
while IFS="$(printf '\t')" read -r n f; do
    f=${f#/}
    mkdir -p "$(dirname "$f")" || exit 2
    # names like ./elf/../include/x.h may meet in one file: keep the longest
    have=0
    [ -f "$f" ] && have=$(wc -l < "$f")
    [ "$have" -ge "$n" ] || seq -f 'L%g' 1 "$n" > "$f"
done < "$dir/files"
callgrind_annotate --auto=yes --threshold=100 --context=0 \
    --include="$dir/src" "$profile" \
    > "$dir/annotate.txt" 2> /dev/null || exit 2
"$bindir/cg-annotate" --no-limits -t 0 --context 0 -w 0 -I "$dir/src" "$profile" \
    > "$dir/mine.txt" || exit 2
# FILE<TAB>LINE<TAB>SELF for every line with a figure
awk '/^-- Auto-annotated source: / { file = substr($0, 27); sub(/^.* \+ /, "", file); next }
     file != "" && /^ *[0-9][0-9,]*( \( *[0-9.]+%\))? +L[0-9]+$/ {
         v = $1; gsub(/,/, "", v); n = $NF; sub(/^L/, "", n)
         print file "\t" n "\t" v }' "$dir/annotate.txt" | sort > "$dir/a"
awk '/^-- Source: / { file = substr($0, 12); sub(/ \(read from .*$/, "", file); next }
     file != "" && /^ *[0-9][0-9,]* +[0-9]+  L[0-9]+$/ {
         v = $1; gsub(/,/, "", v); print file "\t" $2 "\t" v }' \
    "$dir/mine.txt" | sort > "$dir/b"
n=$(wc -l < "$dir/b")
status=0
if ! cmp -s "$dir/a" "$dir/b"; then
    diff "$dir/a" "$dir/b"
    status=1
fi
echo "compared $n lines"
[ "$n" -gt 0 ] || status=1
exit $status
