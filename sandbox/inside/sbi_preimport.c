/* sbi_preimport.c - policy as data: which heavy libraries the zygote imports ahead of a run, and
 * when. Figures behind the table: sandbox/README.md, "Libraries a strategy may import". */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <string.h>

#include "sbi_preimport.h"

/* A module is imported ahead when the source holds both words: the library's name and the
 * submodule's (a false match costs start-up time, a miss costs each run the import). numpy
 * and pandas are always imported (py/sa_helpers.py). */
static const struct {
	const char *lib, *word, *module;
} table[] = {
	{ "scipy", "stats", "scipy.stats" },
	{ "scipy", "signal", "scipy.signal" },
	{ "scipy", "optimize", "scipy.optimize" },
	{ "scipy", "scipy", "scipy.special" },
	{ "statsmodels", "api", "statsmodels.api" },
	{ "statsmodels", "tsa", "statsmodels.tsa.api" },
	{ "sklearn", "linear_model", "sklearn.linear_model" },
	{ "sklearn", "preprocessing", "sklearn.preprocessing" },
	{ "sklearn", "ensemble", "sklearn.ensemble" },
	{ "sklearn", "tree", "sklearn.tree" },
	{ "sklearn", "cluster", "sklearn.cluster" },
	{ "sklearn", "decomposition", "sklearn.decomposition" },
	{ "sklearn", "model_selection", "sklearn.model_selection" },
	{ "sklearn", "metrics", "sklearn.metrics" },
};

static int holds(const char *src, size_t len, const char *word)
{
	return memmem(src, len, word, strlen(word)) != NULL;
}

int sbi_preimport(const char *src, size_t len)
{
	int n = 0;

	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
		PyObject *m;

		if (!holds(src, len, table[i].lib) || !holds(src, len, table[i].word))
			continue;
		m = PyImport_ImportModule(table[i].module);
		if (!m) {
			PyErr_Clear();
			continue;
		}
		Py_DECREF(m);
		n++;
	}
	return n;
}
