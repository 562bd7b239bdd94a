#!/usr/bin/env python3
"""compare.py BINDIR [--compat] [-j N] FILE... - cg-rows' three tables
against the commands whose figures they hold, derived here from those
commands' own output, never from cg-rows:

  functions  per file and event, cg-funcs -C -H -e EV -s EV:incl FILE
  calls      per file and event, cg-funcs -c -H -e EV -s EV:incl FILE
  stacks     per file and event, cg-fold -e EV FILE (the stack column is
             the line's frames as cg-fold writes them)

cg-rows reads all the FILEs at once (each its own profile, -j N), with two
labels; its CSV is read by Python's csv module, the TSV of cg-funcs
unescaped.  The rows must be the same, in the same order (input, event,
then the command's).  Prints what differs and exits 1, or exits 0.
"""
import csv
import io
import os
import subprocess
import sys

LABELS = ['--label', 'host=web 1', '--label', 'release="2",x\\y']
LABELS_JSON = '{"host":"web 1","release":"\\"2\\",x\\\\y"}'
problems = []


def run(bindir, args, ok_fail=False):
    r = subprocess.run([os.path.join(bindir, args[0])] + args[1:],
                       capture_output=True, timeout=600)
    if r.returncode != 0 and not ok_fail:
        raise SystemExit('%s: exit %d: %s' % (' '.join(args), r.returncode,
                                              r.stderr.decode(errors='replace')[:300]))
    return r


def unescape(cell):
    out, i = [], 0
    while i < len(cell):
        if cell[i] == '\\' and i + 1 < len(cell):
            out.append({'\\': '\\', 't': '\t', 'n': '\n', 'r': '\r'}[cell[i + 1]])
            i += 2
        else:
            out.append(cell[i])
            i += 1
    return ''.join(out)


def tsv(data):
    text = data.decode('utf-8')
    return [[unescape(c) for c in line.split('\t')] for line in text.split('\n') if line]


def events(bindir, opts, path):
    return [row[0] for row in tsv(run(bindir, ['cg-funcs'] + opts + ['-T', '-H', path]).stdout)]


def expected(bindir, opts, path):
    """{table: [row]} of one file, rows as cg-rows' cells after profile
    and labels."""
    want = {'functions': [], 'calls': [], 'stacks': []}
    for ev in events(bindir, opts, path):
        sort = ['-e', ev, '-s', ev + ':incl']
        for r in tsv(run(bindir, ['cg-funcs'] + opts + ['-C', '-H'] + sort + [path]).stdout):
            # ob fl fn called cycle EV EV:incl
            want['functions'].append([ev, r[0], r[1], r[2], r[3], r[5], r[6]])
        for r in tsv(run(bindir, ['cg-funcs'] + opts + ['-c', '-H'] + sort + [path]).stdout):
            # ob fl fn cob cfl cfn calls EV:incl
            want['calls'].append([ev] + r[:8])
        fold = run(bindir, ['cg-fold'] + opts + ['-e', ev, path], ok_fail=True)
        if fold.returncode != 0:
            if b'inclusive' not in fold.stderr:
                raise SystemExit('cg-fold -e %s %s: %s' % (ev, path, fold.stderr.decode()))
            continue  # no stacks of an inclusive event
        for line in fold.stdout.decode('utf-8').split('\n'):
            if line:
                stack, count = line.rsplit(' ', 1)
                want['stacks'].append([ev, stack, count])
    return want


def main():
    bindir, args = sys.argv[1], sys.argv[2:]
    opts, jobs = [], ['-j', '1']
    while args and args[0].startswith('-'):
        if args[0] == '--compat':
            opts.append(args.pop(0))
        elif args[0] == '-j':
            jobs = args[:2]
            del args[:2]
        else:
            raise SystemExit('usage: compare.py BINDIR [--compat] [-j N] FILE...')
    files = args
    want = {path: expected(bindir, opts, path) for path in files}
    for table in ('functions', 'calls', 'stacks'):
        out = run(bindir, ['cg-rows', table] + opts + jobs + LABELS + files).stdout
        rows = list(csv.reader(io.StringIO(out.decode('utf-8'), newline='')))
        body, got = rows[1:], {}
        for row in body:
            if row[1] != LABELS_JSON:
                problems.append('%s: labels %r' % (table, row[1]))
                break
        order = []
        for row in body:
            if not order or order[-1] != row[0]:
                order.append(row[0])
            got.setdefault(row[0], []).append(row[2:])
        if order != [p for p in files if want[p][table] or p in got]:
            problems.append('%s: profiles in the order %s' % (table, order[:5]))
        for path in files:
            g, w = got.get(path, []), want[path][table]
            if g != w:
                first = next((k for k in range(min(len(g), len(w))) if g[k] != w[k]),
                             min(len(g), len(w)))
                problems.append('%s %s: %d rows, want %d; first difference at %d: %r, want %r'
                                % (table, path, len(g), len(w), first,
                                   g[first] if first < len(g) else None,
                                   w[first] if first < len(w) else None))
        print('%s: %d rows of %d profiles' % (table, len(body), len(files)))
    for p in problems:
        print('FAIL ' + p)
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
