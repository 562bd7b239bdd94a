#!/usr/bin/env python3
"""The sum that cg-merge must write, derived apart from its code.

usage: expect.py BINDIR [--compat] [--by-name] FILE...

Each FILE is read by cg-tsv (every record of every part, one row each) and
the rows are summed here by their identity: kind, ob, fl, fi, fn, the
positions every input has, and for a call cob, cfl, cfn and its target.
Prints one canonical line per identity (sorted), then the events in the
order first seen; run it on the inputs and on cg-merge's output alone, and
the two prints must be equal.  --by-name: each line's figures in the
order of the events' names, to compare merges of the inputs in any order.
"""
import subprocess
import sys

POSITIONS = ("instr", "bb", "line")


def rows(bindir, compat, path):
    """The header and rows of cg-tsv on one input."""
    cmd = [bindir + "/cg-tsv", "--quiet"] + (["--compat"] if compat else []) + [path]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    lines = out.decode("utf-8", "surrogateescape").split("\n")
    head = lines[0].split("\t")
    return head, [line.split("\t") for line in lines[1:] if line]


def expect(bindir, compat, by_name, files):
    """The canonical lines of the sum of the files' records."""
    tables = [rows(bindir, compat, f) for f in files]
    common = [p for p in POSITIONS if all(p in head for head, _ in tables)]
    events = []
    sums = {}
    for head, body in tables:
        col = {name: i for i, name in enumerate(head)}
        first_event = col["calls"] + 1 + sum(1 for h in head if h.startswith("target_"))
        names = head[first_event:]
        for ev in names:
            ev = ev[len("event:"):] if ev.startswith("event:") else ev
            if ev not in events:
                events.append(ev)
        for r in body:
            key = (r[col["kind"]], r[col["ob"]], r[col["fl"]], r[col["fi"]], r[col["fn"]],
                   tuple(r[col[p]] for p in common),
                   r[col["cob"]], r[col["cfl"]], r[col["cfn"]],
                   tuple(r[col["target_" + p]] for p in common))
            calls, costs = sums.get(key, (0, {}))
            calls += int(r[col["calls"]] or 0)
            for i, name in enumerate(names):
                name = name[len("event:"):] if name.startswith("event:") else name
                costs[name] = costs.get(name, 0) + int(r[first_event + i] or 0)
            sums[key] = (calls, costs)
    lines = []
    for key in sorted(sums):
        calls, costs = sums[key]
        order = sorted(events) if by_name else events
        figures = " ".join("%s=%d" % (e, costs.get(e, 0)) for e in order)
        lines.append("%r calls=%d %s" % (key, calls, figures))
    lines.append("events " + " ".join(events))
    return lines


def main():
    bindir, args = sys.argv[1], sys.argv[2:]
    files = [a for a in args if a not in ("--compat", "--by-name")]
    for line in expect(bindir, "--compat" in args, "--by-name" in args, files):
        print(line)


if __name__ == "__main__":
    main()
