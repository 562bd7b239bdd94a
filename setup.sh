#!/bin/sh
# setup.sh - install what building (./setup.sh build) or building and
# testing (./setup.sh test) needs on Debian, and nothing when it is there
# already.  Packages come from apt-get, with sudo when not root.  The
# README's two commands and .ci/run begin with it.
set -eu

usage() {
    echo "usage: ./setup.sh build|test" >&2
    exit 2
}
[ $# -eq 1 ] || usage
case $1 in build | test) ;; *) usage ;; esac

missing=
# need COMMAND PACKAGE: PACKAGE unless COMMAND runs
need() {
    command -v "$1" >/dev/null 2>&1 || missing="$missing $2"
}
# need_file FILE PACKAGE: PACKAGE unless FILE is there
need_file() {
    [ -e "$1" ] || missing="$missing $2"
}

need cmake cmake
need cc gcc
need make make
# jsmn, the JSON tokenizer of the pego importer: one header; zlib:
# cg-export's gzip
need_file /usr/include/jsmn.h libjsmn-dev
need_file /usr/include/zlib.h zlib1g-dev
if [ "$1" = test ]; then
    for tool in bats:bats valgrind:valgrind gzip:gzip clang:clang \
                mandoc:mandoc pkg-config:pkgconf bzip2:bzip2 xz:xz-utils \
                zstd:zstd dot:graphviz python3:python3 shellcheck:shellcheck \
                go:golang-go xmllint:libxml2-utils npm:npm php:php-cli \
                script:bsdutils sqlite3:sqlite3 clang-format:clang-format \
                pyprof2calltree:pyprof2calltree; do
        need "${tool%%:*}" "${tool#*:}"
    done
    # libFuzzer, for the fuzz targets .ci/run builds
    ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a \
        >/dev/null 2>&1 || missing="$missing libclang-rt-dev"
    python3 -c 'import jsonschema' 2>/dev/null ||
        missing="$missing python3-jsonschema"
    php -m 2>/dev/null | grep -qi '^xdebug$' || missing="$missing php-xdebug"
fi
# Chromium, for the browser tests (skipped with a message without it),
# is tried on its own: a machine that cannot have it still tests the rest.
browser=
[ "$1" = build ] || command -v chromium >/dev/null 2>&1 || browser=chromium
[ -n "$missing$browser" ] || exit 0

sudo=
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
        echo "setup.sh: not root and no sudo: install$missing $browser" >&2
        exit 1
    }
    sudo=sudo
fi
export DEBIAN_FRONTEND=noninteractive
echo "setup.sh: installing$missing $browser" >&2
$sudo apt-get update -q >&2
if [ -n "$missing" ]; then
    # shellcheck disable=SC2086 # a list of package names
    $sudo apt-get install -y -q $missing >&2
fi
if [ -n "$browser" ]; then
    $sudo apt-get install -y -q chromium >&2 ||
        echo "setup.sh: chromium cannot be installed: the browser tests will be skipped" >&2
fi
