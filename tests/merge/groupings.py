#!/usr/bin/env python3
"""cg-merge is associative and does not depend on -j.

usage: groupings.py BINDIR [--compat] FILE...

For several seeds, the inputs (in their order) are cut into random runs,
each run merged with a random -j, the merges merged again, possibly
through one more level; every result must be byte for byte the merge of
all the inputs at once with -j1.  Then the inputs shuffled merge to the
same records (the events may come in another order: first seen).
"""
import os
import random
import subprocess
import sys
import tempfile


def merge(bindir, compat, files, out, jobs=1):
    cmd = [bindir + "/cg-merge", "--quiet", "-j", str(jobs), "-o", out]
    cmd += (["--compat"] if compat else []) + files
    subprocess.run(cmd, check=True)
    with open(out, "rb") as f:
        return f.read()


def cuts(items, rnd):
    """items cut into runs of random lengths, in order."""
    runs, i = [], 0
    while i < len(items):
        n = rnd.randint(1, max(1, len(items) - i))
        runs.append(items[i:i + n])
        i += n
    return runs


def grouped(bindir, compat, files, rnd, tmp, depth):
    """The merge of files through random runs, depth levels deep."""
    if depth == 0 or len(files) == 1:
        out = os.path.join(tmp, "g%d.cg" % rnd.getrandbits(48))
        merge(bindir, compat, files, out, rnd.choice([1, 2, 3, 4]))
        return out
    parts = [grouped(bindir, compat, run, rnd, tmp, depth - 1)
             for run in cuts(files, rnd)]
    out = os.path.join(tmp, "g%d.cg" % rnd.getrandbits(48))
    merge(bindir, False, parts, out, rnd.choice([1, 2]))
    return out


def records(bindir, path):
    here = os.path.dirname(os.path.abspath(__file__))
    out = subprocess.run([sys.executable, os.path.join(here, "expect.py"),
                          bindir, "--by-name", path], check=True, stdout=subprocess.PIPE)
    return out.stdout.split(b"\n")[:-2]  # without the events line


def main():
    bindir, args = sys.argv[1], sys.argv[2:]
    compat = "--compat" in args
    files = [a for a in args if a != "--compat"]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        whole = merge(bindir, compat, files, os.path.join(tmp, "all.cg"))
        for seed in range(6):
            rnd = random.Random(seed)
            got = grouped(bindir, compat, files, rnd, tmp, 1 + seed % 3)
            with open(got, "rb") as f:
                if f.read() != whole:
                    print("seed %d: a grouping differs from the whole merge" % seed)
                    failed += 1
        for jobs in (2, 3, 8):
            if merge(bindir, compat, files, os.path.join(tmp, "j.cg"), jobs) != whole:
                print("-j%d differs from -j1" % jobs)
                failed += 1
        shuffled = list(files)
        random.Random(99).shuffle(shuffled)
        merge(bindir, compat, shuffled, os.path.join(tmp, "s.cg"), 2)
        if records(bindir, os.path.join(tmp, "s.cg")) != records(bindir, os.path.join(tmp, "all.cg")):
            print("the shuffled inputs merge to other records")
            failed += 1
    print("%d passed, %d failed" % (10 - failed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
