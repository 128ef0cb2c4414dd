# sa_shim_loader.py - loads the framework shims (sandbox/inside/shims/) from the table embedded
# in the binary (sbi_shims.c: run into a dict of its own, then load(rows) is called). Embedded
# into the sandbox binary at build time (scripts/embed-py).
import sys, importlib.util
# The finder and loader: modules come from the table, compiled under a '<name>' file name,
# which linecache never tries to open.
class ShimFinder:
    def __init__(self, table):
        self.table = table
    def find_spec(self, name, path=None, target=None):
        if name not in self.table:
            return None
        return importlib.util.spec_from_loader(name, self, origin='<%s>' % name,
                                               is_package=bool(self.table[name][0]))
    def create_module(self, spec):
        return None
    def exec_module(self, module):
        src = self.table[module.__name__][1]
        exec(compile(src, '<%s>' % module.__name__, 'exec'), module.__dict__)
# Puts the finder of the (name, is_package, source) rows first on sys.meta_path, imports every
# row, installs the framework shims, hands them the parameter file's text (None when there is
# none) and returns their adapter.
def load(rows, params_file=None):
    sys.meta_path.insert(0, ShimFinder({n: (p, s) for n, p, s in rows}))
    for n, _, _ in rows:
        __import__(n)
    fw = sys.modules['sa_frameworks']
    fw.install()
    fw.set_params_file(params_file)
    return fw.adapt
