#!/bin/sh
# broken.sh SOURCE_DIR - the stack contract's checker fails when a
# deliberately broken estimate is put in place of cg-fold's: each way of
# breaking it must make the checker exit 1 and name the property it
# breaks, on profiles the real estimate passes.
set -u
src=$1 bin=$2
check=$src/tests/stacks/contract.py
files="$src/tests/corpus/valgrind/v07-inline-default.callgrind
$src/tests/corpus/thirdparty/gopprof_pprof.cpu.callgrind"
passed=0 failed=0
# shellcheck disable=SC2086 # the file list is two paths without spaces
for want in "swap S2" "swap S5" "merge S3" "inflate S1" "inflate S4"; do
    mode=${want% *} prop=${want#* }
    out=$(python3 "$check" --break "$mode" "$bin" $files)
    rc=$?
    if [ $rc -eq 1 ] && printf '%s\n' "$out" | grep -q "^FAIL [^ ]* $prop: "; then
        passed=$((passed + 1))
    else
        echo "FAIL --break $mode: expected exit 1 and a FAIL of $prop, got $rc:"
        printf '%s\n' "$out" | head -5
        failed=$((failed + 1))
    fi
done
# and the real estimate passes on the same files
# shellcheck disable=SC2086
if python3 "$check" "$bin" $files > /dev/null; then
    passed=$((passed + 1))
else
    echo "FAIL: the real estimate fails on the files above"
    failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
