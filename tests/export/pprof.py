#!/usr/bin/env python3
"""pprof.py BINDIR FILE... - cg-export pprof read back by pprof itself
(go tool pprof -raw), for every event of each FILE that cg-validate
--compat --no-limits accepts, against figures the other commands give:

  P1  the samples of each event add up to its total (cg-funcs -T);
  P2  flat: the samples whose leaf is a function add up to its self cost
      (cg-funcs -C), exactly, for every function (ob, fl, fn);
  P3  per line: those samples at each line add up to the function's self
      cost at that line, the sum of its cost records there (cg-tsv),
      exactly;
  P4  cum: the samples that hold a function add up to what cg-fold's
      stacks that hold it add up to (cg-fold -q file -e EV), exactly, for
      each frame name no two functions share; cg-fold's stacks are held to
      cg-funcs' inclusive costs by the stack contract (contract.py);
  P5  the sample types are the events, in order, in their units
      (units(), below, written apart from the library's table): a time
      in nanoseconds, a size in bytes, the figures of P1-P4 the file's
      times the unit's scale (Xdebug's Time_(10ns): 10);
  P6  the period's type is the first sample type, the period its scale;
  P7  every function's name is the profile's as it is: pprof names no
      system name apart (it would have rewritten the name, as its
      symbolizer makes Python's <module> empty, "<unknown>").

pprof's output is parsed knowing the profile's functions: a location is
"NAME FILE:LINE" after its mapping (the object), which is split at the
one (fn, fl) of the profile that it spells; where pprof rewrote NAME,
the name written follows in parentheses (P7).  With --no-gzip the message is decoded the same.
Prints the failures and 'N passed, M failed' over (file, check); exit 77
without go.
"""
import collections, csv, io, os, re, shutil, string, subprocess, sys, tempfile, urllib.parse

GO = os.environ.get('GO', 'go')
ESC = {'\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r'}


def run(bindir, *args, binary=False):
    cmd = [os.path.join(bindir, args[0]), *args[1:]]
    r = subprocess.run(cmd, capture_output=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError('%s exit %d: %s' % (' '.join(args[:2]), r.returncode,
                                               r.stderr.decode(errors='replace')[:200]))
    return r.stdout if binary else r.stdout.decode('utf-8', errors='surrogateescape')


def table(text):
    rows = list(csv.reader(io.StringIO(text), delimiter='\t', quoting=csv.QUOTE_NONE))
    unesc = lambda c: re.sub(r'\\[\\tnr]', lambda m: ESC[m.group(0)], c)
    return rows[0], [dict(zip(rows[0], map(unesc, r))) for r in rows[1:]]


NS = {1: ('ns', 'nsec', 'nanosecond', 'nanoseconds'),
      10**3: ('us', 'usec', 'microsecond', 'microseconds', '\u00b5s', '\u03bcs'),
      10**6: ('ms', 'msec', 'millisecond', 'milliseconds'),
      10**9: ('s', 'sec', 'secs', 'second', 'seconds'),
      60 * 10**9: ('min', 'mins', 'minute', 'minutes'),
      3600 * 10**9: ('h', 'hr', 'hrs', 'hour', 'hours')}
BYTES = {1: ('b', 'byte', 'bytes'), 1 << 10: ('kb', 'kib', 'kilobyte', 'kilobytes'),
         1 << 20: ('mb', 'mib', 'megabyte', 'megabytes'),
         1 << 30: ('gb', 'gib', 'gigabyte', 'gigabytes'),
         1 << 40: ('tb', 'tib', 'terabyte', 'terabytes'),
         1 << 50: ('pb', 'pib', 'petabyte', 'petabytes')}
SPEEDSCOPE = [(10**9, 'seconds'), (10**6, 'milliseconds'), (10**3, 'microseconds'),
              (1, 'nanoseconds')]


def units(event, speedscope=False):
    """(name, unit, scale) of an event in pprof or speedscope: an event
    "NAME(UNIT)" or "NAME_(UNIT)", UNIT a whole number (1 if none) and a
    word; a time or a size in the format's unit, the figures scaled."""
    none = 'none' if speedscope else 'count'
    m = re.fullmatch(r'([^(]+)\((.+)\)', event, re.S)
    if not m:
        return event, none, 1
    name = m.group(1)[:-1] if len(m.group(1)) > 1 and m.group(1).endswith('_') else m.group(1)
    n = re.match(r'(\d+) ?', m.group(2))
    factor, word = (int(n.group(1)), m.group(2)[n.end():]) if n else (1, m.group(2))
    if factor == 0 or re.search(r'[0-9.]', word):
        return event, none, 1
    low = word.translate(str.maketrans(string.ascii_uppercase, string.ascii_lowercase))
    for table, unit in ((NS, 'nanoseconds'), (BYTES, 'bytes')):
        f = next((f for f, names in table.items() if low in names), None)
        if f is None:
            continue
        if not speedscope or unit == 'bytes':
            return name, unit, factor * f
        d, u = next((d, u) for d, u in SPEEDSCOPE if factor * f % d == 0)
        return name, u, factor * f // d
    if speedscope:
        return name, 'none', 1
    return name, word or 'count', factor


def accepted(bindir, path):
    return subprocess.run([os.path.join(bindir, 'cg-validate'), '--compat', '--no-limits', path],
                          capture_output=True, timeout=900).returncode == 0


LOC = re.compile(r'^\s*(\d+): 0x[0-9a-f]+ (?:M=(\d+) )?(.*):(\d+) s=(\d+)(?:\((.*)\))?$')
MAP = re.compile(r'^(\d+): 0x[0-9a-f]+/0x[0-9a-f]+/0x[0-9a-f]+ (.*?)  ?(\[.*)?$')


def decode(raw, funcs):
    """Sample types [(type, unit)], samples [(values, [function keys
    leaf first], [lines])], the period's (type, unit, period) and the
    locations whose name pprof rewrote, from pprof -raw; funcs:
    {(ob, fl, fn)}."""
    spelled, by_name = collections.defaultdict(set), collections.defaultdict(set)
    for ob, fl, fn in funcs:
        spelled[(ob, '%s %s' % (fn, fl))].add((ob, fl, fn))
        by_name[(ob, fn)].add((ob, fl, fn))
    lines = raw.split('\n')
    i = lines.index('Samples:')
    types = [tuple(t.replace('[dflt]', '').split('/')) for t in lines[i + 1].split()]
    head = dict(l.split(': ', 1) for l in lines[:i] if ': ' in l)
    period = tuple(head.get('PeriodType', '').rsplit(' ', 1)) + (head.get('Period'),)
    maps, locs, samples, renamed = {}, {}, [], []
    j = lines.index('Mappings')
    for line in lines[j + 1:]:
        m = MAP.match(line)
        if m:
            maps[m.group(1)] = m.group(2)
    k = lines.index('Locations')
    for line in lines[k + 1:j]:
        m = LOC.match(line)
        if not m:
            raise RuntimeError('pprof -raw location not read: %r' % line[:120])
        ob = maps.get(m.group(2), '') if m.group(2) else ''
        if m.group(6):
            # pprof rewrote the name, the name written (the system
            # name) follows in parentheses
            renamed.append(line.strip())
            owners = {f for f in by_name.get((ob, m.group(6)), ())
                      if m.group(3).endswith(' ' + f[1])}
        else:
            owners = spelled.get((ob, m.group(3)), set())
        if len(owners) != 1:
            raise RuntimeError('location %r names %d functions' % (line[:120], len(owners)))
        locs[m.group(1)] = (next(iter(owners)), int(m.group(4)))
    for line in lines[i + 2:k]:
        if not line.strip():
            continue
        vals, _, ids = line.partition(':')
        loc = [locs[x] for x in ids.split()]
        samples.append(([int(v) for v in vals.split()], [l[0] for l in loc], [l[1] for l in loc]))
    return types, samples, period, renamed


class Verdicts:
    def __init__(self):
        self.passed = self.failed = 0

    def say(self, name, bad, what):
        if not bad:
            self.passed += 1
            return
        self.failed += 1
        print('FAIL %s: %d %s' % (name, len(bad), what))
        for b in sorted(bad, key=str)[:5]:
            print('    %s' % (b,))


def base_key(fl, fn):
    return '%s:%s' % (os.path.basename(fl), fn)


def fold_holds(bindir, path, ev):
    holds = collections.Counter()
    for line in run(bindir, 'cg-fold', '--compat', '--no-limits', '-q', 'file', '-e', ev,
                    path).splitlines():
        stack, _, n = line.rpartition(' ')
        for k in set(urllib.parse.unquote(x, errors='surrogateescape') for x in stack.split(';')):
            holds[k] += int(n)
    return holds


def check(bindir, path, v, gzip=True):
    name = os.path.basename(path)
    head, rows = table(run(bindir, 'cg-funcs', '--compat', '--no-limits', '-C', path))
    events = [h for h in head[5:] if not h.endswith(':incl')]
    funcs = {(r['ob'], r['fl'], r['fn']): r for r in rows}
    _, tot = table(run(bindir, 'cg-funcs', '--compat', '--no-limits', '-T', path))
    th, tsv = table(run(bindir, 'cg-tsv', '--compat', '--no-limits', path))
    per_line = collections.Counter()
    for r in tsv:
        if r['kind'] == 'cost':
            for e in events:
                if r.get(e):
                    per_line[((r['ob'], r['fl'], r['fn']), r.get('line') or '0', e)] += int(r[e])
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, 'p.pb' + ('.gz' if gzip else ''))
        run(bindir, 'cg-export', 'pprof', '--compat', '--no-limits', '-o', out,
            *([] if gzip else ['--no-gzip']), path)
        r = subprocess.run([GO, 'tool', 'pprof', '-raw', out], capture_output=True, timeout=900,
                           env=dict(os.environ, HOME=d, PPROF_TMPDIR=d))
        if r.returncode != 0:
            raise RuntimeError('go tool pprof: ' + r.stderr.decode(errors='replace')[:200])
        types, samples, period, renamed = decode(
            r.stdout.decode('utf-8', errors='surrogateescape'), funcs)
    want = [units(e) for e in events]
    v.say(name + ' P5', [] if types == [w[:2] for w in want]
          else [('pprof', types), ('events', events)], 'sample types not the events')
    v.say(name + ' P6', [] if period == (want[0][0], want[0][1], str(want[0][2]))
          else [('pprof', period), ('want', want[0])], 'period not the first event\'s')
    v.say(name + ' P7', renamed, 'functions whose name pprof rewrote')
    shared = collections.Counter(base_key(fl, fn) for ob, fl, fn in funcs)
    for x, e in enumerate(events):
        scale = want[x][2]
        total = int({t['event']: t['total'] for t in tot}.get(e) or 0) * scale
        flat, cum, line_flat = collections.Counter(), collections.Counter(), collections.Counter()
        n = 0
        for vals, fr, ln in samples:
            c = vals[x]
            if c == 0:
                continue
            n += c
            flat[fr[0]] += c
            line_flat[(fr[0], str(ln[0]), e)] += c
            for k in set(base_key(f[1], f[2]) for f in fr):
                cum[k] += c
        tag = '%s %s' % (name, e)
        v.say(tag + ' P1', [] if n == total else [('samples %d' % n, 'total %d' % total)],
              'events whose samples do not add up to the total')
        bad = [(k, 'flat %d' % flat[k], 'self %s x %d' % (funcs[k][e] or 0, scale))
               for k in funcs if flat[k] != int(funcs[k][e] or 0) * scale]
        v.say(tag + ' P2', bad, 'functions whose flat is not their self cost')
        at = {k: c * scale for k, c in per_line.items() if k[2] == e and c > 0}
        got = {k: c for k, c in line_flat.items()}
        bad = [(k, 'pprof %d' % got.get(k, 0), 'cg-tsv %d' % at.get(k, 0))
               for k in set(at) | set(got) if got.get(k, 0) != at.get(k, 0)]
        v.say(tag + ' P3', bad, 'lines whose flat is not the self cost there')
        holds = fold_holds(bindir, path, e)
        bad = [(k, 'pprof cum %d' % cum[k], 'cg-fold %d x %d' % (holds[k], scale))
               for k in set(cum) | set(holds) if shared[k] == 1 and cum[k] != holds[k] * scale]
        v.say(tag + ' P4', bad, 'functions whose cum is not the stacks\' that hold them')


def main(argv):
    args = argv[1:]
    gzip = True
    if args and args[0] == '--no-gzip':
        gzip, args = False, args[1:]
    bindir, v, skipped = args[0], Verdicts(), 0
    if shutil.which(GO) is None:
        print('go is not installed: pprof cannot read the exports back')
        return 77
    for path in args[1:]:
        if not accepted(bindir, path):
            skipped += 1
            continue
        try:
            check(bindir, path, v, gzip)
        except RuntimeError as e:
            v.failed += 1
            print('FAIL %s: %s' % (os.path.basename(path), e))
    if v.passed + v.failed == 0:
        print('FAIL: no file checked (%d refused)' % skipped)
        v.failed = 1
    if skipped:
        print('%d refused by cg-validate --compat, not checked' % skipped)
    print('%d passed, %d failed' % (v.passed, v.failed))
    return 1 if v.failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
