#!/usr/bin/env python3
"""speedscope.py BINDIR SRCDIR NPMDIR [FILE...] - cg-export speedscope
checked by speedscope itself (npm package speedscope, installed into
NPMDIR with puppeteer-core when it is not there yet):

  J1  every export of the FILEs (those cg-validate --compat --no-limits
      accepts) and of a profile of hostile names (tests/flame/hostile.sh)
      is valid against the file format's schema, shipped in the package
      (dist/release/file-format-schema.json; python3-jsonschema);
  J2  a profile per event and part, named EVENT or "EVENT, part P of N",
      in the event's unit (pprof.py's units(): a time in the largest of
      speedscope's units it is a whole number of, a size in bytes, else
      "none"); each one's weights add up to its part's total (cg-funcs -p
      -T) times the unit's scale, and per event the samples that end in a
      frame to its function's self cost (cg-funcs -C) times it, exactly;
      frames keep the names byte for byte;
  R1  speedscope's own page (served over HTTP, as it loads a profile by
      URL only from there) opens the example's export in headless
      Chromium: its title is the profile's name, and the sandwich view
      lists the heaviest functions with their self costs;
  R2  the hostile names are text there: none of their scripts runs, the
      page's title holds the first name literally; and a tampered export
      (a weight doubled) is seen to disagree, so that R1 can fail.
Exits 0, 1 with what failed, or 77 (skipped, saying why) without
Chromium, node or the packages.
"""
import collections, csv, functools, http.server, io, json, os, re, shutil, subprocess, sys
import tempfile, threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pprof import units  # noqa: E402 (beside this file)

SPEEDSCOPE, PUPPETEER = 'speedscope@1.25.0', 'puppeteer-core@23'


def skip(why):
    print('skipped: ' + why)
    sys.exit(77)


def packages(npmdir):
    mods = os.path.join(npmdir, 'node_modules')
    if not (os.path.isdir(os.path.join(mods, 'speedscope')) and
            os.path.isdir(os.path.join(mods, 'puppeteer-core'))):
        if shutil.which('npm') is None:
            skip('npm is not installed')
        os.makedirs(npmdir, exist_ok=True)
        r = subprocess.run(['npm', 'install', '--prefix', npmdir, '--no-audit', '--no-fund',
                            SPEEDSCOPE, PUPPETEER], capture_output=True, timeout=600,
                           env=dict(os.environ, PUPPETEER_SKIP_DOWNLOAD='1'))
        if r.returncode != 0:
            skip('npm install %s %s failed: %s' % (SPEEDSCOPE, PUPPETEER,
                                                   r.stderr.decode(errors='replace')[-300:]))
    return mods


def run(bindir, *args):
    """A command with --compat --no-limits (after cg-export's format)."""
    lead = 2 if args[0] == 'cg-export' else 1
    r = subprocess.run([os.path.join(bindir, args[0]), *args[1:lead], '--compat', '--no-limits',
                        *args[lead:]],
                       capture_output=True, timeout=900)
    if r.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (args[0], r.returncode, r.stderr.decode()[:200]))
    return r.stdout


def table(data):
    rows = list(csv.reader(io.StringIO(data.decode('utf-8', 'surrogateescape')),
                           delimiter='\t', quoting=csv.QUOTE_NONE))
    esc = {'\\\\': '\\', '\\t': '\t', '\\n': '\n', '\\r': '\r'}
    unesc = lambda c: re.sub(r'\\[\\tnr]', lambda m: esc[m.group(0)], c)
    return rows[0], [dict(zip(rows[0], map(unesc, r))) for r in rows[1:]]


def export(bindir, path, out):
    run(bindir, 'cg-export', 'speedscope', '-o', out, path)
    with open(out, encoding='utf-8') as f:
        return json.load(f)


def figures(bindir, path, doc):
    """J2's failures."""
    bad = []
    head, rows = table(run(bindir, 'cg-funcs', '-C', path))
    _, tot = table(run(bindir, 'cg-funcs', '-p', '-T', path))
    total = {(int(t['part']), t['event']): int(t['total'] or 0) for t in tot}
    parts = sorted({p for p, _ in total})
    events = [h for h in head[5:] if not h.endswith(':incl')]
    names = sorted(r['fn'] for r in rows)
    got = sorted(f['name'] for f in doc['shared']['frames'])
    if got != names:
        bad.append('frames are not the functions')
    # a profile per event and part, event by event
    want_names = [e if len(parts) == 1 else '%s, part %d of %d' % (e, p, len(parts))
                  for e in events for p in parts]
    if [p['name'] for p in doc['profiles']] != want_names:
        bad.append('profiles %s, want %s' % ([p['name'] for p in doc['profiles']][:4],
                                            want_names[:4]))
        return bad
    frames = doc['shared']['frames']
    ends = collections.defaultdict(collections.Counter)
    for k, p in enumerate(doc['profiles']):
        e, part = events[k // len(parts)], parts[k % len(parts)]
        _, unit, scale = units(e, speedscope=True)
        if p['unit'] != unit:
            bad.append('%s part %d: unit %s, want %s' % (e, part, p['unit'], unit))
        want = total[(part, e)] * scale
        if sum(p['weights']) != want or p['endValue'] != want:
            bad.append('%s part %d: weights %d, total %d x %d'
                       % (e, part, sum(p['weights']), total[(part, e)], scale))
        for st, w in zip(p['samples'], p['weights']):
            ends[e][(frames[st[-1]]['name'], frames[st[-1]].get('file', ''))] += w
    for e in events:
        want = collections.Counter()
        for r in rows:  # functions of one name and file in two objects: one frame key
            want[(r['fn'], r['fl'])] += int(r[e] or 0) * units(e, speedscope=True)[2]
        for k in set(want) | set(ends[e]):
            if ends[e][k] != want[k]:
                bad.append('%s %s: stacks end there %d, self %d' % (e, k, ends[e][k], want[k]))
    return bad


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(root):
    handler = functools.partial(Quiet, directory=root)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def render(mods, chromium, src, url):
    r = subprocess.run(['node', os.path.join(src, 'tests/export/render.mjs'), chromium, url],
                       capture_output=True, timeout=300, env=dict(os.environ, NODE_PATH=mods))
    if r.returncode != 0:
        raise RuntimeError('render.mjs: ' + r.stderr.decode(errors='replace')[-400:])
    return json.loads(r.stdout)


def sandwich(text):
    """(name, self) of each row of the sandwich view's table."""
    rows = []
    lines = text.split('\n')
    for i in range(len(lines) - 2):
        t, s, n = lines[i], lines[i + 1], lines[i + 2]
        m1 = re.match(r'^\t?([\d,]+) \(', t)
        m2 = re.match(r'^\t([\d,]+) \(', s)
        if m1 and m2 and n.startswith('\t'):
            rows.append((n[1:], int(m2.group(1).replace(',', ''))))
    return rows


def shown_right(doc, seen, name):
    """R1's failures: the title, and the heaviest rows' self costs."""
    bad = []
    if seen['title'] != name + ' - speedscope':
        bad.append('title %r' % seen['title'])
    if seen['errors']:
        bad.append('page errors: %s' % seen['errors'][:3])
    frames, p = doc['shared']['frames'], doc['profiles'][0]
    self_ = collections.Counter()
    for st, w in zip(p['samples'], p['weights']):
        self_[st[-1]] += w
    expect = collections.Counter((frames[i]['name'], c) for i, c in self_.items())
    rows = sandwich(seen['text'])
    if len(rows) < 5:
        bad.append('the sandwich view shows %d rows' % len(rows))
    for row in rows[:10]:
        if expect[row] == 0:
            bad.append('row %r is no frame\'s self cost' % (row,))
    return bad


def main(argv):
    bindir, src, npmdir, files = argv[1], argv[2], argv[3], argv[4:]
    chromium = next((shutil.which(n) for n in ('chromium', 'chromium-browser', 'google-chrome')
                     if shutil.which(n)), None)
    try:
        import jsonschema
    except ImportError:
        skip('python3-jsonschema is not installed')
    if shutil.which('node') is None:
        skip('node is not installed')
    mods = packages(npmdir)
    release = os.path.join(mods, 'speedscope', 'dist', 'release')
    with open(os.path.join(release, 'file-format-schema.json')) as f:
        schema = json.load(f)
    failed, checked = [], 0
    with tempfile.TemporaryDirectory() as d:
        hostile = os.path.join(d, 'hostile.cg')
        subprocess.run(['sh', os.path.join(src, 'tests/flame/hostile.sh'), hostile], check=True)
        example = os.path.join(src, 'examples/hanoi.callgrind')
        docs = {}
        for path in [example, hostile] + files:
            if subprocess.run([os.path.join(bindir, 'cg-validate'), '--compat', '--no-limits', path],
                              capture_output=True).returncode != 0:
                continue
            out = os.path.join(d, 'x%d.json' % len(docs))
            try:
                doc = export(bindir, path, out)
                jsonschema.validate(doc, schema)
                bad = figures(bindir, path, doc)
            except (RuntimeError, ValueError, jsonschema.ValidationError) as e:
                bad = [str(e)[:300]]
            checked += 1
            docs[path] = (doc if not bad else None, out)
            failed += ['%s: %s' % (os.path.basename(path), b) for b in bad]
        if chromium is None:
            print('%d exports valid and exact; chromium is not installed: nothing rendered' % checked)
            return 1 if failed else 0
        site = os.path.join(d, 'site')
        shutil.copytree(release, site)
        for i, path in enumerate([example, hostile]):
            shutil.copy(docs[path][1], os.path.join(site, 'p%d.json' % i))
        doc = json.load(open(docs[example][1]))
        tampered = json.loads(json.dumps(doc))
        heavy = max(range(len(doc['profiles'][0]['weights'])),
                    key=lambda k: doc['profiles'][0]['weights'][k])
        tampered['profiles'][0]['weights'][heavy] *= 2
        with open(os.path.join(site, 'p2.json'), 'w') as f:
            json.dump(tampered, f)
        server = serve(site)
        base = 'http://127.0.0.1:%d/index.html#view=sandwich&profileURL=' % server.server_port
        try:
            seen = render(mods, chromium, src, base + 'p0.json')
            failed += ['R1: ' + b for b in shown_right(doc, seen, doc['name'])]
            seen = render(mods, chromium, src, base + 'p2.json')
            if not shown_right(doc, seen, doc['name']):
                failed.append('R2: a tampered export looked right')
            seen = render(mods, chromium, src, base + 'p1.json')
            hdoc = json.load(open(docs[hostile][1]))
            if seen['pwned']:
                failed.append('R2: a hostile name\'s script ran')
            if seen['title'] != hdoc['name'] + ' - speedscope':
                failed.append('R2: title %r' % seen['title'])
            names = [f['name'] for f in hdoc['shared']['frames']]
            shown = [n for n in names if n in seen['text']]
            if len(shown) < 3:
                failed.append('R2: the hostile names are not shown as text: %d of %d'
                              % (len(shown), len(names)))
        except (RuntimeError, subprocess.TimeoutExpired, ValueError) as e:
            failed.append('render: %s' % e)
        finally:
            server.shutdown()
    for f in failed:
        print('FAIL ' + f)
    print('%d exports checked, %d failures' % (checked, len(failed)))
    return 1 if failed or checked < 2 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
