/* sbx_shims.c - loads the framework shims (sbx_shims.h) into the zygote from the binary itself:
 * no path of the checkout reaches a run, and a run's root holds no file of theirs. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "sbx_shims.h"

/* Words that make the zygote load the shims: a framework's import names. */
static const char *const triggers[] = { "freqtrade", "talib", "qtpylib", "backtesting", "technical" };

/* The finder and loader: modules come from the table, compiled under a "<name>" file name, which
 * linecache never tries to open. */
static const char loader_src[] =
	"import sys, importlib.util\n"
	"class ShimFinder:\n"
	"    def __init__(self, table):\n"
	"        self.table = table\n"
	"    def find_spec(self, name, path=None, target=None):\n"
	"        if name not in self.table:\n"
	"            return None\n"
	"        return importlib.util.spec_from_loader(name, self, origin='<%s>' % name,\n"
	"                                               is_package=bool(self.table[name][0]))\n"
	"    def create_module(self, spec):\n"
	"        return None\n"
	"    def exec_module(self, module):\n"
	"        src = self.table[module.__name__][1]\n"
	"        exec(compile(src, '<%s>' % module.__name__, 'exec'), module.__dict__)\n"
	"def load(rows):\n"
	"    sys.meta_path.insert(0, ShimFinder({n: (p, s) for n, p, s in rows}))\n"
	"    for n, _, _ in rows:\n"
	"        __import__(n)\n"
	"    fw = sys.modules['sa_frameworks']\n"
	"    fw.install()\n"
	"    return fw.adapt\n";

static int names_framework(const char *src, size_t len)
{
	for (size_t i = 0; i < sizeof triggers / sizeof triggers[0]; i++)
		if (memmem(src, len, triggers[i], strlen(triggers[i])))
			return 1;
	return 0;
}

static PyObject *rows(void)
{
	PyObject *list = PyList_New((Py_ssize_t)sbi_n_shims);

	for (size_t i = 0; list && i < sbi_n_shims; i++) {
		PyObject *row = Py_BuildValue("(sis)", sbi_shims[i].module, sbi_shims[i].package,
					      sbi_shims[i].src);
		if (!row) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, row);
	}
	return list;
}

int sbi_shims_load(void *helpers, const char *src, size_t len)
{
	PyObject *d = NULL, *r = NULL, *load, *table = NULL, *adapt = NULL;
	int rc = -1;

	if (!names_framework(src, len))
		return 0;
	if (!(d = PyDict_New()) || PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins()) < 0)
		goto out;
	if (!(r = PyRun_String(loader_src, Py_file_input, d, d)))
		goto out;
	load = PyDict_GetItemString(d, "load");
	if (!load || !(table = rows()) || !(adapt = PyObject_CallOneArg(load, table)))
		goto out;
	if (PyDict_SetItemString((PyObject *)helpers, "adapt", adapt) < 0)
		goto out;
	rc = 1;
out:
	if (rc < 0)
		PyErr_Print();
	Py_XDECREF(adapt);
	Py_XDECREF(table);
	Py_XDECREF(r);
	Py_XDECREF(d);
	return rc;
}
