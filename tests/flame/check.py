#!/usr/bin/env python3
"""check.py - a cg-flame SVG against the stacks it was drawn from.

    check.py SVG NEW.folded [OLD.folded] [--funcs FUNCS.tsv] [--all]
    check.py --many < JOBS     (one job a line, its arguments TAB-separated)

NEW.folded (and, for a --diff graph, OLD.folded) are cg-fold's output for
the same profiles, event and -q; every figure below is derived from them
here, not read from cg-flame:
  - the SVG is well-formed XML with one script, which builds no markup;
  - each frame's path of names (through data-p) is a path of the stacks,
    and its title's counts are the stacks' sums through it (inclusive) and
    ending at it (self), per side; its percentage and change are those
    counts' (to two decimals);
  - nothing is lost: a frame's weight (its width) is its self cost plus
    its shown children's weights plus what its title says is not drawn,
    and the root's is the total; widths are in proportion to weights;
  - children stand left to right in the byte order of their names;
  - a --diff graph's fills: red for more, blue for less, grey for no
    change, as deep as the change's share of the largest;
  - with --all, every path of the stacks is a frame;
  - with --funcs (cg-funcs -H -e EV: fn in column 3, self in column 6),
    the self counts of each name's frames add up to cg-funcs's.
Prints what differs and exits 1, or exits 0.
"""
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'
PLOT_PAD = 10
problems = []


def bad(msg):
    problems.append(msg)


def shown_name(name):
    """A name as cg-flame writes it: controls as control pictures."""
    out = []
    for ch in name:
        c = ord(ch)
        if c < 0x20:
            out.append(chr(0x2400 + c))
        elif c == 0x7F:
            out.append('\u2421')
        elif c in (0xFFFE, 0xFFFF):
            out.append('\ufffd')
        else:
            out.append(ch)
    return ''.join(out)


def read_folded(path):
    """{path tuple: [incl, self]} from cg-fold's lines."""
    sums = {(): [0, 0]}
    unesc = {'3B': ';', '25': '%', '0D': '\r', '0A': '\n'}
    with open(path, 'rb') as f:
        for raw in f.read().decode('utf-8').split('\n'):
            if raw == '':
                continue
            stack, count = raw.rsplit(' ', 1)
            count = int(count)
            names = [shown_name(re.sub(r'%(3B|25|0D|0A)',
                                       lambda m: unesc[m.group(1)], s))
                     for s in stack.split(';')]
            sums[()][0] += count
            for k in range(1, len(names) + 1):
                sums.setdefault(tuple(names[:k]), [0, 0])[0] += count
            sums[tuple(names)][1] += count
    return sums


def pct(v, total):
    return '%.2f' % (100.0 * v / total if total else 0.0)


def main(argv):
    args = [a for a in argv if not a.startswith('--')]
    funcs = None
    if '--funcs' in argv:
        funcs = argv[argv.index('--funcs') + 1]
        args.remove(funcs)
    svg, new = args[0], read_folded(args[1])
    diff = len(args) > 2
    old = read_folded(args[2]) if diff else {}

    try:
        root = ET.parse(svg).getroot()
    except ET.ParseError as e:
        print('%s: not well-formed XML: %s' % (svg, e))
        return 1
    scripts = list(root.iter(NS + 'script'))
    if len(scripts) != 1:
        bad('%d scripts, not 1' % len(scripts))
    for s in scripts:
        for word in ('innerHTML', 'outerHTML', 'insertAdjacentHTML',
                     'document.write', 'eval(', 'Function('):
            if word in (s.text or ''):
                bad('the script uses ' + word)

    def side(sums, p):
        return sums.get(p, [0, 0])

    # every path's weight, as cgi_flame_finish(3) defines it
    paths = set(new) | set(old)
    weight, gone = {}, {}
    for p in sorted(paths, key=len, reverse=True):
        n, o = side(new, p)[0], side(old, p)[0]
        weight[p] = (n + gone.get(p, 0)) if n else o
        if p:
            gone[p[:-1]] = gone.get(p[:-1], 0) + (gone.get(p, 0) if n else o)

    frames = {}
    for g in root.iter(NS + 'g'):
        if not g.get('class', '').startswith('f'):
            continue
        fid, parent = g.get('id'), g.get('data-p')
        lines = g.find(NS + 'title').text.split('\n')
        rect = g.find(NS + 'rect')
        name = lines[0]
        if parent == '':
            path = ()
            if name != 'all':
                bad('the root is %r, not all' % name)
        else:
            pf = frames.get('f' + parent)
            if pf is None:
                bad('%s: parent f%s is not before it' % (fid, parent))
                continue
            path = pf['path'] + (name,)
        m = re.search(r'self(?:: old \d+, new|) (\d+)$', '\n'.join(lines[1:3]),
                      re.M)
        frames[fid] = {'path': path, 'lines': lines, 'parent': parent,
                       'self': int(m.group(1)) if m else -1,
                       'x': float(rect.get('x')),
                       'w': float(rect.get('width')), 'fill': rect.get('fill'),
                       'cls': g.get('class'), 'kids': []}
        if parent != '':
            frames['f' + parent]['kids'].append(fid)
    if 'f0' not in frames:
        bad('no root frame')
        return report()

    total_w = weight[()]
    plotw = frames['f0']['w']
    maxd = max(abs(side(new, f['path'])[0] - side(old, f['path'])[0])
               for f in frames.values())
    seen = set()
    for fid, f in frames.items():
        p = f['path']
        seen.add(p)
        if p not in paths:
            bad('%s: %r is no path of the stacks' % (fid, p))
            continue
        (ni, ns), (oi, os_) = side(new, p), side(old, p)
        lines = f['lines']
        hidden = 0
        m = re.fullmatch(r'not drawn: (\d+) in (\d+) frames? narrower than '
                         r'[0-9.e+-]+ px \(([0-9.]+)%\)', lines[-1])
        if m:
            hidden = int(m.group(1))
            if m.group(3) != pct(hidden, total_w):
                bad('%s: hidden share %s' % (fid, lines[-1]))
        if not diff:
            want = '%s (%s%%), self %d' % (ni, pct(ni, new[()][0]), ns)
            if not lines[1].endswith(': ' + want):
                bad('%s %r: %r, want %r' % (fid, p, lines[1], want))
        else:
            d = ni - oi
            sign = '+' if d > 0 else '-' if d < 0 else ''
            rel = 'new' if oi == 0 else sign + pct(abs(d), oi) + '%'
            want = 'old %d, new %d, change %s%d (%s)%s' % (
                oi, ni, sign, abs(d), rel,
                '' if not p or (oi and ni) else
                ', only in OLD' if oi else ', only in NEW')
            if not lines[1].endswith(': ' + want):
                bad('%s %r: %r, want %r' % (fid, p, lines[1], want))
            if lines[2] != 'self: old %d, new %d' % (os_, ns):
                bad('%s %r: %r' % (fid, p, lines[2]))
            if ('gone' in f['cls'].split()) != (ni == 0):
                bad('%s %r: class %r' % (fid, p, f['cls']))
            rgb = tuple(int(v) for v in
                        re.fullmatch(r'rgb\((\d+),(\d+),(\d+)\)',
                                     f['fill']).groups())
            v = 230 - int(200 * abs(d) / maxd + 0.5) if maxd else 230
            want_rgb = ((224, 224, 224) if d == 0 else
                        (255, v, v) if d > 0 else (v, v, 255))
            if rgb != want_rgb:
                bad('%s %r: fill %r, want %r' % (fid, p, rgb, want_rgb))
        own = ns if ni else os_
        kids = sum(weight[frames[k]['path']] for k in f['kids']
                   if frames[k]['path'] in weight)
        if weight[p] != own + kids + hidden:
            bad('%s %r: weight %d != self %d + children %d + not drawn %d'
                % (fid, p, weight[p], own, kids, hidden))
        want_w = plotw * weight[p] / total_w if total_w else 0
        if p and abs(f['w'] - want_w) > 0.011:
            bad('%s %r: width %.2f, want %.2f' % (fid, p, f['w'], want_w))
        names = [frames[k]['path'][-1].encode('utf-8') for k in f['kids']]
        xs = [frames[k]['x'] for k in f['kids']]
        if names != sorted(names) or xs != sorted(xs):
            bad('%s %r: children out of order' % (fid, p))
    if '--all' in argv and seen != paths:
        bad('paths not drawn: %r' % sorted(paths - seen)[:5])

    if funcs:
        want = {}
        with open(funcs, encoding='utf-8') as f:
            for row in f.read().split('\n'):
                if row:
                    cols = row.split('\t')
                    want[shown_name(cols[2])] = (want.get(shown_name(cols[2]), 0)
                                                 + int(cols[5]))
        got = {}
        for f in frames.values():
            if f['path']:
                got[f['path'][-1]] = (got.get(f['path'][-1], 0) +
                                      f['self'])
        want = {k: v for k, v in want.items() if v}
        got = {k: v for k, v in got.items() if v}
        if want != got:
            bad('self per function: %r' % sorted(
                set(want.items()) ^ set(got.items()))[:6])
    return report()


def report():
    for p in problems[:20]:
        print(p)
    return 1 if problems else 0


def many():
    """Each line's job (one start of Python for many files)."""
    status = 0
    for line in sys.stdin.read().split('\n'):
        if line:
            del problems[:]
            if main(line.split('\t')) != 0:
                print('in: ' + line.replace('\t', ' '))
                status = 1
    return status


if __name__ == '__main__':
    sys.exit(many() if sys.argv[1:] == ['--many'] else main(sys.argv[1:]))
