#!/usr/bin/env python3
"""circles.py FILE... - no two objects call each other, directly or round a
longer loop: the members of a static library, or the object files of a
command (its main and its helpers), given as FILEs.  The symbols each
defines and the ones it needs (nm) make a graph of files, which must have
no cycle.  Prints each loop found; exit 1 if there is one."""
import os
import subprocess
import sys


def members(files):
    out = subprocess.run(["nm", "-A", "-P"] + files, capture_output=True,
                         text=True, check=True).stdout
    defines, needs = {}, {}
    for line in out.splitlines():
        where, _, rest = line.rpartition(": ")
        if not where:
            continue
        # "LIB[MEMBER]" or "LIB:MEMBER" of an archive, "PATH" of an object
        member = os.path.basename(
            where.rsplit(":", 1)[-1].rsplit("[", 1)[-1].rstrip("]"))
        f = rest.split()
        if len(f) < 2:
            continue
        name, kind = f[0], f[1]
        defines.setdefault(member, set())
        needs.setdefault(member, set())
        if kind == "U":
            needs[member].add(name)
        elif kind in "TDBRCGSV":
            defines[member].add(name)
    return defines, needs


def loops_of(graph):
    """The loops of graph (node -> the nodes it reaches), each as its
    nodes in order, the first repeated at the end: one per back edge of a
    depth-first walk in name order.  includes.py shares it."""
    loops, state, stack = [], {}, []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                loops.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return loops


def main():
    defines, needs = members(sys.argv[1:])
    owner = {s: m for m, syms in defines.items() for s in syms}
    calls = {m: sorted({owner[s] for s in needs[m] if s in owner} - {m})
             for m in defines}
    if len(calls) < 2:
        print("circles.py: no members read from", " ".join(sys.argv[1:]))
        return 1
    loops = loops_of(calls)
    for loop in loops:
        print("loop: " + " -> ".join(loop))
    print("%d files, %d loops" % (len(calls), len(loops)))
    return 1 if loops else 0


if __name__ == "__main__":
    sys.exit(main())
