#!/bin/sh
# man-example.sh SOURCEDIR - the program in cgprof(3)'s EXAMPLES is
# tests/install/example.c, the one the install test builds and runs.
src=$1
awk '/^\.Sh EXAMPLES/ { ex = 1 } ex && /^\.Bd -literal/ { on = 1; next }
     on && /^\.Ed/ { exit } on' "$src/man/cgprof.3" |
    sed -e 's/^\\&//' -e 's/\\e/\\/g' | diff - "$src/tests/install/example.c"
