#!/usr/bin/env python3
"""contract.py BINDIR FILE... - the stack contract (cg-fold(1)) checked on
each FILE from the outputs of the commands alone, for the first event
(--every-event: for each event of the file in turn):

  cg-funcs -C            self, inclusive, cycle of each function (summed)
  cg-funcs -c -p         the arcs of each part
  cg-funcs -T            the total
  cg-fold -q file        the stacks (frames base-name-of-file:function)

S1  the counts add up to the total, exactly;
S2  the stacks that end in f add up to self(f), exactly;
S3  for f in no cycle, the stacks that hold f (each once) add up to
    incl(f) within 0.1% of the total + 1% of incl(f) + what the file
    lacks below f: for f and every function its arcs reach, on the graph
    summed over parts, what the calls into it carry beyond its self cost
    plus the calls it makes.  Exempt (listed with -v): the calls into f
    carry more than incl(f), a caller of f in no cycle hands its callees
    more than its inclusive cost less its self cost, or f hands a callee
    more than that callee's inclusive cost (pprof's -call_tree output);
S4  for any f, the stacks that hold f add up to at most the calls into f
    from other functions, or its self cost where that is more (S2 draws
    all of it); the total where f is a root (nothing calls it, or its
    callers carry less than incl(f)); + 0.1% of the total;
S5  for each caller;callee pair in a stack (caller != callee), the
    stacks add up, once per pair, to at most the arc's cost + 0.1% of
    the total.

contract.py --diff BINDIR OLD NEW [OPTION...]: D1, the differential
flame graph (cg-flame --diff -q file --minwidth 0) draws each function in
no cycle on either side with the change cg-diff gives its inclusive cost,
within 0.1% of the larger total + 1% of the larger inclusive cost + what
each side lacks below it (as in S3); D2, both match functions alike:
where cg-diff pairs no function of a file and name, no frame of that
file and name, nor (without -q) of that name where cg-diff pairs none of
it, holds cost of both sides.  The OPTIONs (--mod-ob and the like) go to
both commands.

contract.py --accepted BINDIR FILE...: the same on the files that
cg-validate --compat --no-limits accepts, the others skipped (and
counted); none checked is a failure.

contract.py --break NAME ...: the same with a deliberately broken stack
estimate substituted (the checker's own test, see tests/CMakeLists.txt):
NAME is one of 'swap' (the last frames of the heaviest stack swapped),
'merge' (every stack cut to its first two frames) or 'inflate' (the
heaviest stack counted twice, the root's share taken from the rest).

Frames whose key (file base name and function) several functions share
are left out, and said.  Prints each failure with the function and both
figures, then 'N passed, M failed' over (file, property); exit 1 on a
failure."""
import collections
import os
import re
import subprocess
import sys
import urllib.parse

verbose = False
broken = None


def run(bindir, *args):
    r = subprocess.run([os.path.join(bindir, args[0]), '--compat', '--no-limits',
                        *args[1:]], capture_output=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError('%s exit %d: %s' % (args[0], r.returncode,
                                               r.stderr.decode(errors='replace')[:200]))
    return r.stdout.decode('utf-8', errors='surrogateescape')


UNESC = {'\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r'}


def cells(line):
    return [re.sub(r'\\[\\tnr]', lambda m: UNESC[m.group(0)], c)
            for c in line.split('\t')]


def table(text):
    lines = text.splitlines()
    head = cells(lines[0])
    return head, [dict(zip(head, cells(line))) for line in lines[1:]]


def key(fl, fn):
    return os.path.basename(fl) + ':' + fn


class Profile:
    """The figures of one file, by frame key."""

    def __init__(self, bindir, path, ev=None):
        head, rows = table(run(bindir, 'cg-funcs', '-C', path))
        self.events = [c[:-5] for c in head if c.endswith(':incl')]
        self.ev = ev if ev is not None else self.events[0]
        owners = collections.defaultdict(set)
        for r in rows:
            owners[key(r['fl'], r['fn'])].add((r['ob'], r['fl'], r['fn']))
        self.shared = {k for k, o in owners.items() if len(o) > 1}
        self.self_ = collections.Counter()
        self.incl = collections.Counter()
        self.cycle = {}
        for r in rows:
            k = key(r['fl'], r['fn'])
            if k in self.shared:
                continue
            self.self_[k] = int(r[self.ev] or 0)
            self.incl[k] = int(r[self.ev + ':incl'] or 0)
            self.cycle[k] = r['cycle']
        _, totals = table(run(bindir, 'cg-funcs', '-T', path))
        self.total = int([t['total'] for t in totals if t['event'] == self.ev][0])
        _, arcs = table(run(bindir, 'cg-funcs', '-c', '-p', path))
        self.parts = collections.defaultdict(list)
        self.arc = collections.Counter()
        self.into = collections.Counter()
        for a in arcs:
            ka, kb = key(a['fl'], a['fn']), key(a['cfl'], a['cfn'])
            c = int(a[self.ev + ':incl'] or 0)
            if ka == kb or c == 0:
                continue
            self.parts[a['part']].append((ka, kb, c))
            if ka in self.shared or kb in self.shared:
                continue
            self.arc[(ka, kb)] += c
            self.into[kb] += c
        _, prow = table(run(bindir, 'cg-funcs', '-C', '-p', path))
        self.pself = collections.defaultdict(collections.Counter)
        for r in prow:
            self.pself[r['part']][key(r['fl'], r['fn'])] += int(r[self.ev] or 0)
        self.lack = self.lacking()

    def lacking(self):
        """Per function, what the file lacks at or below it: over f and
        every function its arcs reach, on the graph summed over parts, the
        calls into a function beyond its self cost and the calls out of
        it (no stack can draw cost the file never placed)."""
        into, out, own = collections.Counter(), collections.Counter(), collections.Counter()
        up = collections.defaultdict(set)
        # a key several functions share stands for them all here:
        # summed, their shortfall is at most the sum of theirs
        for p in self.pself.values():
            own.update(p)
        for arcs in self.parts.values():
            for ka, kb, c in arcs:
                into[kb] += c
                out[ka] += c
                up[kb].add(ka)
        lack = collections.Counter()
        for g in into:
            d = into[g] - own[g] - out[g]
            if d <= 0:
                continue
            # g and every function whose arcs reach it
            seen, todo = {g}, [g]
            while todo:
                for caller in up[todo.pop()]:
                    if caller not in seen:
                        seen.add(caller)
                        todo.append(caller)
            for k in seen:
                lack[k] += d
        return lack


def folded(bindir, path, ev):
    text = run(bindir, 'cg-fold', '-q', 'file', '-e', ev, path)
    stacks = []
    for line in text.splitlines():
        stack, _, n = line.rpartition(' ')
        stacks.append(([urllib.parse.unquote(x, errors='surrogateescape')
                        for x in stack.split(';')], int(n)))
    return sabotage(stacks) if broken else stacks


def sabotage(stacks):
    """A deliberately wrong estimate, to show that the checks can fail."""
    stacks = sorted(stacks, key=lambda s: -s[1])
    if broken == 'swap':
        for i, (fr, n) in enumerate(stacks):
            if len(fr) >= 2 and fr[-1] != fr[-2]:
                stacks[i] = (fr[:-2] + [fr[-1], fr[-2]], n)
                break
    elif broken == 'merge':
        stacks = [(fr[:2], n) for fr, n in stacks]
    elif broken == 'inflate':
        fr, n = stacks[0]
        stacks[0] = (fr, 2 * n)
        stacks = [(f, c) for f, c in stacks if c > 0]
    return stacks


def measure(stacks):
    ends, holds, pairs, n = collections.Counter(), collections.Counter(), collections.Counter(), 0
    for fr, c in stacks:
        n += c
        ends[fr[-1]] += c
        for k in set(fr):
            holds[k] += c
        for a, b in zip(fr, fr[1:]):
            if a != b:
                pairs[(a, b)] += c
    return n, ends, holds, pairs


class Verdicts:
    def __init__(self):
        self.passed = self.failed = 0
        self.worst = (0.0, 'none: every function in no cycle drawn at its inclusive cost, '
                      'to the unit or by what the file lacks below it')

    def say(self, name, bad, what):
        if not bad:
            self.passed += 1
            return
        self.failed += 1
        print('FAIL %s: %d %s' % (name, len(bad), what))
        for b in bad[:5]:
            print('    %s' % (b,))


def exemptions(pr):
    """S3's exemptions, each with the figures that prove it."""
    out = {}
    callers, callees = collections.defaultdict(set), collections.defaultdict(set)
    handed = collections.Counter()
    for (a, b), c in pr.arc.items():
        callers[b].add(a)
        callees[a].add(b)
        handed[a] += c
    for k in pr.incl:
        if pr.cycle.get(k):
            continue  # S3 is not asked of a cycle's members
        if pr.into[k] > pr.incl[k]:
            out[k] = 'calls into it carry %d > its inclusive %d' % (pr.into[k], pr.incl[k])
            continue
        for c in sorted(callers[k]):
            if not pr.cycle.get(c) and handed[c] > pr.incl[c] - pr.self_[c]:
                out[k] = 'its caller %s hands out %d > its inclusive %d - self %d' % (
                    c, handed[c], pr.incl[c], pr.self_[c])
                break
        if k in out:
            continue
        for g in sorted(callees[k]):
            if pr.arc[(k, g)] > pr.incl[g]:
                out[k] = 'it hands %s %d > that one\'s inclusive %d' % (g, pr.arc[(k, g)], pr.incl[g])
                break
    return out


def check(bindir, path, v, ev=None):
    pr = Profile(bindir, path, ev)
    name = os.path.basename(path) + ('' if ev is None else ' ' + ev)
    n, ends, holds, pairs = measure(folded(bindir, path, pr.ev))
    tol = 0.001 * pr.total
    v.say(name + ' S1', [] if n == pr.total else [('counts %d' % n, 'total %d' % pr.total)],
          'stacks that do not add up to the total')
    bad = [(k, 'stacks end there %d' % ends[k], 'self %d' % pr.self_[k])
           for k in sorted(set(ends) | set(pr.self_))
           if k not in pr.shared and ends[k] != pr.self_[k]]
    v.say(name + ' S2', bad, 'functions whose stacks do not end with their self cost')
    exempt = exemptions(pr)
    bad = []
    for k in sorted(pr.incl):
        if pr.cycle.get(k) or k in exempt:
            continue
        slack = tol + 0.01 * pr.incl[k] + pr.lack[k]
        gap = abs(holds[k] - pr.incl[k]) - pr.lack[k]
        if pr.total and gap > 0 and gap / pr.total > v.worst[0]:
            v.worst = (gap / pr.total, '%s %s: drawn %d, inclusive %d, %d of it unexplained '
                       'by what the file lacks below it' % (name, k, holds[k], pr.incl[k], gap))
        if abs(holds[k] - pr.incl[k]) > slack:
            bad.append((k, 'drawn %d' % holds[k], 'inclusive %d' % pr.incl[k],
                        'slack %.0f' % slack))
    bad.sort(key=lambda b: b[0])
    v.say(name + ' S3', bad, 'functions in no cycle drawn other than their inclusive cost')
    if verbose:
        for k in sorted(exempt):
            print('  exempt from S3 %s: %s: %s' % (name, k, exempt[k]))
        for k in sorted(pr.lack):
            if pr.lack[k] and not pr.cycle.get(k):
                print('  slack of S3 %s: %s: the file lacks %d below it' % (name, k, pr.lack[k]))
    bad = []
    for k in sorted(holds):
        if k in pr.shared:
            continue
        root = pr.into[k] == 0 or pr.into[k] < pr.incl[k]
        # S2 draws all of a self cost the calls into f fall short of
        bound = pr.total if root else max(pr.into[k], pr.self_[k])
        if holds[k] > bound + tol:
            bad.append((k, 'drawn %d' % holds[k], ('total %d' if root else 'calls into it %d') % bound))
    v.say(name + ' S4', bad, 'functions drawn wider than what reaches them')
    bad = [(p, 'drawn %d' % pairs[p], 'arc %d' % pr.arc[p]) for p in sorted(pairs)
           if not set(p) & pr.shared and pairs[p] > pr.arc[p] + tol]
    v.say(name + ' S5', bad, 'caller;callee pairs drawn wider than the arc')


FRAME = re.compile(r'<g class="f[^"]*" id="f\d+" data-p="(\d*)"><title>([^\n<]*)\n'
                   r'[^:<]*: old (\d+), new (\d+)')


def unxml(s):
    return (s.replace('&lt;', '<').replace('&gt;', '>').replace('&quot;', '"')
            .replace('&#39;', "'").replace('&amp;', '&'))


def both_sides(svg):
    """{frame name: number of its frames with cost of both sides}."""
    both = collections.Counter()
    for m in FRAME.finditer(svg):
        if m.group(1) != '':
            both[unxml(m.group(2))] += int(m.group(3)) > 0 and int(m.group(4)) > 0
    return both


def check_match(bindir, old, new, opts, rows, svg, name, v):
    paired = set(), set()
    for r in rows:
        if r['status'] in ('changed', 'same'):
            paired[0].add(key(r['fl'], r['fn']))
            paired[1].add(r['fn'])
    plain = run(bindir, 'cg-flame', '--diff', '--minwidth', '0', *opts, old, new)
    bad = []
    for i, drawn in enumerate((both_sides(svg), both_sides(plain))):
        bad += [(k, '%d frames of both sides' % n, 'cg-diff pairs none')
                for k, n in sorted(drawn.items()) if n and k not in paired[i]]
    v.say(name + ' D2', bad, 'frames matched where cg-diff pairs nothing')


def check_diff(bindir, old, new, v, opts=()):
    name = '%s -> %s' % (os.path.basename(old), os.path.basename(new))
    po, pn = Profile(bindir, old), Profile(bindir, new)
    svg = run(bindir, 'cg-flame', '--diff', '-q', 'file', '--minwidth', '0', *opts, old, new)
    drawn = collections.Counter()
    for m in FRAME.finditer(svg):
        if m.group(1) == '':
            continue  # the root frame, "all"
        drawn[unxml(m.group(2))] += int(m.group(4)) - int(m.group(3))
    head, rows = table(run(bindir, 'cg-diff', '-a', '-e', pn.ev, *opts, old, new))
    check_match(bindir, old, new, opts, rows, svg, name, v)
    delta = collections.Counter()
    for r in rows:
        # a function that pairs with nothing is drawn apart from one of
        # its file and name on the other side: their changes add up
        delta[key(r['fl'], r['fn'])] += int(r[pn.ev + ':incl:delta'] or 0)
    tol = 0.001 * max(po.total, pn.total)
    bad = []
    for k in sorted(delta):
        if po.cycle.get(k) or pn.cycle.get(k) or k in po.shared or k in pn.shared:
            continue
        if k not in po.incl and k not in pn.incl:
            continue
        slack = tol + 0.01 * max(po.incl[k], pn.incl[k]) + po.lack[k] + pn.lack[k]
        if abs(drawn[k] - delta[k]) > slack:
            bad.append((k, 'drawn %+d' % drawn[k], 'cg-diff %+d' % delta[k]))
    v.say(name + ' D1', bad, 'functions whose drawn change is not cg-diff\'s')


def accepted(bindir, path):
    return subprocess.run([os.path.join(bindir, 'cg-validate'), '--compat', '--no-limits',
                           path], capture_output=True, timeout=900).returncode == 0


def main(argv):
    global verbose, broken
    args = argv[1:]
    only_accepted = False
    if args and args[0] == '-v':
        verbose = True
        args = args[1:]
    if args and args[0] == '--break':
        broken = args[1]
        args = args[2:]
    if args and args[0] == '--accepted':
        only_accepted = True
        args = args[1:]
    every_event = bool(args) and args[0] == '--every-event'
    if every_event:
        args = args[1:]
    v = Verdicts()
    if args and args[0] == '--diff':
        bindir, old, new = args[1:4]
        check_diff(bindir, old, new, v, args[4:])
    else:
        bindir, skipped = args[0], 0
        for path in args[1:]:
            if only_accepted and not accepted(bindir, path):
                skipped += 1
                continue
            try:
                if every_event:
                    for ev in Profile(bindir, path).events:
                        check(bindir, path, v, ev)
                else:
                    check(bindir, path, v)
            except RuntimeError as e:
                v.failed += 1
                print('FAIL %s: %s' % (os.path.basename(path), e))
        if v.passed + v.failed == 0:
            print('FAIL: no file checked (%d refused)' % skipped)
            v.failed += 1
        if skipped:
            print('%d refused by cg-validate --compat, not checked' % skipped)
        print('worst S3 slack used: %.4f%% of the total, %s' % (100 * v.worst[0], v.worst[1]))
    print('%d passed, %d failed' % (v.passed, v.failed))
    return 1 if v.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
