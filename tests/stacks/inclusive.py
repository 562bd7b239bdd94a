#!/usr/bin/env python3
"""inclusive.py BINDIR FILE... - cg-funcs never prints an inclusive cost
below the self cost: on each FILE that cg-validate --compat --no-limits
accepts, every row of cg-funcs (functions and cycles), cg-funcs -p (per
part) and cg-funcs --no-cycles, every event, has EV:incl >= EV.  Prints
each failure, then 'N passed, M failed' over (file, mode); exit 1 on a
failure or when no file was checked."""
import os
import subprocess
import sys

MODES = [[], ['-p'], ['--no-cycles']]


def run(bindir, *args):
    return subprocess.run([os.path.join(bindir, args[0]), '--compat', '--no-limits', *args[1:]],
                          capture_output=True, timeout=900)


def main(bindir, files):
    passed = failed = skipped = 0
    for path in files:
        if run(bindir, 'cg-validate', path).returncode != 0:
            skipped += 1
            continue
        for mode in MODES:
            r = run(bindir, 'cg-funcs', '--tsv', *mode, path)
            name = ' '.join([os.path.basename(path)] + mode)
            if r.returncode != 0:
                failed += 1
                print('FAIL %s: cg-funcs exit %d' % (name, r.returncode))
                continue
            lines = r.stdout.decode('utf-8', 'surrogateescape').splitlines()
            head = lines[0].split('\t')
            pairs = [(head.index(c[:-5]), i) for i, c in enumerate(head) if c.endswith(':incl')]
            if not pairs:
                failed += 1
                print('FAIL %s: no inclusive column in %s' % (name, head))
                continue
            bad = []
            for line in lines[1:]:
                cells = line.split('\t')
                for s, i in pairs:
                    if int(cells[i] or 0) < int(cells[s] or 0):
                        bad.append((cells[head.index('fn')], head[s], int(cells[s]), int(cells[i])))
            if bad:
                failed += 1
                print('FAIL %s: %d rows of inclusive < self, first: %s' % (name, len(bad), bad[:3]))
            else:
                passed += 1
    if passed + failed == 0:
        print('FAIL: no file checked (%d refused)' % skipped)
        failed += 1
    print('%d passed, %d failed, %d files refused by cg-validate' % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2:]))
