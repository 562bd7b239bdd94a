#!/bin/sh
# man.sh SRCDIR - every man page clean under mandoc's linter, one page at
# a time.  mandoc is one of the test packages (.ci/run installs it): its
# absence fails the lint and says so.  References to pages not installed
# on this machine are not faults.  And in every option list as rendered,
# each tag's brackets close before its next alternative (", -"): an .Op
# runs to the end of its line, so `Op , Ns Ar COL ... , Fl Fl columns`
# swallows the long form.
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
    out=$(mandoc -T ascii "$f" | col -b | awk -v f="$f" '
        /^     -/ {
            d = 0; bad = 0
            for (i = 1; i <= length($0); i++) {
                ch = substr($0, i, 1)
                if (ch == "[") d++
                else if (ch == "]" && --d < 0) bad = 1
                else if (substr($0, i, 3) == ", -" && d > 0) bad = 1
            }
            if (bad || d != 0) print f ": an option tag with its brackets run together:" $0
        }')
    if [ -n "$out" ]; then
        echo "$out"
        status=1
    fi
done
exit "$status"
