#!/usr/bin/env python3
"""engines.py ENGINE BINDIR SRCDIR BUILDDIR NPMDIR - cg-rows' CSV loaded
into a real engine with the DDL that cmake --install puts under
share/cgprof/sql/, and read back exactly.  ENGINE is sqlite (the sqlite3
command, as .import loads it), duckdb (@duckdb/node-api, COPY FROM) or
clickhouse (ClickHouse's engine in process, npm package chdb: INSERT INTO
... FORMAT CSVWithNames); the npm packages are installed into NPMDIR when
they are not there.

The profiles come from several producers (Valgrind recordings of the
corpus, Xdebug, one of them gzip-compressed, cProfile through
pyprof2calltree, Go's pprof) and a profile of hostile names, with a name
that needs CSV quoting, in two label sets (release 1 and 2).  Checked:

  E1  each table holds exactly the rows of cg-funcs -C, cg-funcs -c and
      cg-fold per profile and event (multisets of rows, every cell);
  E2  the hostile names round-trip byte for byte (hex() in the engine
      against the bytes written to the profile);
  E3  SUM over the profiles of each function's self cost and calls into
      it, and of each arc's calls and inclusive cost, equals cg-merge of
      the profiles that have the event, then cg-funcs (-c);
  E4  a filter on a label returns the rows of that label's profiles;
  E5  the fleet flame graph: stacks summed in SQL (the man page's query)
      are the sums of every profile's cg-fold stacks, and cg-flame
      --folded draws them with the SQL total as its width
      (tests/flame/check.py checks the rest of the SVG);
  E6  the man page's other queries (top functions, one release against
      the other) give what Python computes from cgprof's own figures;
  E7  a profile named by bytes that are not UTF-8: SQLite and ClickHouse
      keep them in the profile column, DuckDB refuses the file.

Prints the engine's version and load times, what failed, and exits 0, 1,
or 77 (skipped, saying why) when the engine cannot be had.
"""
import collections
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'rows'))
import compare  # noqa: E402  (cg-funcs' and cg-fold's figures per profile)

PACKAGES = {'duckdb': '@duckdb/node-api@1.5.6-r.1', 'clickhouse': 'chdb@3.4.0'}
MODULES = {'duckdb': '@duckdb/node-api', 'clickhouse': 'chdb'}
TABLES = {
    'functions': 'profile, labels, event, ob, fl, fn, called, self, inclusive',
    'calls': 'profile, labels, event, ob, fl, fn, cob, cfl, cfn, calls, inclusive',
    'stacks': 'profile, labels, event, stack, value',
}
NOTE = 'a "quoted", back\\slash; caf\u00e9'
HOSTILE = [  # names of the hostile profile, as bytes
    b'comma, "quote" and \\N', b'tab\there', b'back\\slash\\', b"'single",
    b'#hash', b'semi;colon 100% %3B', b'cr\rinside', b'caf\xc3\xa9 \xe2\x80\xae \xf0\x9f\x94\xa5',
    b'ctl\x01\x1b\x7fend', b'</script><script>alert(1)</script>', b'\\N',
]
problems = []


def skip(why):
    print('skipped: ' + why)
    sys.exit(77)


def bad(msg):
    problems.append(msg)


def packages(engine, npmdir):
    mods = os.path.join(npmdir, 'node_modules')
    if shutil.which('node') is None:
        skip('node is not installed')
    if not os.path.isdir(os.path.join(mods, MODULES[engine])):
        if shutil.which('npm') is None:
            skip('npm is not installed')
        os.makedirs(npmdir, exist_ok=True)
        r = subprocess.run(['npm', 'install', '--prefix', npmdir, '--no-audit', '--no-fund',
                            PACKAGES[engine]], capture_output=True, timeout=1200)
        if r.returncode != 0:
            skip('npm install %s failed: %s' % (PACKAGES[engine],
                                                r.stderr.decode(errors='replace')[-300:]))
    return mods


def install(builddir, prefix):
    """The DDL files as cmake --install puts them."""
    r = subprocess.run(['cmake', '--install', builddir, '--prefix', prefix],
                       capture_output=True, timeout=300)
    if r.returncode != 0:
        raise SystemExit('cmake --install: ' + r.stderr.decode(errors='replace'))
    return os.path.join(prefix, 'share', 'cgprof', 'sql')


def hostile_profile(path):
    """main calls each hostile name, which costs 10 * its place."""
    lines = [b'events: Ir', b'fn=main', b'1 5']
    for k, name in enumerate(HOSTILE, 1):
        lines += [b'cfn=' + name, b'calls=%d 1' % k, b'2 %d' % (10 * k)]
    for k, name in enumerate(HOSTILE, 1):
        lines += [b'fn=' + name, b'3 %d' % (10 * k)]
    with open(path, 'wb') as f:
        f.write(b'\n'.join(lines) + b'\n')


def profiles(src, work):
    """{group: [name]}, the files copied under work with their names."""
    vg, tp = os.path.join(src, 'tests', 'corpus', 'valgrind'), os.path.join(src, 'tests', 'corpus', 'thirdparty')
    copies = {
        'valgrind/hanoi.callgrind': os.path.join(src, 'examples', 'hanoi.callgrind'),
        'valgrind/v07-inline.callgrind': os.path.join(vg, 'v07-inline-default.callgrind'),
        'valgrind/v15-threads.callgrind': os.path.join(vg, 'v15-threads-separate-combined.callgrind'),
        'valgrind/v19-everybb.callgrind': os.path.join(vg, 'v19-hanoi-combine-everybb.callgrind'),
        'valgrind/v24-toggle.callgrind': os.path.join(vg, 'v24-inline-toggle-collect.callgrind'),
        'valgrind/v30-thread2.callgrind': os.path.join(vg, 'v30-threads-separate-thread2.callgrind'),
        'xdebug/wordpress.out': os.path.join(tp, 'xdebug294_wordpress-excerpt.out'),
        'xdebug/windler.cachegrind': os.path.join(tp, 'windler_xdebug260.cachegrind'),
        'xdebug/webgrind-small.cg': os.path.join(tp, 'webgrind_xdebug096_small.cg'),
        'cprofile/rosalind.callgrind.out': os.path.join(tp, 'pyprof2calltree_tiny_rosalind.callgrind.out'),
        'go/pprof.cpu.callgrind': os.path.join(tp, 'gopprof_pprof.cpu.callgrind'),
    }
    for name, path in copies.items():
        os.makedirs(os.path.join(work, os.path.dirname(name)), exist_ok=True)
        shutil.copyfile(path, os.path.join(work, name))
    # Xdebug's xdebug.use_compression: a gzip file, read under --compat
    with open(os.path.join(tp, 'xdebug296_intellij-validator.out'), 'rb') as f, \
            gzip.open(os.path.join(work, 'xdebug/intellij.out.gz'), 'wb') as g:
        g.write(f.read())
    os.makedirs(os.path.join(work, 'hostile'), exist_ok=True)
    hostile = 'hostile/we,ird "name" #1.cg'
    hostile_profile(os.path.join(work, hostile))
    return {
        '1': ['valgrind/hanoi.callgrind', 'valgrind/v07-inline.callgrind',
              'valgrind/v15-threads.callgrind', 'xdebug/wordpress.out',
              'cprofile/rosalind.callgrind.out', hostile],
        '2': ['valgrind/v19-everybb.callgrind', 'valgrind/v24-toggle.callgrind',
              'valgrind/v30-thread2.callgrind', 'xdebug/intellij.out.gz',
              'xdebug/windler.cachegrind', 'xdebug/webgrind-small.cg',
              'go/pprof.cpu.callgrind'],
    }, hostile


def labels_json(group):
    return json.dumps({'host': 'host-' + group, 'release': group, 'note': NOTE},
                      separators=(',', ':'), ensure_ascii=False)


def rows_csv(bindir, groups):
    """cg-rows of each table and group: [(table, csv)]."""
    loads = []
    for table in TABLES:
        for group, names in groups.items():
            out = os.path.abspath('%s-%s.csv' % (table, group))
            with open(out, 'wb') as f:
                r = subprocess.run([os.path.join(bindir, 'cg-rows'), table, '--compat', '-j', '2',
                                    '--label', 'host=host-' + group, '--label', 'release=' + group,
                                    '--label', 'note=' + NOTE] + names,
                                   stdout=f, stderr=subprocess.PIPE, timeout=600)
            if r.returncode != 0:
                raise SystemExit('cg-rows %s: exit %d: %s' % (table, r.returncode, r.stderr.decode()))
            loads.append((table, out))
    return loads


# ------------------------------------------------------------ the engines

def label_expr(engine, key):
    return "label['%s']" % key if engine == 'clickhouse' else "labels ->> '$.%s'" % key


def queries(engine, hostile):
    rel = label_expr(engine, 'release')
    q = {t: 'SELECT %s FROM %s' % (cols, t) for t, cols in TABLES.items()}
    q['sum_functions'] = ('SELECT event, ob, fl, fn, SUM(self) AS s, SUM(called) AS c '
                          'FROM functions GROUP BY event, ob, fl, fn')
    q['sum_calls'] = ('SELECT event, ob, fl, fn, cob, cfl, cfn, SUM(calls) AS n, '
                      'SUM(inclusive) AS i FROM calls GROUP BY event, ob, fl, fn, cob, cfl, cfn')
    q['label_functions'] = "%s WHERE %s = '2'" % (q['functions'], rel)
    q['label_stacks'] = "%s WHERE %s = '2'" % (q['stacks'], rel)
    lit = "'" + hostile.replace("'", "''") + "'"
    q['hex_functions'] = 'SELECT DISTINCT hex(fn) FROM functions WHERE profile = ' + lit
    q['hex_stacks'] = 'SELECT hex(stack) FROM stacks WHERE profile = ' + lit
    # the man page's queries (cg-rows(1), EXAMPLES)
    q['flame'] = ("SELECT stack || ' ' || SUM(value) FROM stacks WHERE event = 'Ir' "
                  'GROUP BY stack')
    q['total'] = "SELECT SUM(value) FROM stacks WHERE event = 'Ir'"
    q['top'] = ('SELECT fn, SUM(self) AS total_self, SUM(inclusive) AS total_inclusive, '
                'COUNT(DISTINCT profile) AS profiles FROM functions '
                "WHERE event = 'Ir' GROUP BY ob, fl, fn "
                'ORDER BY total_self DESC, fn, fl, ob LIMIT 10')
    q['diff'] = ('WITH per AS (SELECT ob, fl, fn, '
                 "SUM(CASE WHEN %s = '1' THEN self ELSE 0 END) AS old_self, "
                 "SUM(CASE WHEN %s = '2' THEN self ELSE 0 END) AS new_self "
                 "FROM functions WHERE event = 'Ir' GROUP BY ob, fl, fn) "
                 'SELECT fn, old_self, new_self, new_self - old_self AS delta FROM per '
                 'ORDER BY abs(new_self - old_self) DESC, fn, fl, ob LIMIT 10') % (rel, rel)
    return q


def cells(row):
    return tuple(None if v is None else str(v) for v in row)


def sqlite(ddl, loads, qs, work):
    db = os.path.join(work, 'prof.db')
    exe = shutil.which('sqlite3')
    if exe is None:
        skip('sqlite3 is not installed (Debian: sqlite3)')
    version = subprocess.run([exe, '--version'], capture_output=True, text=True).stdout.split()[0]
    with open(ddl, 'rb') as f:
        subprocess.run([exe, '-bail', db], stdin=f, check=True, timeout=60)
    times = []
    for table, csv in loads:
        t0 = time.monotonic()
        r = subprocess.run([exe, '-bail', db, '.import --csv --skip 1 %s %s' % (csv, table)],
                           capture_output=True, timeout=600)
        times.append(int(1000 * (time.monotonic() - t0)))
        # (a row refused is said on stderr, and .import goes on, exit 0)
        if r.returncode != 0 or r.stderr:
            bad('sqlite3 .import %s: exit %d: %s' % (csv, r.returncode, r.stderr.decode()[:300]))
    results = {}
    for name, sql in qs.items():
        r = subprocess.run([exe, '-json', db, sql], capture_output=True, timeout=600)
        if r.returncode != 0:
            raise SystemExit('sqlite3 %s: %s' % (sql, r.stderr.decode()))
        text = r.stdout.decode('utf-8').strip()
        results[name] = [cells(d.values()) for d in json.loads(text)] if text else []
    return version, times, results


def run_job(engine, src, mods, job):
    return subprocess.run(['node', os.path.join(src, 'tests', 'engines', 'engine.mjs'), engine],
                          input=json.dumps(job).encode(), capture_output=True, timeout=1200,
                          env=dict(os.environ, NODE_PATH=mods))


def node_engine(engine, src, mods, ddl, loads, qs, work):
    names = list(qs)
    job = {'db': os.path.join(work, 'db-' + engine), 'ddl': ddl, 'loads': loads,
           'queries': [qs[n] for n in names]}
    r = run_job(engine, src, mods, job)
    if r.returncode != 0:
        raise SystemExit('engine.mjs %s: %s' % (engine, r.stderr.decode(errors='replace')[-2000:]))
    out = json.loads(r.stdout)
    results = {}
    for name, res in zip(names, out['results']):
        if isinstance(res, str):  # ClickHouse's JSONCompactEachRow
            res = [json.loads(line) for line in res.split('\n') if line]
        results[name] = [cells(row) for row in res]
    return out['version'], out['load_ms'], results


# ------------------------------------------------------------ the checks

def expected_rows(bindir, groups):
    """{table: Counter of rows as the engines hold them}, and per profile."""
    per = {}
    want = {t: collections.Counter() for t in TABLES}
    label_2 = {t: collections.Counter() for t in TABLES}
    for group, names in groups.items():
        lj = labels_json(group)
        for name in names:
            per[name] = compare.expected(bindir, ['--compat'], name)
            for t in TABLES:
                for row in per[name][t]:
                    full = (name, lj) + tuple(row)
                    want[t][full] += 1
                    if group == '2':
                        label_2[t][full] += 1
    return want, label_2, per


def same(what, got, want):
    got, want = collections.Counter(got), collections.Counter(want)
    if got == want:
        return
    extra, missing = got - want, want - got
    bad('%s: %d rows, want %d; %d extra (%r), %d missing (%r)'
        % (what, sum(got.values()), sum(want.values()), sum(extra.values()),
           next(iter(extra), None), sum(missing.values()), next(iter(missing), None)))


def merged_sums(bindir, groups, per, work):
    """E3's figures: per event, cg-merge of the profiles that have it,
    then cg-funcs -C and cg-funcs -c."""
    names = [n for g in groups.values() for n in g]
    events = collections.OrderedDict()
    for n in names:
        for ev in compare.events(bindir, ['--compat'], n):
            events.setdefault(ev, []).append(n)
    funcs, calls = {}, {}
    for ev, having in events.items():
        merged = os.path.join(work, 'merged.cg')
        compare.run(bindir, ['cg-merge', '--compat', '-q', '-o', merged] + having)
        for r in compare.tsv(compare.run(bindir, ['cg-funcs', '-C', '-H', '-e', ev, merged]).stdout):
            if r[5] != '0' or r[3] != '0':
                funcs[(ev, r[0], r[1], r[2])] = (r[5], r[3])
        for r in compare.tsv(compare.run(bindir, ['cg-funcs', '-c', '-H', '-e', ev, merged]).stdout):
            calls[(ev,) + tuple(r[:6])] = (r[6], r[7])
    return funcs, calls


def check_sums(res, funcs, calls):
    got = {tuple(r[:4]): (r[4], r[5]) for r in res['sum_functions'] if r[4] != '0' or r[5] != '0'}
    same('E3 SUM(self), SUM(called)', [k + v for k, v in got.items()],
         [k + v for k, v in funcs.items()])
    same('E3 SUM(calls), SUM(inclusive) of calls', [tuple(r) for r in res['sum_calls']],
         [k + v for k, v in calls.items()])


def check_hostile(res, per, hostile):
    want = {(name.hex().upper(),) for name in HOSTILE} | {(b'main'.hex().upper(),)}
    same('E2 hex(fn) of the hostile profile', res['hex_functions'], want)
    stacks = [(row[1].encode('utf-8').hex().upper(),) for row in per[hostile]['stacks']]
    esc = lambda n: n.replace(b'%', b'%25').replace(b';', b'%3B').replace(b'\r', b'%0D')
    by_hand = [(b'main'.hex().upper(),)] + [((b'main;' + esc(n)).hex().upper(),) for n in HOSTILE]
    same('E2 hex(stack) of the hostile profile (by cg-fold)', res['hex_stacks'], stacks)
    same('E2 hex(stack) of the hostile profile (by hand)', res['hex_stacks'], by_hand)


def check_flame(bindir, src, res, per, work):
    want = collections.Counter()
    for rows in per.values():
        for ev, stack, count in rows['stacks']:
            if ev == 'Ir':
                want[stack] += int(count)
    lines = [r[0] for r in res['flame']]
    got = collections.Counter()
    for line in lines:
        stack, count = line.rsplit(' ', 1)
        got[stack] += int(count)
    if got != want:
        bad('E5 the stacks summed in SQL are not the sums of cg-fold\'s: %d against %d stacks'
            % (len(got), len(want)))
    total = int(res['total'][0][0])
    if total != sum(want.values()):
        bad('E5 SQL total %d, the stacks\' %d' % (total, sum(want.values())))
    folded = os.path.join(work, 'fleet.folded')
    with open(folded, 'w', encoding='utf-8', newline='') as f:
        f.write(''.join(line + '\n' for line in lines))
    svg = os.path.join(work, 'fleet.svg')
    with open(folded, 'rb') as f, open(svg, 'wb') as g:
        subprocess.run([os.path.join(bindir, 'cg-flame'), '--folded', '-'], stdin=f, stdout=g,
                       check=True, timeout=300)
    with open(svg, encoding='utf-8') as f:
        m = re.search(r'<title>all\nsamples: (\d+) \(100\.00%\)', f.read())
    if m is None or int(m.group(1)) != total:
        bad('E5 the flame graph\'s width is %s, the SQL total %d' % (m and m.group(1), total))
    r = subprocess.run(['python3', os.path.join(src, 'tests', 'flame', 'check.py'), svg, folded],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        bad('E5 tests/flame/check.py: ' + r.stdout[-500:])
    return total


def check_queries(res, groups, want):
    """E6: the man page's top and diff queries against Python's sums."""
    release = {n: g for g, names in groups.items() for n in names}
    per_fn = collections.defaultdict(lambda: [0, 0, set(), 0, 0])
    for row in want['functions']:
        profile, _, ev, ob, fl, fn, _called, self_, incl = row
        if ev != 'Ir':
            continue
        s = per_fn[(ob, fl, fn)]
        s[0] += int(self_)
        s[1] += int(incl)
        s[2].add(profile)
        s[3 if release[profile] == '1' else 4] += int(self_)
    top = sorted(per_fn.items(), key=lambda kv: (-kv[1][0], kv[0][2], kv[0][1], kv[0][0]))[:10]
    same('E6 top functions', res['top'],
         [(k[2], str(v[0]), str(v[1]), str(len(v[2]))) for k, v in top])
    if res['top'] != [(k[2], str(v[0]), str(v[1]), str(len(v[2]))) for k, v in top]:
        bad('E6 top functions: not in the order of the sums')
    diff = sorted(per_fn.items(), key=lambda kv: (-abs(kv[1][4] - kv[1][3]), kv[0][2], kv[0][1],
                                                  kv[0][0]))[:10]
    want_diff = [(k[2], str(v[3]), str(v[4]), str(v[4] - v[3])) for k, v in diff]
    if res['diff'] != want_diff:
        bad('E6 release 1 against 2: %r, want %r' % (res['diff'][:2], want_diff[:2]))


def check_path_not_utf8(engine, bindir, src, mods, ddl, work):
    """E7: a profile named by bytes that are not UTF-8 (the profile
    column is the name as given): SQLite and ClickHouse keep them, DuckDB
    refuses the file, as cg-rows(1) says."""
    name = b'l\xe9.cg'
    folder = os.path.join(work, 'latin1')
    os.makedirs(folder)
    with open(os.path.join(folder.encode(), name), 'wb') as f:
        f.write(b'events: Ir\nfn=g\n1 4\n')
    csv = os.path.join(folder, 'stacks.csv')
    with open(csv, 'wb') as f:
        subprocess.run([os.path.join(bindir, 'cg-rows'), 'stacks', name], cwd=folder, stdout=f,
                       check=True, timeout=60)
    want = name.hex().upper()
    query = 'SELECT hex(profile) FROM stacks'
    if engine == 'sqlite':
        db = os.path.join(folder, 'prof.db')
        with open(ddl, 'rb') as f:
            subprocess.run(['sqlite3', db], stdin=f, check=True, timeout=60)
        subprocess.run(['sqlite3', db, '.import --csv --skip 1 %s stacks' % csv], check=True,
                       timeout=60)
        got = subprocess.run(['sqlite3', db, query], capture_output=True, text=True,
                             timeout=60).stdout.strip()
    else:
        r = run_job(engine, src, mods, {'db': os.path.join(folder, 'db'), 'ddl': ddl,
                                        'loads': [['stacks', csv]], 'queries': [query],
                                        'from_file': True})
        if engine == 'duckdb':
            if r.returncode == 0 or b'Invalid unicode' not in r.stderr:
                bad('E7 DuckDB did not refuse a profile column that is not UTF-8: %s'
                    % r.stderr.decode(errors='replace')[-300:])
            return
        got = json.loads(r.stdout)['results'][0].strip() if r.returncode == 0 else r.stderr
        got = json.loads(got)[0] if got.startswith('[') else got
    if got != want:
        bad('E7 the profile column %r, want the bytes %s' % (got, want))


def main():
    engine, bindir, src, builddir, npmdir = sys.argv[1:6]
    bindir, src, npmdir = os.path.abspath(bindir), os.path.abspath(src), os.path.abspath(npmdir)
    if engine not in ('sqlite', 'duckdb', 'clickhouse'):
        raise SystemExit('usage: engines.py sqlite|duckdb|clickhouse BINDIR SRCDIR BUILDDIR NPMDIR')
    if engine == 'sqlite' and shutil.which('sqlite3') is None:
        skip('sqlite3 is not installed (Debian: sqlite3)')
    mods = packages(engine, npmdir) if engine != 'sqlite' else None
    with tempfile.TemporaryDirectory() as work:
        ddl = os.path.join(install(builddir, os.path.join(work, 'prefix')), engine + '.sql')
        if not os.path.isfile(ddl):
            raise SystemExit('cmake --install put no ' + ddl)
        os.chdir(work)
        groups, hostile = profiles(src, work)
        loads = rows_csv(bindir, groups)
        want, label_2, per = expected_rows(bindir, groups)
        qs = queries(engine, hostile)
        if engine == 'sqlite':
            version, times, res = sqlite(ddl, loads, qs, work)
        else:
            version, times, res = node_engine(engine, src, mods, ddl, loads, qs, work)
        print('%s %s: %d profiles, %s rows' % (engine, version, len(per),
                                               ', '.join('%d %s' % (sum(want[t].values()), t)
                                                         for t in TABLES)))
        for t in TABLES:
            same('E1 ' + t, res[t], want[t])
        for t in ('functions', 'stacks'):
            same('E4 %s of release 2' % t, res['label_' + t], label_2[t])
        check_hostile(res, per, hostile)
        funcs, calls = merged_sums(bindir, groups, per, work)
        check_sums(res, funcs, calls)
        total = check_flame(bindir, src, res, per, work)
        check_queries(res, groups, want)
        check_path_not_utf8(engine, bindir, src, mods, ddl, work)
        print('loads (ms): %s' % ' '.join(str(t) for t in times))
        print('fleet flame graph of Ir: %d stacks, total %d' % (len(res['flame']), total))
    for p in problems:
        print('FAIL ' + p)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
