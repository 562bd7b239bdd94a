#!/bin/sh
# compare.sh BINDIR PROFILE ANNOTATE-SELF ANNOTATE-INCL
# Per-function totals of the first event, from cg-tsv rows, against
# callgrind_annotate's listing.  A function is "FILE:FN" as annotate keys
# it, FILE being the file of the line's cost (fi); annotate's " [OB]" is
# dropped, as it prints it only for some functions.  Prints one line
# per function whose figures differ:
#   self|incl<TAB>FUNCTION<TAB>cgprof<TAB>annotate<TAB>REASON
# and nothing when every function agrees.  REASON names the rule of
# callgrind_annotate that makes the difference, when one does:
#   calls=0      annotate adds a calls=0 call's cost to the caller's self cost
#   callee-sum   annotate's inclusive cost of a called function is the sum of
#                the calls into it (so recursion counts twice, and lines of
#                the function under another fi= file are left out), where
#                cgprof's is its own lines plus its own calls
#   unexplained  none of these: a bug on one side
bindir=$1 profile=$2 self=$3 incl=$4
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d "${TMPDIR:-/tmp}/cgcmp.XXXXXX") || exit 2
trap 'rm -rf "$dir"' EXIT
rows=$dir/rows
# figures, not verdicts, are compared here: lift the limits
"$bindir/cg-tsv" --no-limits "$profile" > "$rows" || exit 2
cat > "$dir/prog.awk" <<'AWK'
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; ev = col["calls"] + 1
          while ($ev != "" && $(ev) ~ /^target_/) ev++; next }
{
    key = $col["fi"] ":" $col["fn"]
    c = $ev + 0
    seen[key] = 1
    incl[key] += c
    if ($col["kind"] == "cost") { self[key] += c; next }
    if ($col["calls"] == 0) { zero[key] += c; next }
    callee = $col["cfl"] ":" $col["cfn"]
    into[callee] += c
    called[callee] = 1
}
END {
    read_listing(selff, aself); read_listing(inclf, aincl)
    for (k in aself) seen[k] = 1
    for (k in aincl) seen[k] = 1
    for (k in seen) {
        if (self[k] + 0 != aself[k] + 0) {
            why = self[k] + zero[k] == aself[k] + 0 ? "calls=0" : "unexplained"
            printf "self\t%s\t%.0f\t%.0f\t%s\n", k, self[k], aself[k], why
        }
        if (incl[k] + 0 != aincl[k] + 0) {
            why = (k in called) && into[k] == aincl[k] + 0 ? "callee-sum" : "unexplained"
            printf "incl\t%s\t%.0f\t%.0f\t%s\n", k, incl[k], aincl[k], why
        }
    }
}
AWK
awk -F '\t' -v selff="$self" -v inclf="$incl" -f "$here/listing.awk" -f "$dir/prog.awk" "$rows" | sort
