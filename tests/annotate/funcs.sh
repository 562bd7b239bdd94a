#!/bin/sh
# funcs.sh BINDIR PROFILE ANNOTATE-SELF
# cg-funcs against the per-function self totals of callgrind_annotate and
# against the profile's own cost records.  Checks, and prints one line per
# failure (nothing when all hold; the exit status is 1 then):
#  - the sum of the self column of cg-funcs, per event, equals the sum of
#    the cost rows of cg-tsv (every record counted once);
#  - the self cost of the first event of every function equals annotate's,
#    where annotate keys it the same way: all of the function's cost lines
#    are in its own file (no fi=/fe= elsewhere; annotate keys self cost by
#    the line's file) and it makes no calls=0 call (annotate adds their
#    cost to the caller's self).  Functions of one file:name in several
#    objects are summed, as annotate's key has no object.
# The last line says how many functions were compared.  CG_COMPAT=1 reads
# the profile with --compat (a jump recording, say).
bindir=$1 profile=$2 self=$3
compat=${CG_COMPAT:+--compat}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/cgfuncs.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
# shellcheck disable=SC2086 # $compat is one option or none
"$bindir/cg-tsv" --no-limits $compat "$profile" > "$dir/rows" 2>/dev/null || exit 2
# shellcheck disable=SC2086
"$bindir/cg-funcs" -C --no-limits $compat "$profile" > "$dir/funcs" 2>/dev/null || exit 2
cat > "$dir/prog.awk" <<'AWK'
NR == 1 {
    for (i = 1; i <= NF; i++) col[$i] = i
    first = col["calls"] + 1
    while ($first ~ /^target_/) first++
    for (i = first; i <= NF; i++) evname[i] = $i
    next
}
{
    key = $col["fl"] ":" $col["fn"]
    if ($col["kind"] == "cost") {
        for (i = first; i <= NF; i++) rowsum[evname[i]] += $i
        if ($col["fi"] != $col["fl"]) mixed[key] = 1
    } else if ($col["calls"] == 0)
        zero[key] = 1
}
END {
    read_listing(listing, annotate)
    bad = 0
    while ((getline line < funcs) > 0) {
        n = split(line, f, "\t")
        if (++fl == 1) {
            for (i = 1; i <= n; i++) fcol[f[i]] = i
            ev1 = fcol["cycle"] + 1
            for (i = ev1; i <= n && f[i] !~ /:incl$/; i++) fev[i] = f[i]
            continue
        }
        key = f[fcol["fl"]] ":" f[fcol["fn"]]
        own[key] += f[ev1]
        for (i in fev) funcsum[fev[i]] += f[i]
    }
    for (e in rowsum)
        if (funcsum[e] != rowsum[e]) {
            printf "total\t%s\tcg-funcs %.0f\tcost rows %.0f\n", e, funcsum[e], rowsum[e]
            bad = 1
        }
    for (e in funcsum)
        if (!(e in rowsum)) { printf "total\t%s\tnot in the rows\n", e; bad = 1 }
    n = 0
    for (k in own) {
        if ((k in mixed) || (k in zero)) continue
        n++
        if (own[k] != annotate[k] + 0) {
            printf "self\t%s\tcg-funcs %.0f\tannotate %.0f\n", k, own[k], annotate[k]
            bad = 1
        }
    }
    printf "compared %d functions\n", n
    exit bad
}
AWK
awk -F '\t' -v listing="$self" -v funcs="$dir/funcs" -f "$here/listing.awk" -f "$dir/prog.awk" "$dir/rows"
