#!/usr/bin/env python3
"""cprofile2cg.py OUT SCRIPT [ARG...] - run a Python script under cProfile
and write what it measured as a Callgrind profile, as pyprof2calltree does:
one function per (file, line, name), its own time as the self cost, and per
caller the calls and the cumulative time of the calls on that arc.

The clock is a counter that ticks once per reading, so that a recording is
the same on every run and on every machine: the figures are cProfile's own
bookkeeping of its events, in the units of event Ticks."""
import cProfile
import itertools
import runpy
import sys


def name_of(func):
    filename, line, name = func
    return (filename if filename != "~" else "~"), line, name


def write(stats, out):
    ids = {}

    def ref(key, name):
        # Callgrind's name compression: "(N) name" once, "(N)" after
        table = ids.setdefault(key, {})
        if name in table:
            return "(%d)" % table[name]
        table[name] = len(table) + 1
        return "(%d) %s" % (table[name], name)

    total = sum(round(v[2]) for v in stats.values())
    out.write("# callgrind format\nversion: 1\n")
    out.write("creator: cprofile2cg (cgprof tests)\n")
    out.write("positions: line\nevents: Ticks\nsummary: %d\n" % total)
    callees = {}
    for func, (_, _, _, _, callers) in stats.items():
        for caller, (nc, _, _, ct) in callers.items():
            callees.setdefault(caller, []).append((func, nc, ct))
    for func in sorted(stats, key=str):
        fl, line, fn = name_of(func)
        out.write("fl=%s\nfn=%s\n" % (ref("fl", fl), ref("fn", fn)))
        out.write("%d %d\n" % (line, round(stats[func][2])))
        for callee, nc, ct in sorted(callees.get(func, []), key=str):
            cfl, cline, cfn = name_of(callee)
            out.write("cfl=%s\ncfn=%s\n" % (ref("fl", cfl), ref("fn", cfn)))
            out.write("calls=%d %d\n%d %d\n" % (nc, cline, line, round(ct)))
    out.write("totals: %d\n" % total)


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: cprofile2cg.py OUT SCRIPT [ARG...]")
    out, script = sys.argv[1], sys.argv[2]
    sys.argv = sys.argv[2:]
    ticks = itertools.count()
    prof = cProfile.Profile(lambda: next(ticks))
    prof.enable()
    try:
        runpy.run_path(script, run_name="__main__")
    finally:
        prof.disable()
    prof.create_stats()
    with open(out, "w", encoding="utf-8") as f:
        write(prof.stats, f)


if __name__ == "__main__":
    main()
