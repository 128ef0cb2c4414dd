/* fingerprint_libs.c - library versions from package metadata, by the embedded CPython in a
 * child process. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	for (int i = 0; da_pylibs[i].module; i++) {
		PyObject *s = PyUnicode_FromString(da_pylibs[i].distribution);

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

/* The child: one version a line ("" for none) on fd, then _exit. _exit, not exit: the
 * interpreter is never finalized (which frees only part of what it holds). */
static noreturn void child(int fd)
{
	PyObject *list;
	FILE *f = fdopen(fd, "w");

	if (!f || py_start() < 0 || !(list = call_versions()) || !PyList_Check(list))
		_exit(1);
	for (Py_ssize_t i = 0; i < PyList_Size(list); i++) {
		PyObject *v = PyList_GetItem(list, i);
		const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;

		fprintf(f, "%s\n", s ? s : "");
	}
	_exit(fclose(f) ? 1 : 0);
}

static void add_version(cJSON *o, const char *key, FILE *f)
{
	char line[128];

	if (f && fgets(line, sizeof line, f) && line[0] != '\n') {
		line[strcspn(line, "\n")] = '\0';
		cJSON_AddStringToObject(o, key, line);
	} else {
		cJSON_AddNullToObject(o, key);
	}
}

cJSON *fp_libraries(void)
{
	cJSON *o = NULL;
	int p[2], status = 0;
	pid_t pid;
	FILE *f = NULL;

	if (pipe(p) < 0)
		return NULL;
	if ((pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		return NULL;
	}
	if (pid == 0) {
		close(p[0]);
		child(p[1]);
	}
	close(p[1]);
	f = fdopen(p[0], "r");
	if ((o = cJSON_CreateObject())) {
		add_version(o, "python", f);
		for (int i = 0; da_pylibs[i].module; i++)
			add_version(o, da_pylibs[i].module, f);
	}
	if (f)
		fclose(f);
	else
		close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		cJSON_Delete(o);
		o = NULL;
	}
	return o;
}
