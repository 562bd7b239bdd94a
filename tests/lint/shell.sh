#!/bin/sh
# The project's shell scripts under shellcheck (exit 77, skipped, when it
# is not installed), and no bats test that cannot fail.
#
#   shell.sh SRCDIR
set -u
src=$1
status=0

# bats sets $stderr and $stderr_lines for `run --separate-stderr`
if command -v shellcheck >/dev/null 2>&1; then
    (cd "$src" && shellcheck -s sh tests/*.sh tests/*/*.sh bench/run.sh .ci/run &&
        shellcheck -S warning -e SC2154 tests/cli/*.bats tests/cli/common.bash) ||
        status=1
else
    echo "shellcheck is not installed: only the bats check runs"
    status=77
fi

# errexit ignores a negated command, so `! cmd` on a line of its own never
# fails a bats test: `run ! cmd`, `[ ... ]` or common.bash's no_line do.
bare=$(grep -nE '^[[:space:]]*![[:space:]]' "$src"/tests/cli/*.bats)
if [ -n "$bare" ]; then
    echo "a bare ! never fails a bats test:"
    echo "$bare"
    status=1
fi
exit "$status"
