#!/bin/sh
# recordings.sh SOURCE_DIR BINDIR - the stack contract on profiles made
# now (record.sh): every recording, cg-dot's figures on them (dot.py),
# cg-funcs' inclusive never below self (inclusive.py),
# cg-export pprof's as go tool pprof reads them (tests/export/pprof.py),
# and the differential graph (D1) of a
# program before and after a change and of two python3 recordings.
# Exit 77 when valgrind or a C compiler is missing.
set -u
src=$1 bin=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cg-stacks.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
sh "$src/tests/stacks/record.sh" "$tmp" > "$tmp/list"
rc=$?
[ $rc -eq 77 ] && exit 77
[ $rc -eq 0 ] || { echo "FAIL: recording, exit $rc"; exit 1; }
status=0
# shellcheck disable=SC2046 # one path a line, no spaces: mktemp's
python3 "$src/tests/stacks/contract.py" --every-event "$bin" $(cat "$tmp/list") || status=1
# shellcheck disable=SC2046
python3 "$src/tests/stacks/dot.py" "$bin" $(cat "$tmp/list") || status=1
# shellcheck disable=SC2046
python3 "$src/tests/stacks/inclusive.py" "$bin" $(cat "$tmp/list") || status=1
# cg-export pprof read back by go tool pprof (77: no go, nothing to say)
# shellcheck disable=SC2046
python3 "$src/tests/export/pprof.py" "$bin" $(cat "$tmp/list")
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || status=1
python3 "$src/tests/stacks/contract.py" --diff "$bin" "$tmp/shop-old.cg" "$tmp/shop-new.cg" || status=1
python3 "$src/tests/stacks/contract.py" --diff "$bin" "$tmp/python-json.cg" "$tmp/python-json2.cg" || status=1
exit $status
