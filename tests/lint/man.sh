#!/bin/sh
# man.sh SRCDIR - every man page clean under mandoc's linter, one page at
# a time.  mandoc is one of the test packages (.ci/run installs it): its
# absence fails the lint and says so.  References to pages not installed
# on this machine are not faults.
if ! command -v mandoc >/dev/null 2>&1; then
    echo "man.sh: mandoc is not installed (apt-get install mandoc)" >&2
    exit 1
fi
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
