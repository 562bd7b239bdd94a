#!/bin/sh
# man.sh SRCDIR - every man page clean under mandoc's linter, one page at
# a time (exit 77, skipped, when mandoc is not installed).  References to
# pages not installed on this machine are not faults.
command -v mandoc >/dev/null 2>&1 || exit 77
status=0
for f in "$1"/man/*; do
    out=$(mandoc -Tlint -Wstyle "$f" 2>&1 |
        grep -v -e 'referenced manual not found' -e 'mandoc.db')
    if [ -n "$out" ]; then
        echo "$out"
        status=1
    fi
done
exit "$status"
