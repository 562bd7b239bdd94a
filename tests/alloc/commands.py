#!/usr/bin/env python3
"""The allocation-failure loop over the commands (issues 28, 51): each
command as built and installed (BINDIR, build/bin) runs under the preload
tests/alloc/failing_malloc.c (PRELOAD, build/tests/libfailing_malloc.so),
once to count its allocations (the command's own, the library's, zlib's;
not the C runtime's, see there), then once for every allocation with that
one failing.  Each failing run must either give the output, diagnostics
and status of the run without failures (the failure was absorbed), or be
out of memory: status 4, one line on stderr, "PROG: out of memory" or
"PROG: NAME: out of memory", standard output a prefix of the good run's (a
stream cut short, never something else), and no -o file left behind.  Any
other verdict is wrong: "changed between its two readings", a syntax
error, a crash.

usage: commands.py BINDIR PRELOAD SRCDIR [-k FILTER]
  e.g. python3 tests/alloc/commands.py build/bin \
           build/tests/libfailing_malloc.so . -k cg-diff
"""
import os
import re
import pty
import subprocess
import sys
import tempfile


def cases(src):
    ex = os.path.join(src, "examples", "hanoi.callgrind")
    vg = os.path.join(src, "tests", "corpus", "valgrind")
    thr = os.path.join(vg, "v15-threads-separate-combined.callgrind")
    inl = os.path.join(vg, "v07-inline-default.callgrind")
    # small real recordings where a large one adds runs and no path: the
    # loop's time is its runs (one process each)
    v28 = os.path.join(vg, "v28-inline-dumpbefore-part2.callgrind")
    v30 = os.path.join(vg, "v30-threads-separate-thread2.callgrind")
    ml = os.path.join(src, "tests", "import", "mlton")
    ren = [os.path.join(src, "tests", "alloc", "renamed-%s.cg" % s)
           for s in ("old", "new")]
    pg = os.path.join(src, "tests", "import", "pego")
    cc = os.path.join(src, "tests", "conformance", "cases")
    return [
        ("cg-validate", [ex]),
        ("cg-validate", ["--compat", thr]),
        # two inputs read at once
        ("cg-validate", ["-j2", thr, v30]),
        ("cg-normalize", [v28]),
        ("cg-normalize", ["-o", "OUT", thr]),
        # no output to measure: the first reading takes no records
        ("cg-normalize", ["--no-limits", v28]),
        ("cg-tsv", [ex]),
        ("cg-tsv", ["-k", "call", inl]),
        ("cg-parts", [thr]),
        ("cg-funcs", [ex]),
        ("cg-funcs", ["-c", thr]),
        ("cg-diff", [v30, v28]),
        ("cg-dot", [ex]),
        ("cg-fold", [v30, v28]),
        # an event: line marking an event inclusive, beside the one folded
        ("cg-fold", ["-e", "S", os.path.join(src, "tests", "alloc", "inclusive.cg")]),
        ("cg-flame", [v28]),
        # a pair whose object was renamed: the matching and its hint
        ("cg-diff", [ren[0], ren[1]]),
        ("cg-flame", ["--diff", ren[0], ren[1]]),
        ("cg-flame", ["--diff", "--mod-ob", "s/_base$/_new/", "--mod-fn", "s/p$/q/",
                      ren[0], ren[1]]),
        ("cg-flame", ["--folded", os.path.join(src, "tests", "fuzz", "folded",
                                               "hanoi.fold")]),
        ("cg-annotate", [inl]),
        # on a terminal: the table's layout (cmd/cli/table.c)
        ("cg-funcs", ["TTY", "-n", "40", v30]),
        ("cg-diff", ["TTY", v30, v28]),
        ("cg-import", ["mlton", os.path.join(ml, "prog.sources"),
                       os.path.join(ml, "time-current.mlmon")]),
        ("cg-import", ["mlton", "--split", os.path.join(ml, "prog.sources"),
                       os.path.join(ml, "time-stack.mlmon")]),
        ("cg-import", ["pego", os.path.join(pg, "expr.profile.json")]),
        ("cg-import", ["pego", os.path.join(pg, "expr.trace.jsonl")]),
        ("cg-import", ["pego", "--folded", os.path.join(pg, "ts.trace.jsonl")]),
        # small inputs: every path of the writers runs on them
        ("cg-export", ["pprof", "-o", "OUT", os.path.join(cc, "002-extended-example-calls.cg")]),
        ("cg-export", ["speedscope", os.path.join(cc, "035-header-after-body-new-part.cg")]),
        ("cg-export", ["pprof", "--no-gzip", os.path.join(cc, "011-positions-instr-bb-line.cg")]),
        # many profiles summed: the stage of each, adding up, the writer
        ("cg-merge", [v30, v28]),
        ("cg-merge", ["-o", "OUT", "--compat", thr, v30]),
        # a merge of two threads' merges
        ("cg-merge", ["-j2", v28, v30]),
        # an input refused on a thread: its words kept until said in turn
        ("cg-merge", ["-j2", v28,
                      os.path.join(src, "tests", "alloc", "thread2.callgrind.gz")]),
        # gzip under --compat: zlib's allocations are the library's
        ("cg-validate", ["--compat", os.path.join(src, "tests", "alloc", "thread2.callgrind.gz")]),
        ("cg-merge", ["--compat", os.path.join(src, "tests", "alloc", "thread2.callgrind.gz"), v28]),
        # the rows of many profiles: each input's aggregation, its rows
        # in blocks, written in turn or held for it (-j2); the labels
        ("cg-rows", ["functions", "--label", "host=a", v30, v28]),
        ("cg-rows", ["calls", thr]),
        ("cg-rows", ["stacks", v28, v30]),
        ("cg-rows", ["stacks", "-j2", v28, v30]),
        ("cg-rows", ["functions", "-j2", "--compat",
                     os.path.join(src, "tests", "alloc", "thread2.callgrind.gz"), v28]),
        # an event marked inclusive: its stacks skipped, said at the end
        ("cg-rows", ["stacks", os.path.join(src, "tests", "alloc", "inclusive.cg")]),
    ]


def on_tty(argv, env):
    """Run argv with standard output a pseudo-terminal of 60 columns."""
    env = dict(env, COLUMNS="60")
    master, slave = pty.openpty()
    with subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL,
                          stdout=slave, stderr=subprocess.PIPE) as p:
        os.close(slave)
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed with the last writer
                break
            if not chunk:
                break
            out += chunk
        err = p.stderr.read()
        p.wait(timeout=60)
    os.close(master)
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


# Allocating functions of libc that the preload does not catch: they
# allocate from within libc, where the preload counts nothing.
UNCAUGHT = re.compile(r"\b(reallocarray|posix_memalign|aligned_alloc|memalign|"
                      r"valloc|pvalloc|v?asprintf|getline|getdelim|"
                      r"open_memstream|wcsdup|scandir|tempnam)\s*\(")


def uncaught(src):
    """The calls in lib/ and cmd/ that the preload would not count."""
    found = []
    for top in ("lib", "cmd"):
        for d, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                with open(os.path.join(d, f), encoding="utf-8",
                          errors="replace") as h:
                    for i, line in enumerate(h, 1):
                        m = UNCAUGHT.search(line)
                        if m:
                            found.append("%s:%d: %s" % (
                                os.path.relpath(os.path.join(d, f), src), i,
                                m.group(1)))
    return found


def run(binary, preload, args, tmp, fail_at):
    env = dict(os.environ)
    env["LD_PRELOAD"] = preload
    count = os.path.join(tmp, "count")
    env["CG_ALLOC_COUNT"] = count
    env["CG_FAIL_ALLOC"] = str(fail_at)
    out = os.path.join(tmp, "out")
    if os.path.exists(out):
        os.unlink(out)
    argv = [binary] + [out if a == "OUT" else a for a in args if a != "TTY"]
    if "TTY" in args:
        p = on_tty(argv, env)
    else:
        p = subprocess.run(argv, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=60)
    made = None
    if os.path.exists(out):
        with open(out, "rb") as f:
            made = f.read()
    n = None  # no file: the preload did not load, or the run crashed
    if os.path.exists(count):
        with open(count) as f:
            n = int(f.read())
        os.unlink(count)
    return p.returncode, p.stdout, p.stderr, made, n


def verdict(prog, good, got):
    """None when got is right beside good, else what is wrong."""
    status, out, err, made, _ = got
    if got[:4] == good[:4]:
        return None
    lines = err.decode("utf-8", "replace").splitlines()
    if status != 4:
        return "status %d (want %d or 4), stderr %r" % (status, good[0], lines)
    if len(lines) != 1 or not lines[0].startswith(prog + ": ") or \
            not lines[0].endswith(": out of memory"):
        return "stderr %r, not one line PROG: [NAME: ]out of memory" % lines
    if not good[1].startswith(out):
        return "standard output not a prefix of the good run's"
    if made is not None:
        return "an -o file left behind"
    return None


def main():
    argv = sys.argv[1:]
    only = None
    if "-k" in argv:
        i = argv.index("-k")
        only = argv[i + 1]
        del argv[i:i + 2]
    bindir, preload, src = argv
    preload = os.path.abspath(preload)
    wrong = runs = 0
    for where in uncaught(src):
        print("FAIL %s: allocates inside libc, uncounted by the preload" % where)
        wrong += 1
    with tempfile.TemporaryDirectory() as tmp:
        for prog, args in cases(src):
            name = " ".join([prog] + [os.path.basename(a) for a in args])
            if only and only not in name:
                continue
            binary = os.path.join(bindir, prog)
            if prog in ("cg-import", "cg-export"):  # a subcommand names itself
                prog += " " + args[0]
            good = run(binary, preload, args, tmp, -1)
            if good[0] not in (0, 1) or not good[4]:
                print("FAIL %s: status %d, %s allocations counted without "
                      "failures: %r" % (name, good[0], good[4], good[2]))
                wrong += 1
                continue
            bad = []
            for n in range(good[4]):
                runs += 1
                why = verdict(prog, good, run(binary, preload, args, tmp, n))
                if why:
                    bad.append((n, why))
            for n, why in bad[:5]:
                print("FAIL %s: allocation %d: %s" % (name, n, why))
            wrong += len(bad)
            print("%s %s: %d allocations" % ("ok  " if not bad else "FAIL",
                                              name, good[4]))
    print("%d runs, %d wrong" % (runs, wrong))
    if runs == 0:
        print("no run")
        return 1
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
