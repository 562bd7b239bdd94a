#!/bin/sh
# memory.sh BINDIR EXAMPLE - the commands that read in chunks hold what the
# profile's names, functions and arcs need, not the input: on 300 copies
# of EXAMPLE (about 20 MB, read as 300 parts from a pipe) each one's peak
# RSS (GNU time) is within 4 MB of its peak on one copy, where holding
# the input would add 20 MB.  Exit 77 (skipped) without GNU time.
set -eu
bin=$1 example=$2
[ -x /usr/bin/time ] || { echo "memory.sh: no /usr/bin/time: skipped"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cgmem.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
i=0
while [ $i -lt 300 ]; do cat "$example"; i=$((i + 1)); done > "$tmp/big.cg"
# peak KB FILE COMMAND...: the command's peak RSS reading FILE from a pipe
peak() {
    f=$1
    shift
    # shellcheck disable=SC2002 # a pipe, not a file, on purpose
    cat "$f" | /usr/bin/time -o "$tmp/t" -f %M "$@" - > /dev/null
    tail -1 "$tmp/t"
}
fail=0
for cmd in cg-validate cg-parts cg-tsv cg-normalize cg-funcs cg-diff cg-dot cg-fold \
    cg-flame cg-annotate; do
    set -- "$bin/$cmd" --no-limits
    [ "$cmd" != cg-diff ] || set -- "$@" "$example"
    one=$(peak "$example" "$@")
    big=$(peak "$tmp/big.cg" "$@")
    echo "$cmd: $one KB on one copy, $big KB on 300 ($(wc -c < "$tmp/big.cg") bytes)"
    [ $((big - one)) -le 4096 ] || { echo "FAIL $cmd grew by $((big - one)) KB"; fail=1; }
done
exit $fail
