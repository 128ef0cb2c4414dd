/* fingerprint_libs.c - library versions from package metadata, by the embedded CPython. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cjson/cJSON.h>

#include "fingerprint_libs.h"
#include "pylibs.h"

static const char version_src[] =
	"def versions(names):\n"
	"    import importlib.metadata as md, platform\n"
	"    out = [platform.python_version()]\n"
	"    for n in names:\n"
	"        try:\n"
	"            out.append(md.version(n))\n"
	"        except Exception:\n"
	"            out.append(None)\n"
	"    return out\n";

static int py_start(void)
{
	PyConfig cfg;
	PyStatus st;

	/* isolated, as the sandbox's zygote: the same sys.path, no user site, no environment */
	PyConfig_InitIsolatedConfig(&cfg);
	cfg.write_bytecode = 0;
	cfg.install_signal_handlers = 0;
	st = PyConfig_SetString(&cfg, &cfg.program_name, L"python3");
	if (!PyStatus_Exception(st))
		st = Py_InitializeFromConfig(&cfg);
	PyConfig_Clear(&cfg);
	return PyStatus_Exception(st) ? -1 : 0;
}

/* Calls versions() over the distributions; a new list, or NULL. */
static PyObject *call_versions(void)
{
	PyObject *d = PyDict_New(), *names = PyList_New(0), *r = NULL, *fn;

	if (!d || !names || PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins()) < 0)
		goto out;
	for (int i = 0; sa_pylibs[i].module; i++) {
		PyObject *s = PyUnicode_FromString(sa_pylibs[i].distribution);

		if (!s || PyList_Append(names, s) < 0) {
			Py_XDECREF(s);
			goto out;
		}
		Py_DECREF(s);
	}
	r = PyRun_String(version_src, Py_file_input, d, d);
	Py_XDECREF(r);
	r = NULL;
	fn = PyDict_GetItemString(d, "versions");
	if (fn)
		r = PyObject_CallOneArg(fn, names);
out:
	if (!r)
		PyErr_Clear();
	Py_XDECREF(names);
	Py_XDECREF(d);
	return r;
}

static void add_version(cJSON *o, const char *key, PyObject *v)
{
	const char *s = v && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;

	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *fp_libraries(void)
{
	cJSON *o = NULL;
	PyObject *list;

	if (py_start() < 0)
		return NULL;
	list = call_versions();
	if (list && PyList_Check(list) && (o = cJSON_CreateObject())) {
		add_version(o, "python", PyList_GetItem(list, 0));
		for (int i = 0; sa_pylibs[i].module; i++)
			add_version(o, sa_pylibs[i].module, PyList_GetItem(list, i + 1));
	}
	Py_XDECREF(list);
	Py_FinalizeEx();
	return o;
}
