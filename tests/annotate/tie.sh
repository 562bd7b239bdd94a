#!/bin/sh
# tie.sh BINDIR PROFILE FILE [OPTION...] - every figure that cg-annotate
# prints for the source file FILE (its name in the profile) against the
# rows of cg-tsv, summed here with awk: a line's self cost is the sum of
# the first event over the cost rows of (FILE, line); a call printed
# under a line carries the sums of the call rows of (FILE, line, callee,
# caller): their cost and their calls (the caller is printed, and
# compared, on a line that holds the calls of several functions; a callee
# of FILE and of the caller's object is printed by its name alone).  Both ways: every line and call of the rows
# must be printed too.  cg-annotate runs with -t 0 --context 0 -w 0 and
# the OPTIONs (-I DIR to find the file).  Prints one line per difference,
# then "tied N lines, M calls"; exit status 1 on a difference or when
# nothing was tied.
bindir=$(cd "$1" && pwd) profile=$2 file=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/cgtie.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
"$bindir/cg-tsv" --no-limits "$profile" > "$dir/rows" || exit 2
"$bindir/cg-annotate" --no-limits -t 0 --context 0 -w 0 "$@" "$profile" \
    > "$dir/out" || exit 2
awk -F '\t' -v file="$file" '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
          ev = col["calls"] + 1; while ($ev ~ /^target_/) ev++; next }
$col["fi"] != file { next }
$col["kind"] == "cost" { self[$col["line"]] += $ev; next }
{
    l = $col["line"]; n++
    cline[n] = l; caller[n] = $col["fn"]; c[n] = $ev; k[n] = $col["calls"]
    # a callee of this file and of the same object goes by its name
    if ($col["cfl"] == file && $col["cob"] == $col["ob"]) callee[n] = $col["cfn"]
    else callee[n] = $col["cfl"] ":" $col["cfn"] ($col["cob"] == "" ? "" : " [" $col["cob"] "]")
    if (!((l, $col["fn"]) in byline)) { byline[l, $col["fn"]] = 1; callers[l]++ }
}
END {
    for (l in self) print "self\t" l "\t" self[l]
    for (i = 1; i <= n; i++) {
        key = cline[i] SUBSEP callee[i] SUBSEP (callers[cline[i]] > 1 ? caller[i] : "*")
        cost[key] += c[i]; calls[key] += k[i]
    }
    for (key in cost) { split(key, p, SUBSEP); print "call\t" p[1] "\t" p[2] "\t" p[3] "\t" cost[key] "\t" calls[key] }
}' "$dir/rows" | sort > "$dir/want"
awk -v file="$file" '
function figure(s) { gsub(/,/, "", s); return s == "." ? 0 : s + 0 }
/^-- Source: / { name = substr($0, 12); sub(/ \(read from .*$/, "", name)
                 on = name == file; next }
!on { next }
/^$/ { on = 0; next }
/^ *([0-9][0-9,]*|\.) +[0-9]+  / { line = $2; print "self\t" line "\t" figure($1); next }
/^ *[0-9][0-9,]* +=> / {
    v = figure($1); s = $0; sub(/^ *[0-9][0-9,]* +=> /, "", s)
    sub(/ \[(recursive|cycle [0-9]+)\]$/, "", s)
    from = "*"
    if (match(s, / from [^ ]*$/)) { from = substr(s, RSTART + 6); s = substr(s, 1, RSTART - 1) }
    n = s; sub(/^.* \(/, "", n); sub(/x\)$/, "", n)
    sub(/ \([0-9]+x\)$/, "", s)
    print "call\t" line "\t" s "\t" from "\t" v "\t" n
}' "$dir/out" | sort > "$dir/got"
# a line printed as context or with cost only in calls shows 0 (.)
grep -v '	0$' "$dir/got" | grep '^self' > "$dir/got.self"
grep '^self' "$dir/want" | grep -v '	0$' > "$dir/want.self"
status=0
for kind in self call; do
    grep "^$kind" "$dir/want" | grep -v '^self.*	0$' > "$dir/w"
    grep "^$kind" "$dir/got" | grep -v '^self.*	0$' > "$dir/g"
    diff "$dir/w" "$dir/g" || status=1
done
nl=$(grep -c '^self' "$dir/got.self")
nc=$(grep -c '^call' "$dir/got")
echo "tied $nl lines, $nc calls"
[ "$nl" -gt 0 ] || status=1
exit $status
