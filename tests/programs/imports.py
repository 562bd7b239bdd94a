"""imports.py DIR [nested N] - a recursive game whose levels import a
module they write into DIR, the module's code calling back into the game:
the imports run inside the recursion (importlib's exec_module between play
and play), for cProfile through pyprof2calltree.  By default every level
imports, and the module plays on one level down; with 'nested N', a game
of N levels where each module starts a game of its own two levels down,
so that imports run inside imports."""
import importlib.util
import json
import os
import sys
import types

here = sys.argv[1]
nested = sys.argv[2:3] == ['nested']
os.makedirs(here, exist_ok=True)


def load(name, body):
    path = os.path.join(here, name + '.py')
    with open(path, 'w') as f:
        f.write(body)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def work(k):
    return len(json.dumps([j * j for j in range(k)]))


def play(n, tag='r'):
    if nested:
        t = work(100 * n + 7)
        if n > 0:
            load('m%s_%d' % (tag, n), 'import game\nv = game.work(%d)\nif %d > 1: game.play(%d, "x%d")\n'
                 % (500 * n, n, n - 2, n))
            t += play(n - 1, tag)
        return t
    t = work(200 * n)
    if n > 0:
        load('level%d' % n, 'import game\nv = game.work(3000)\ngame.play(%d)\n' % (n - 1))
        t += play(n - 1)
    return t


# what the modules import as game (under cProfile, __main__ is cProfile's)
sys.modules['game'] = types.SimpleNamespace(work=work, play=play)
play(int(sys.argv[3]) if nested else 6)
