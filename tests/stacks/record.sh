#!/bin/sh
# record.sh OUTDIR - the profiles the stack contract is checked on, made
# fresh: Valgrind recordings of C programs (the default, --dump-instr=yes,
# threads apart, dumps every so many blocks and by a client request,
# mutual recursion, a program before and after a change, the static
# start-up code with --skip-direct-rec=no) and of python3 running json,
# and, where they are installed, cProfile through pyprof2calltree of a
# recursion that imports, PHP under Xdebug and go
# tool pprof -callgrind of a Go CPU profile.  Writes one
# path a line on standard output; exit 77 when valgrind or cc is missing.
set -eu
out=$1
here=$(cd "$(dirname "$0")/.." && pwd)
command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed" >&2; exit 77; }
command -v cc >/dev/null 2>&1 || { echo "no C compiler" >&2; exit 77; }
mkdir -p "$out"
cc -g -O0 -o "$out/hanoi" "$here/programs/hanoi.c"
cc -g -O0 -pthread -o "$out/threads" "$here/programs/threads.c"
cc -g -O0 -o "$out/mutual" "$here/programs/mutual.c"
# a program and its slower version, for the differential graph (one base
# name, so that cg-diff matches their objects)
mkdir -p "$out/old" "$out/new"
cc -g -O0 -o "$out/old/shop" "$here/programs/shop.c"
cc -g -O0 -DSLOW_TOTAL -DAUDIT -o "$out/new/shop" "$here/programs/shop.c"

record() { # record NAME PROGRAM [valgrind options...] (the program last)
    name=$1
    shift
    valgrind -q --tool=callgrind --callgrind-out-file="$out/$name" "$@" > /dev/null
}
record hanoi.cg "$out/hanoi"
record hanoi-instr.cg --dump-instr=yes "$out/hanoi"
record hanoi-dumps.cg --combine-dumps=yes --dump-every-bb=20000 "$out/hanoi"
record threads.cg --separate-threads=yes --combine-dumps=yes "$out/threads"
record mutual.cg --combine-dumps=yes "$out/mutual"
record mutual-instr.cg --dump-instr=yes --separate-recs=4 "$out/mutual"
record shop-old.cg "$out/old/shop"
record shop-new.cg "$out/new/shop"
for f in hanoi hanoi-instr hanoi-dumps threads mutual mutual-instr shop-old shop-new; do
    echo "$out/$f.cg"
done
# the system's python3 (a version manager's shim would be recorded
# instead), without site, running json
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
record python-json.cg "$py" -S -c 'import json; s = json.dumps([{"a": i, "b": [i] * 3, "c": str(i)} for i in range(3000)]); json.loads(s)'
record python-json2.cg "$py" -S -c 'import json; s = json.dumps({str(i): [i, str(i) * 2] for i in range(6000)}, sort_keys=True); json.loads(s)'
echo "$out/python-json.cg"
echo "$out/python-json2.cg"
# the start-up code of a static program, recorded with
# --skip-direct-rec=no --separate-recs=1: (below main) calls only itself
if cc -static -O0 -o "$out/hanoi-static" "$here/programs/hanoi.c" 2>/dev/null; then
    record below-main.cg --skip-direct-rec=no --separate-recs=1 "$out/hanoi-static"
    echo "$out/below-main.cg"
else
    echo "no static C library: no recording of (below main) calling itself" >&2
fi
# cProfile through pyprof2calltree, of a recursion that runs imports
# (importlib's exec_module between one level and the next), where the
# calls into a function carry more or less than it holds
if command -v pyprof2calltree >/dev/null 2>&1; then
    "$py" -m cProfile -o "$out/imports.prof" "$here/programs/imports.py" "$out/imports" > /dev/null
    pyprof2calltree -i "$out/imports.prof" -o "$out/imports.cg" > /dev/null
    echo "$out/imports.cg"
    # imports inside imports: timed by the clock, so three of them
    for i in 1 2 3; do
        "$py" -m cProfile -o "$out/nested.prof" "$here/programs/imports.py" \
            "$out/nested$i" nested 3 > /dev/null
        pyprof2calltree -i "$out/nested.prof" -o "$out/imports-nested$i.cg" > /dev/null
        echo "$out/imports-nested$i.cg"
    done
else
    echo "pyprof2calltree is not installed: no recording of imports in recursion" >&2
fi
# PHP under Xdebug's profiler, where both are installed (its files need
# --compat, which the checks read with)
if command -v php >/dev/null 2>&1 && php -m 2>/dev/null | grep -qi '^xdebug$'; then
    php -d xdebug.mode=profile -d xdebug.output_dir="$out" \
        -d xdebug.profiler_output_name=xdebug.cg -d xdebug.use_compression=0 \
        "$here/programs/shop.php" > /dev/null
    echo "$out/xdebug.cg"
else
    echo "php with xdebug is not installed: no Xdebug recording" >&2
fi
if command -v go >/dev/null 2>&1; then
    export GOCACHE="$out/gocache" GOPATH="$out/gopath" GOFLAGS=-mod=mod GO111MODULE=off
    go build -o "$out/spin" "$here/programs/spin.go"
    "$out/spin" "$out/cpu.pprof" "$out/heap.pprof"
    go tool pprof -callgrind -output "$out/go-cpu.cg" "$out/spin" "$out/cpu.pprof" 2>/dev/null
    echo "$out/go-cpu.cg"
else
    echo "go is not installed: no Go recording" >&2
fi
