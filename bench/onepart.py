#!/usr/bin/env python3
"""bench/onepart.py - one part holding N copies of a one-part recording's
body, each copy's functions named apart (NAME'K) and its compressed IDs
shifted, the summary: and totals: multiplied: a large profile whose parts
do not repeat one another, unlike big-*.cg's copies.

usage: python3 bench/onepart.py SRC N OUT
  e.g. python3 bench/onepart.py bench/data/cc1.cg 70 bench/data/onepart-256M.cg
"""
import re
import sys

NAMED = re.compile(r'^(ob|fl|fi|fe|fn|cob|cfi|cfl|cfn)=\((\d+)\)(?: (.*))?$')


def main():
    src, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = open(src).read().split('\n')
    first = next(i for i, l in enumerate(lines) if NAMED.match(l))
    last = next(i for i, l in enumerate(lines) if l.startswith('totals:'))
    total = int(lines[last].split()[1])
    with open(out, 'w') as f:
        for l in lines[:first]:
            if l.startswith('summary:'):
                l = 'summary: %d' % (total * n)
            f.write(l + '\n')
        for k in range(n):
            for l in lines[first:last]:
                m = NAMED.match(l)
                if m:
                    key, i, name = m.groups()
                    l = '%s=(%d)' % (key, int(i) + k * 1000000)
                    if name is not None:
                        if k and key in ('fn', 'cfn'):
                            name += "'%d" % k
                        l += ' ' + name
                f.write(l + '\n')
        f.write('totals: %d\n' % (total * n))


if __name__ == '__main__':
    main()
