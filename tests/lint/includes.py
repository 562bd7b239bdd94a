#!/usr/bin/env python3
"""includes.py DIR... - no two files of the sources under the DIRs depend
on each other through their headers: a file and its header (x.c, x.h in
one folder) are one node, each #include "NAME" an edge to NAME's node
(NAME looked up beside the file, then in every folder under the DIRs),
and the graph must have no cycle.  A loop here is one that nm cannot see:
an inline function of a header that calls back into the file that uses it
(circles.py checks the calls between object files).  Prints each loop
found; exit 1 if there is one."""
import os
import re
import sys

from circles import loops_of

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def sources(dirs):
    found = []
    for d in dirs:
        for root, _, files in os.walk(d):
            found += [os.path.join(root, f) for f in files
                      if f.endswith((".c", ".h"))]
    return sorted(found)


def main():
    files = sources(sys.argv[1:])
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f), []).append(f)

    def node(path):
        return os.path.splitext(path)[0]

    def resolve(f, name):
        beside = os.path.join(os.path.dirname(f), name)
        if os.path.exists(beside):
            return beside
        hits = by_name.get(os.path.basename(name), [])
        return hits[0] if len(hits) == 1 else None

    edges = {}
    for f in files:
        here = node(f)
        edges.setdefault(here, set())
        with open(f, encoding="utf-8") as src:
            for line in src:
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(f, m.group(1))
                if target is not None and node(target) != here:
                    edges[here].add(node(target))
    if len(edges) < 2:
        print("includes.py: no sources under", " ".join(sys.argv[1:]))
        return 1
    loops = loops_of(edges)
    for loop in loops:
        print("loop: " + " -> ".join(os.path.relpath(n) for n in loop))
    print("%d files, %d loops" % (len(edges), len(loops)))
    return 1 if loops else 0


if __name__ == "__main__":
    sys.exit(main())
