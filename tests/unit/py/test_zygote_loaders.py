# test_zygote_loaders.py - the zygote's two other trusted sources, read from the source tree and
# run as the zygote runs them (one dict each, only __builtins__): sa_roots.py, the sys.path
# directories that become read roots, and sa_shim_loader.py, the finder that imports the
# framework shims from the binary's table.
# Run by tests/run-all unit: /usr/bin/python3 -I -B tests/unit/py/test_zygote_loaders.py
import builtins
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
INSIDE = os.path.join(HERE, '..', '..', '..', 'sandbox', 'inside')


def load(name):
    with open(os.path.join(INSIDE, 'py', name + '.py'), encoding='ascii') as f:
        src = f.read()
    d = {'__builtins__': builtins}
    exec(compile(src, '<string>', 'exec'), d)
    return d


def shim_rows():
    # the rows scripts/embed-py writes for sandbox/inside/shims, in its order
    top = os.path.join(INSIDE, 'shims')
    files = []
    for dirpath, _, names in os.walk(top):
        files += [os.path.join(dirpath, n) for n in names if n.endswith('.py')]
    rows = []
    for f in sorted(files, key=lambda p: p.encode()):
        mod = os.path.relpath(f, top)[:-3]
        pkg = 0
        if mod.endswith('/__init__'):
            mod, pkg = mod[: -len('/__init__')], 1
        with open(f, encoding='ascii') as fh:
            rows.append((mod.replace('/', '.'), pkg, fh.read()))
    return rows


class Roots(unittest.TestCase):
    def test_existing_directories_of_sys_path(self):
        d = load('sa_roots')
        with tempfile.TemporaryDirectory() as a, tempfile.NamedTemporaryFile() as f:
            saved = sys.path[:]
            sys.path[:] = ['', a, os.path.join(a, 'none'), f.name, a + '/']
            try:
                self.assertEqual(d['roots'](), [a, a + '/'])
            finally:
                sys.path[:] = saved

    def test_this_interpreter(self):
        roots = load('sa_roots')['roots']()
        self.assertTrue(roots)
        self.assertTrue(all(os.path.isdir(p) for p in roots))
        self.assertTrue(any(os.path.isfile(os.path.join(p, 'os.py')) for p in roots))


class ShimLoader(unittest.TestCase):
    def setUp(self):
        self.meta_path = sys.meta_path[:]
        self.names = ('sa_frameworks', 'zz_pkg', 'zz_pkg.mod')

    def tearDown(self):
        sys.meta_path[:] = self.meta_path
        for n in self.names:
            sys.modules.pop(n, None)

    def test_a_small_table(self):
        rows = [
            ('sa_frameworks', 0, 'installed = []\n'
                                 'def install():\n    installed.append(1)\n'
                                 'given = []\n'
                                 'def set_params_file(t):\n    given.append(t)\n'
                                 'def adapt(x):\n    return ("adapted", x)\n'),
            ('zz_pkg', 1, 'X = 1\n'),
            ('zz_pkg.mod', 0, 'from zz_pkg import X\nY = X + 1\ndef f():\n    return Y\n'),
        ]
        adapt = load('sa_shim_loader')['load'](rows, '{"strategy_name": "S"}')
        self.assertEqual(adapt(3), ('adapted', 3))
        self.assertEqual(sys.modules['sa_frameworks'].installed, [1])
        self.assertEqual(sys.modules['sa_frameworks'].given, ['{"strategy_name": "S"}'])
        self.assertEqual(type(sys.meta_path[0]).__name__, 'ShimFinder')
        mod = sys.modules['zz_pkg.mod']
        self.assertEqual(mod.Y, 2)
        self.assertEqual(mod.f.__code__.co_filename, '<zz_pkg.mod>')
        self.assertEqual(mod.__spec__.origin, '<zz_pkg.mod>')
        self.assertIsNotNone(sys.modules['zz_pkg'].__spec__.submodule_search_locations)
        self.assertIsNone(mod.__spec__.submodule_search_locations)
        self.assertIsNone(sys.meta_path[0].find_spec('zz_other'))

    def test_the_shims(self):
        # the real shims, in a fresh interpreter (install() changes its import system for good)
        rows = shim_rows()
        self.assertIn('sa_frameworks', [r[0] for r in rows])
        self.assertIn(('freqtrade', 1), [r[:2] for r in rows])
        script = (
            'import builtins, sys\n'
            'rows = eval(sys.stdin.read())\n'
            'd = {"__builtins__": builtins}\n'
            'exec(compile(open(sys.argv[1]).read(), "<string>", "exec"), d)\n'
            'adapt = d["load"](rows)\n'
            'assert callable(adapt)\n'
            'for n, _, _ in rows:\n'
            '    assert sys.modules[n].__spec__.origin == "<%s>" % n, n\n'
            'print(len(rows))\n')
        p = subprocess.run([sys.executable, '-I', '-B', '-c', script,
                            os.path.join(INSIDE, 'py', 'sa_shim_loader.py')],
                           input=repr(rows), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), str(len(rows)))


if __name__ == '__main__':
    unittest.main()
