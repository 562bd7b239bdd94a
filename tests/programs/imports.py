"""imports.py DIR - a recursive game whose every level imports a module
it writes into DIR, the module's code calling back into the game: the
imports run inside the recursion (importlib's exec_module between play
and play), for cProfile through pyprof2calltree."""
import importlib.util
import json
import os
import sys
import types

here = sys.argv[1]
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


def play(n):
    t = work(200 * n)
    if n > 0:
        load('level%d' % n, 'import game\nv = game.work(3000)\ngame.play(%d)\n' % (n - 1))
        t += play(n - 1)
    return t


# what the modules import as game (under cProfile, __main__ is cProfile's)
sys.modules['game'] = types.SimpleNamespace(work=work, play=play)
play(6)
