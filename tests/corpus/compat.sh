#!/bin/sh
# compat.sh BINDIR CORPUSDIR - every profile of CORPUSDIR/compat.tsv under
# --compat: the verdict, the warnings (LINE:KIND:COUNT, in order; the
# figures that disagree with the costs last, summary-off and totals-off), and for
# an accepted one: its cg-normalize --compat output is valid without
# --compat and holds the same records as cg-tsv --compat reads.
# Prints one FAIL line per mismatch, then "N passed, M failed".
bindir=$1 dir=$2
tab=$(printf '\t')
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgcompat.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
# NAME:LINE: warning: TEXT (N lines) -> LINE:KIND:N
kinds() {
    sed -n 's/^.*:\([0-9][0-9]*\): warning: \(.*\) (\([0-9][0-9]*\) lines*)$/\1 \2 \3/p' |
    while read -r line text; do
        count=${text##* }
        case $text in
            "dotted version"*) kind=version ;;
            "calls="*) kind=calls ;;
            "summary: says"*) kind=summary-off ;;
            "totals: says"*) kind=totals-off ;;
            "summary:"*) kind=summary ;;
            "==== NEW"*) kind=append ;;
            "negative"*) kind=negative ;;
            *) kind=unknown ;;
        esac
        printf '%s:%s:%s\n' "$line" "$kind" "$count"
    done | tr '\n' ' ' | sed 's/ $//'
}
{
    IFS= read -r _ # the header row
    while IFS="$tab" read -r file verdict line warnings; do
        [ -n "$file" ] || continue
        path=$dir/$file
        "$bindir/cg-validate" --compat "$path" > /dev/null 2> "$tmp/err"
        rc=$?
        got=$(grep ': warning: ' "$tmp/err" | kinds)
        [ "$got" = "${warnings#-}" ] ||
            { fail "$file" "warnings '$got', expected '$warnings'"; continue; }
        if [ "$verdict" != ok ]; then
            if ! grep -q "^$path:$line: $verdict: " "$tmp/err" || [ $rc -ne 1 ]; then
                fail "$file" "expected $verdict at $line: $(cat "$tmp/err")"
                continue
            fi
            passed=$((passed + 1))
            continue
        fi
        [ $rc -eq 0 ] || { fail "$file" "refused: $(cat "$tmp/err")"; continue; }
        if ! "$bindir/cg-normalize" --compat "$path" > "$tmp/n.cg" 2>/dev/null ||
            ! "$bindir/cg-validate" -q "$tmp/n.cg"; then
            fail "$file" "normalized output not valid without --compat"
            continue
        fi
        "$bindir/cg-tsv" --compat "$path" 2>/dev/null > "$tmp/a"
        "$bindir/cg-tsv" "$tmp/n.cg" > "$tmp/b"
        cmp -s "$tmp/a" "$tmp/b" ||
            { fail "$file" "records differ from the normalized output's"; continue; }
        passed=$((passed + 1))
    done
} < "$dir/compat.tsv"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
