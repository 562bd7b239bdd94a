#!/bin/sh
# bench/identical.sh - every command of two builds on every test input:
# stdout, stderr and exit status must be the same byte for byte.
#
#   sh bench/identical.sh BEFORE_BINDIR AFTER_BINDIR
#
# The inputs are the profiles of tests/corpus, tests/conformance/cases
# (and the cases its gen/ scripts write), and, when present,
# /work/shared/corpus and /work/shared/conformance (IDENTICAL_SHARED=DIR
# names another directory holding corpus/ and conformance/; "" leaves
# them out; IDENTICAL_DIRS="DIR..." runs those directories' profiles
# instead of all these, without the gen/ cases).  Files that are not profiles (.tsv .txt .sh .c .cpp .md .py:
# expected outputs, scripts and sources) are counted and
# named by extension, never dropped unseen; a file whose bytes were seen
# already is counted as a duplicate and run once.  Each input goes
# through each command line below, once plain and once with --compat;
# cg-import runs on tests/import.  Both builds run from the same
# directory with their directory first on PATH, so argv[0] is the bare
# command name in both.  Prints each difference (command, which stream,
# the first lines of a diff), then the number of comparisons; exits 1 if
# any differed, 2 on a usage error.
set -eu
[ $# -eq 2 ] || { echo "usage: sh bench/identical.sh BEFORE_BINDIR AFTER_BINDIR" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
before=$(cd "$1" && pwd)
after=$(cd "$2" && pwd)
shared=${IDENTICAL_SHARED-/work/shared}
export LC_ALL=C
for c in cg-validate cg-tsv cg-funcs cg-fold cg-flame cg-dot cg-annotate cg-normalize \
    cg-parts cg-export cg-rows cg-merge cg-diff cg-import; do
    for b in "$before" "$after"; do
        [ -x "$b/$c" ] || { echo "identical: $b/$c: missing" >&2; exit 2; }
    done
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgident.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'rm -rf "$tmp"; exit 130' INT TERM

# every command line: words after the command name; FILE is the input
lines='cg-validate -v FILE
cg-validate --strict-totals FILE
cg-tsv FILE
cg-tsv -k call FILE
cg-funcs FILE
cg-funcs -c FILE
cg-funcs -p -T FILE
cg-fold FILE
cg-fold -q file FILE
cg-flame FILE
cg-flame --folded FILE
cg-dot FILE
cg-annotate FILE
cg-annotate --inclusive --tree both FILE
cg-normalize FILE
cg-parts FILE
cg-export pprof --no-gzip FILE
cg-export pprof FILE
cg-export speedscope FILE
cg-rows functions FILE
cg-rows calls FILE
cg-rows stacks FILE
cg-merge FILE
cg-diff FILE FILE'

n=0 bad=0
# same LABEL COMMAND ARGS...: run both builds, compare the three streams
same() {
    label=$1
    shift
    for side in before after; do
        eval "dir=\$$side"
        set +e
        PATH=$dir:$PATH "$@" > "$tmp/$side.out" 2> "$tmp/$side.err" < /dev/null
        echo $? > "$tmp/$side.rc"
        set -e
    done
    n=$((n + 1))
    for s in out err rc; do
        cmp -s "$tmp/before.$s" "$tmp/after.$s" && continue
        bad=$((bad + 1))
        echo "DIFFERS ($s): $label: $*"
        diff "$tmp/before.$s" "$tmp/after.$s" 2>&1 | head -8 | sed 's/^/    /'
        break
    done
}

# the inputs: profiles by extension, others counted by extension
list=$tmp/inputs
: > "$list"
skipped=$tmp/skipped
: > "$skipped"
add() { # add DIR: the profiles under DIR
    find "$1" -type f | sort | while read -r f; do
        case $f in
            *.tsv | *.txt | *.sh | *.c | *.cpp | *.md | *.py)
                echo "${f##*.}" >> "$skipped" ;;
            *) echo "$f" >> "$list" ;;
        esac
    done
}
gen() { # gen DIR: the cases DIR/gen/*.sh write, as files in $tmp/gen
    mkdir -p "$tmp/gen"
    for g in "$1"/gen/*.sh; do
        [ -f "$g" ] || continue
        o=$tmp/gen/$(basename "$g" .sh).cg
        [ -s "$o" ] && continue
        sh "$g" > "$o"
        echo "$o" >> "$list"
    done
}
sources=
dirs=${IDENTICAL_DIRS-"$top/tests/corpus $top/tests/conformance/cases${shared:+ $shared/corpus $shared/conformance/cases}"}
for d in $dirs; do
    if [ -d "$d" ]; then add "$d"; sources="$sources $d"
    else echo "identical: skipped (absent): $d"; fi
done
[ -n "${IDENTICAL_DIRS+set}" ] ||
    for d in "$top/tests/conformance" ${shared:+"$shared/conformance"}; do
        [ -d "$d/gen" ] && gen "$d"
    done
# one copy of each content
uniq=$tmp/uniq
while read -r f; do
    printf '%s %s\n' "$(cksum < "$f" | tr ' ' _)" "$f"
done < "$list" | sort -k1,1 -s | awk '!seen[$1]++ { print $2 }' > "$uniq"
total=$(wc -l < "$list" | tr -d ' ')
ninputs=$(wc -l < "$uniq" | tr -d ' ')
echo "identical: inputs from:$sources${IDENTICAL_DIRS+ (IDENTICAL_DIRS: no gen/ cases)}"
echo "identical: $ninputs profiles ($((total - ninputs)) duplicates by content run once)"
case $(cat "$uniq") in *' '*) echo "identical: an input path holds a blank" >&2; exit 2 ;; esac
[ ! -s "$skipped" ] || echo "identical: not profiles, not run: $(sort "$skipped" | uniq -c |
    awk '{ printf "%s%d .%s", (NR > 1 ? ", " : ""), $1, $2 }')"

while read -r f; do
    echo "$lines" | while read -r line; do
        # shellcheck disable=SC2086 # the words of the command line
        set -- $line
        cmd=$1
        shift
        args=
        for w in "$@"; do
            [ "$w" = FILE ] && w=$f
            args="$args $w"
        done
        for compat in "" --compat; do
            # shellcheck disable=SC2086 # paths without blanks (checked below)
            same "$(basename "$f")" $cmd $compat $args
        done
        echo "$n $bad" > "$tmp/count"
    done
    read -r n bad < "$tmp/count"
done < "$uniq"

# several inputs in one run: each part of the corpus as one profile's parts
# and as inputs with --keep-going
for d in $sources; do
    fs=$(grep "^$d/" "$uniq" | tr '\n' ' ')
    [ -n "$fs" ] || continue
    # shellcheck disable=SC2086 # the paths, without blanks
    {
        same "all of $d" cg-validate -v --keep-going $fs
        same "all of $d" cg-funcs --keep-going $fs
        same "all of $d" cg-parts --keep-going $fs
    }
done

# cg-import, which reads other formats (and takes no --compat)
imp=$top/tests/import
if [ -d "$imp" ]; then
    for f in "$imp"/pego/*; do
        same pego cg-import pego "$f"
        same pego cg-import pego --parts "$f"
        same pego cg-import pego --folded "$f"
    done
    for f in "$imp"/mlton/*.mlmon; do
        same mlton cg-import mlton "$imp/mlton/prog.sources" "$f"
        same mlton cg-import mlton --split "$imp/mlton/prog.sources" "$f"
    done
else
    echo "identical: skipped (absent): $imp"
fi

echo "identical: $n comparisons (stdout, stderr and exit status each), $bad differ"
[ "$bad" -eq 0 ]
