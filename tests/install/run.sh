#!/bin/sh
# run.sh BUILDDIR SOURCEDIR - install the build into a fresh prefix, move
# the prefix elsewhere (the install must be relocatable), then build
# cgprof(3)'s example against it through pkg-config and through CMake's
# find_package, and run both on the shipped example profile.
set -eu
build=$1 src=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cginstall.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/first" > /dev/null
mv "$tmp/first" "$tmp/moved"
prefix=$tmp/moved
pc=$(find "$prefix" -name cgprof.pc)
[ -n "$pc" ] || { echo "no cgprof.pc installed"; exit 1; }
want="0x000000000001ab70 235161 of 235161 Ir"

# the installed library defines only what the installed header declares
lib=$(find "$prefix" -name libcgprof.a)
sh "$src/tests/lint/symbols.sh" "$lib" "$prefix/include/cgprof.h" ||
    { echo "libcgprof.a defines names cgprof.h does not declare"; exit 1; }

# the public header alone: the internal one (cgprof_internal.h) stays home
hdrs=$(cd "$prefix/include" && find . -type f | sort | tr '\n' ' ')
[ "$hdrs" = "./cgprof.h ./cgprof_version.h " ] ||
    { echo "installed headers: $hdrs"; exit 1; }
for f in "$prefix"/share/man/man3/cgi_*; do
    [ -e "$f" ] && { echo "a man page of an internal function: $f"; exit 1; }
done

# pkg-config, from the moved prefix
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --cflags --libs cgprof)
case $flags in *"$tmp/first"*) echo "cgprof.pc names the install prefix: $flags"; exit 1 ;; esac
extra=${CG_EXTRA_FLAGS:-}
# shellcheck disable=SC2086 # the flags are words
${CC:-cc} -std=c11 $extra -o "$tmp/ex-pc" "$src/tests/install/example.c" $flags
got=$("$tmp/ex-pc" "$src/examples/hanoi.callgrind")
[ "$got" = "$want" ] || { echo "pkg-config build printed: $got"; exit 1; }

# CMake package
mkdir "$tmp/proj"
cp "$src/tests/install/example.c" "$tmp/proj/"
cat > "$tmp/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(example C)
find_package(cgprof 0.2 REQUIRED)
add_executable(example example.c)
target_link_libraries(example PRIVATE cgprof::cgprof)
CMAKE
cmake -S "$tmp/proj" -B "$tmp/proj/build" -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_COMPILER="${CC:-cc}" -DCMAKE_C_FLAGS="$extra" > /dev/null
cmake --build "$tmp/proj/build" > /dev/null
got=$("$tmp/proj/build/example" "$src/examples/hanoi.callgrind")
[ "$got" = "$want" ] || { echo "find_package build printed: $got"; exit 1; }

# commands, man pages (one per function, pointing at cgprof.3), header
"$prefix/bin/cg-validate" "$src/examples/hanoi.callgrind"
for f in cg_reader_new cg_funcs_new cg_diff_get cg_limits_set cg_fold cg_version; do
    grep -qx '.so man3/cgprof.3' "$prefix/share/man/man3/$f.3" ||
        { echo "no man page for $f"; exit 1; }
done
[ -f "$prefix/share/man/man1/cg-funcs.1" ] && [ -f "$prefix/share/man/man5/cgprof.5" ]
# the tables of cg-rows(1), as the source has them
for e in sqlite duckdb clickhouse; do
    cmp -s "$src/sql/$e.sql" "$prefix/share/cgprof/sql/$e.sql" ||
        { echo "share/cgprof/sql/$e.sql is not installed"; exit 1; }
done
[ -f "$prefix/share/man/man1/cg-rows.1" ] && [ -x "$prefix/bin/cg-rows" ]
grep -q "define CGPROF_VERSION \"$("$prefix/bin/cg-validate" --version | sed 's/.* //')\"" \
    "$prefix/include/cgprof_version.h"
echo "installed, moved, and built against: pkg-config and find_package"
