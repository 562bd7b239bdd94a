#!/usr/bin/env python3
"""roundtrip.py BINDIR SRCDIR - pprof's own profiles there and back: a Go
program (tests/programs/spin.go) records a CPU and a heap profile with
runtime/pprof; go tool pprof -callgrind writes each as a Callgrind file
(in integer ns and bytes, so that nothing is rounded away: pprof's
default unit for -callgrind would cut 1762.94kB to 1762kB); cg-export
pprof writes it back.  go tool pprof -top of the original and of the
export must give every function the same flat value, exactly, and the
same total.  Cum is printed where it differs, not checked: the original
holds real stacks, the export stacks estimated from the arcs that
-callgrind kept (a function called from several places shares its
callees' cost out in proportion, as cg-fold(1) says).  Inlined frames
come back as plain functions: -callgrind writes no inlining, so pprof's
"(inline)" mark is dropped before comparing.  Exit 77 without go.
"""
import collections, os, re, shutil, subprocess, sys, tempfile

ROW = re.compile(r'^\s*(\S+)\s+\S+%\s+\S+%\s+(\S+)\s+\S+%\s+(.*)$')


def number(cell):
    return int(re.sub(r'[A-Za-z]+$', '', cell) or 0)


def top(env, unit, args):
    r = subprocess.run(['go', 'tool', 'pprof', '-top', '-unit=' + unit, '-nodecount=1000000',
                        '-nodefraction=0', '-edgefraction=0', *args],
                       capture_output=True, env=env, timeout=300)
    if r.returncode != 0:
        raise RuntimeError('go tool pprof -top %s: %s' % (args, r.stderr.decode()[:200]))
    flat, cum, total = collections.Counter(), collections.Counter(), None
    for line in r.stdout.decode('utf-8', errors='replace').splitlines():
        m = re.match(r'Showing nodes accounting for \S+, \S+ of (\S+) total', line)
        if m:
            total = number(m.group(1))
        m = ROW.match(line)
        if m and m.group(1) != 'flat':
            name = re.sub(r' \(inline\)$', '', m.group(3))
            flat[name] += number(m.group(1))
            cum[name] = max(cum[name], number(m.group(2)))
    return total, flat, cum


def main(argv):
    bindir, src = argv[1], argv[2]
    if shutil.which('go') is None:
        print('go is not installed: no round trip')
        return 77
    failed = 0
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, HOME=d, GOCACHE=os.path.join(d, 'cache'),
                   GOPATH=os.path.join(d, 'gopath'), GO111MODULE='off', PPROF_TMPDIR=d)
        spin = os.path.join(d, 'spin')
        subprocess.run(['go', 'build', '-o', spin, os.path.join(src, 'tests/programs/spin.go')],
                       check=True, env=env, timeout=600)
        cpu, heap = os.path.join(d, 'cpu.pprof'), os.path.join(d, 'heap.pprof')
        subprocess.run([spin, cpu, heap], check=True, timeout=300)
        cases = [('cpu', cpu, [], 'ns'),
                 ('heap inuse_space', heap, ['-sample_index=inuse_space'], 'bytes'),
                 ('heap alloc_space', heap, ['-sample_index=alloc_space'], 'bytes'),
                 ('heap alloc_objects', heap, ['-sample_index=alloc_objects'], 'count')]
        for name, prof, extra, unit in cases:
            cg = os.path.join(d, 'p.cg')
            back = os.path.join(d, 'back.pb.gz')
            subprocess.run(['go', 'tool', 'pprof', '-callgrind', '-unit=' + unit, *extra,
                            '-output', cg, spin, prof], check=True, capture_output=True,
                           env=env, timeout=300)
            r = subprocess.run([os.path.join(bindir, 'cg-export'), 'pprof', '-o', back, cg],
                               capture_output=True)
            if r.returncode != 0:
                print('FAIL %s: cg-export: %s' % (name, r.stderr.decode()[:200]))
                failed += 1
                continue
            t0, flat0, cum0 = top(env, unit, [*extra, spin, prof])
            t1, flat1, cum1 = top(env, unit, [back])
            bad = [(k, flat0[k], flat1[k]) for k in sorted(set(flat0) | set(flat1))
                   if flat0[k] != flat1[k]]
            if t0 != t1 or bad or not flat0:
                failed += 1
                print('FAIL %s: total %s and %s; flat differs at %d functions: %s'
                      % (name, t0, t1, len(bad), bad[:5]))
            else:
                print('ok   %s: %d functions, total %d %s, flat equal' % (name, len(flat0), t0, unit))
            for k in sorted(set(cum0) | set(cum1)):
                if cum0[k] != cum1[k]:
                    print('     %s cum: %d there, %d back (estimated from the arcs)' % (k, cum0[k], cum1[k]))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
