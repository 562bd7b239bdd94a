#!/usr/bin/env python3
"""roots.py FUNCS ARCS FOLDED - the roots of cg-fold's stacks against
cg-funcs's figures, read from their outputs alone:

FUNCS   cg-funcs --no-cycles -H -e EV (ob fl fn called cycle EV EV:incl)
ARCS    cg-funcs --no-cycles -H -c -e EV (ob fl fn cob cfl cfn calls EV:incl)
FOLDED  cg-fold -q object -e EV

Checks, one line per failure (exit 1), else one line of figures:
 - no stack starts at a function that another function's arcs call with
   a cost (a called function never roots a stack);
 - the counts under each root frame are at most its inclusive cost;
 - the function called by none (a root of cg-funcs) with the greatest
   inclusive cost carries it within 1% of the total."""
import os
import sys
from collections import defaultdict


def frame_of(ob, fn):
    # cg-fold -q object: the base name of the object, ':', the name
    return "%s:%s" % (os.path.basename(ob), fn)


def rows(path):
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip()]


def main():
    funcs, arcs, folded = sys.argv[1:4]
    incl = defaultdict(int)
    roots = set()
    for ob, _fl, fn, called, _cycle, _self, inc in rows(funcs):
        incl[frame_of(ob, fn)] += int(inc)
        if int(called) == 0:
            roots.add(frame_of(ob, fn))
    called_with_cost = set()
    for ob, _fl, fn, cob, _cfl, cfn, _calls, inc in rows(arcs):
        caller, callee = frame_of(ob, fn), frame_of(cob or ob, cfn)
        if caller != callee and int(inc) > 0:
            called_with_cost.add(callee)
    under = defaultdict(int)
    total = 0
    with open(folded, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            stack, count = line.rstrip("\n").rsplit(" ", 1)
            root = stack.split(";")[0].replace("%3B", ";").replace("%25", "%")
            under[root] += int(count)
            total += int(count)
    bad = 0
    for root, n in sorted(under.items()):
        if root in called_with_cost:
            print("a called function roots %d: %s" % (n, root))
            bad = 1
        if n > incl[root]:
            print("%s carries %d, over its inclusive %d" % (root, n, incl[root]))
            bad = 1
    main_root = max(roots, key=lambda k: (incl[k], k))
    gap = abs(under.get(main_root, 0) - incl[main_root])
    if gap * 100 > total:
        print("%s carries %d, cg-funcs says %d (total %d)"
              % (main_root, under.get(main_root, 0), incl[main_root], total))
        bad = 1
    if not bad:
        print("%d roots, %s carries %d of %d" % (len(under), main_root,
                                                 under.get(main_root, 0), total))
    sys.exit(bad)


if __name__ == "__main__":
    main()
