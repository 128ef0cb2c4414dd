/* sbi_pysrc.c - finds a source of the zygote's own trusted Python in the table the build
 * generates (sbi_pysrc.h), and runs one into a dict of its own. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "sbi_pysrc.h"

const char *sbi_pysrc_find(const char *module)
{
	for (size_t i = 0; i < sbi_n_pysrcs; i++)
		if (strcmp(sbi_pysrcs[i].module, module) == 0)
			return sbi_pysrcs[i].src;
	return NULL;
}

void *sbi_pysrc_run(const char *module)
{
	const char *src = sbi_pysrc_find(module);
	PyObject *d, *r;

	if (!src) {
		PyErr_Format(PyExc_RuntimeError, "the binary holds no %s.py", module);
		return NULL;
	}
	if (!(d = PyDict_New()))
		return NULL;
	if (PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins()) < 0 ||
	    !(r = PyRun_String(src, Py_file_input, d, d))) {
		Py_DECREF(d);
		return NULL;
	}
	Py_DECREF(r);
	return d;
}
