#!/usr/bin/env python3
"""Each input merged alone is that input again.

usage: alone.py BINDIR WORKDIR FILE...

For each FILE read strictly, or else under --compat (a FILE neither reads
is counted and skipped): cg-merge of it alone must be accepted, valid to
cg-validate, hold the same records as FILE (expect.py's sums, apart from
cg-merge's code), and give cg-funcs and cg-funcs -c the same rows as FILE.
One process for all the files: the bats file ran a dozen programs a file.
Prints a line per failure and "merged N, skipped M"; exit 1 on a failure.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from expect import expect  # noqa: E402

# Inputs whose cg-funcs a merge cannot keep: a thread's clone is called in
# one part and a root in the other, which one part cannot say (cg-merge(1),
# CAVEATS); threads.cg is tests/stacks/record.sh's.
FUNCS_DIFFER = ("v15-threads-separate-combined.callgrind", "threads.cg")


def run(bindir, cmd, *args):
    return subprocess.run([os.path.join(bindir, cmd)] + list(args),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def flag_of(bindir, path):
    """[] if read strictly, ["--compat"] if only so, None if not at all."""
    for flag in ([], ["--compat"]):
        if run(bindir, "cg-validate", *flag, path).returncode == 0:
            return flag
    return None


def check(bindir, out, path, flag):
    """The failures of merging path alone into out, as text."""
    merged = run(bindir, "cg-merge", "--quiet", *flag, "-o", out, path)
    if merged.returncode != 0:
        return ["refused: %s: %s" % (path, merged.stderr.decode(errors="replace"))]
    if run(bindir, "cg-validate", out).returncode != 0:
        return ["invalid merge: " + path]
    if expect(bindir, bool(flag), False, [path]) != expect(bindir, False, False, [out]):
        return ["records differ: " + path]
    if os.path.basename(path) in FUNCS_DIFFER:
        return []
    bad = []
    for columns in ([], ["-c"]):
        parts = run(bindir, "cg-funcs", "--quiet", "--tsv", *columns, *flag, path)
        whole = run(bindir, "cg-funcs", "--tsv", *columns, out)
        if parts.returncode != 0 or parts.stdout != whole.stdout:
            bad.append("cg-funcs %s differs: %s" % (" ".join(columns), path))
    return bad


def main():
    bindir, work, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    out = os.path.join(work, "alone.cg")
    merged = skipped = 0
    failed = []
    for path in files:
        flag = flag_of(bindir, path)
        if flag is None:
            skipped += 1
            continue
        merged += 1
        failed += check(bindir, out, path, flag)
    for line in failed:
        print(line)
    print("merged %d, skipped %d" % (merged, skipped))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
