#!/usr/bin/env python3
"""dot.py BINDIR FILE... - cg-dot's graph against cg-funcs's figures, read
from the two commands' outputs alone, for the first event, with every node
and edge drawn (-N 0 -E 0) and with the default thresholds:

  nodes   each node is a function (by its tooltip: name, file, object) with
          cg-funcs's inclusive and self shares (two decimals) and calls;
  edges   an edge with a share is an arc of cg-funcs -c (summed by caller
          and callee), with its share, and no more than its caller's
          inclusive share: no edge carries more than its caller costs;
  floats  a node that some other function calls with a cost has a drawn
          edge into it, unless it is a root (its callers carry less than
          its inclusive cost): no node floats.

Prints each failure with the node or edge and both figures, then
'N passed, M failed' over (file, graph, property); exit 1 on a failure."""
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from contract import table, run, Verdicts  # noqa: E402  (the same readers)


def dot_string(s, i):
    """The quoted DOT string at s[i] (a '"'): its lines, and the index
    after it.  cg-dot writes \\n between lines, \\" and \\\\ for
    themselves."""
    out, cur, i = [], [], i + 1
    while s[i] != '"':
        if s[i] == '\\':
            if s[i + 1] == 'n':
                out.append(''.join(cur))
                cur = []
            else:
                cur.append(s[i + 1])
            i += 2
            continue
        cur.append(s[i])
        i += 1
    out.append(''.join(cur))
    return out, i + 1


NODE = re.compile(r'^\t(n\d+) \[label=')
EDGE = re.compile(r'^\t(n\d+) -> (n\d+) \[label=')


def graph(text):
    nodes, edges = {}, []
    for line in text.splitlines():
        m = NODE.match(line)
        if m:
            label, at = dot_string(line, m.end())
            j = line.index('tooltip=', at) + len('tooltip=')
            tip, _ = dot_string(line, j)
            nodes[m.group(1)] = (tuple(tip[:3]), label)
            continue
        m = EDGE.match(line)
        if m:
            label, _ = dot_string(line, m.end())
            edges.append((m.group(1), m.group(2), label))
    return nodes, edges


def pct(x, total):
    return '%.2f%%' % (100.0 * x / total) if total else '0.00%'


def check(bindir, path, v, args, what):
    name = '%s (%s)' % (os.path.basename(path), what)
    head, rows = table(run(bindir, 'cg-funcs', path))
    ev = [c for c in head if c.endswith(':incl')][0][:-5]
    total = int(run(bindir, 'cg-funcs', '-T', path).splitlines()[1].split('\t')[-1])
    fig, cycle_of = {}, {}
    for r in rows:
        k = (r['fn'], r['fl'], r['ob'])
        fig[k] = (int(r[ev + ':incl'] or 0), int(r[ev] or 0), int(r['called']))
        if r['cycle'] and not r['fn'].startswith('<cycle '):
            cycle_of[k] = ('<cycle %s>' % r['cycle'], '', '')
    nodes, edges = graph(run(bindir, 'cg-dot', *args, path))
    # a cycle drawn as one node stands for its members that are not drawn
    # on their own: their arcs are its arcs
    for n, (key, label) in list(nodes.items()):
        if label[0].startswith('<cycle '):
            nodes[n] = ((label[0], '', ''), label)
    shown = {key for key, _ in nodes.values()}

    def unit(k):
        c = cycle_of.get(k)
        return c if c in shown and k not in shown else k
    _, arcs = table(run(bindir, 'cg-funcs', '-c', path))
    arc, into = collections.Counter(), collections.Counter()
    for a in arcs:
        x, y = unit((a['fn'], a['fl'], a['ob'])), unit((a['cfn'], a['cfl'], a['cob']))
        c = int(a[ev + ':incl'] or 0)
        if x == y and x[0].startswith('<cycle '):
            continue
        arc[(x, y)] += c
        if x != y:
            into[y] += c
    bad = []
    for n, (key, label) in sorted(nodes.items()):
        if key not in fig:
            bad.append((n, key, 'no such function'))
            continue
        incl, self_, called = fig[key]
        want = [pct(incl, total), '(%s)' % pct(self_, total), '%d×' % called]
        if label[-3:] != want:
            bad.append((key[0], 'drawn ' + ' '.join(label[-3:]), 'cg-funcs ' + ' '.join(want)))
    v.say(name + ' nodes', bad, 'nodes whose figures are not cg-funcs\'s')
    bad = []
    for a, b, label in edges:
        ka, kb = nodes[a][0], nodes[b][0]
        if len(label) < 2:
            continue  # calls alone: within a cycle, or dearer than its caller
        if label[0] != pct(arc[(ka, kb)], total):
            bad.append((ka[0], kb[0], 'drawn ' + label[0], 'cg-funcs -c ' + pct(arc[(ka, kb)], total)))
        elif arc[(ka, kb)] > fig[ka][0]:
            bad.append((ka[0], kb[0], 'drawn ' + label[0], 'caller inclusive ' + pct(fig[ka][0], total)))
    v.say(name + ' edges', bad, 'edges with another share than the arc\'s, or more than the caller\'s')
    reached = {b for a, b, _ in edges if a != b}
    bad = []
    for n, (key, _) in sorted(nodes.items()):
        incl = fig.get(key, (0, 0, 0))[0]
        root = into[key] == 0 or into[key] < incl
        if not root and n not in reached:
            bad.append((key[0], 'calls into it %d' % into[key], 'inclusive %d' % incl))
    v.say(name + ' floats', bad, 'nodes drawn without an edge into them though called')


def main(argv):
    bindir, files = argv[1], argv[2:]
    v = Verdicts()
    for path in files:
        for args, what in ((['-N', '0', '-E', '0'], 'all'), ([], 'default')):
            try:
                check(bindir, path, v, args, what)
            except RuntimeError as e:
                v.failed += 1
                print('FAIL %s: %s' % (os.path.basename(path), e))
    print('%d passed, %d failed' % (v.passed, v.failed))
    return 1 if v.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
