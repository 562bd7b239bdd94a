#!/bin/sh
# check.sh BINDIR CORPUSDIR - every profile in CORPUSDIR/verdicts.tsv gets its
# verdict and line from cg-validate under the default limits, and every one
# whose note says "valid with --no-limits" is valid with them lifted.
# Prints one FAIL line per mismatch, then "N passed, M failed".
bindir=$1 dir=$2
tab=$(printf '\t')
passed=0 failed=0
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
{
    IFS= read -r _ # the header row
    while IFS="$tab" read -r file verdict line note; do
        [ -n "$file" ] || continue
        path=$dir/$file
        err=$("$bindir/cg-validate" "$path" 2>&1 >/dev/null)
        rc=$?
        if [ "$verdict" = ok ]; then
            [ $rc -eq 0 ] || { fail "$file" "expected ok, got $rc: $err"; continue; }
        else
            [ $rc -eq 1 ] || { fail "$file" "expected exit 1, got $rc: $err"; continue; }
            case $err in
                "$path:$line: $verdict: "*) ;;
                *) fail "$file" "expected $verdict at $line, got: $err"; continue ;;
            esac
        fi
        case $note in
            *"valid with --no-limits"*)
                "$bindir/cg-validate" --no-limits "$path" ||
                    { fail "$file" "not valid with --no-limits"; continue; } ;;
        esac
        passed=$((passed + 1))
    done
} < "$dir/verdicts.tsv"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
