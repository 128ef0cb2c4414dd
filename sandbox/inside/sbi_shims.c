/* sbi_shims.c - loads the framework shims (sbi_shims.h) into the zygote from the binary itself:
 * no path of the checkout reaches a run, and a run's root holds no file of theirs. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "sbi_pysrc.h"
#include "sbi_shims.h"

/* Words that make the zygote load the shims: a framework's import names. */
static const char *const triggers[] = { "freqtrade", "talib", "qtpylib", "backtesting", "technical" };

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

/* The finder and loader (py/sa_shim_loader.py) run into a dict of their own; its
 * load(rows, params_file) puts the finder first on sys.meta_path and imports every shim. */
int sbi_shims_load(void *helpers, const char *src, size_t len, const char *params, size_t plen)
{
	PyObject *d = NULL, *load, *table = NULL, *adapt = NULL, *ptext = NULL;
	int rc = -1;

	if (!names_framework(src, len))
		return 0;
	if (!(d = sbi_pysrc_run("sa_shim_loader")))
		goto out;
	load = PyDict_GetItemString(d, "load");
	/* undecodable bytes become U+FFFD: the shim then reads no JSON, as freqtrade would not */
	if (!load || !(table = rows()) ||
	    !(ptext = plen ? PyUnicode_DecodeUTF8(params, (Py_ssize_t)plen, "replace") : Py_NewRef(Py_None)) ||
	    !(adapt = PyObject_CallFunctionObjArgs(load, table, ptext, NULL)))
		goto out;
	if (PyDict_SetItemString((PyObject *)helpers, "adapt", adapt) < 0)
		goto out;
	rc = 1;
out:
	if (rc < 0)
		PyErr_Print();
	Py_XDECREF(ptext);
	Py_XDECREF(adapt);
	Py_XDECREF(table);
	Py_XDECREF(d);
	return rc;
}
