/* pylibs.c - the third-party Python modules a strategy may import. */
#include <stddef.h>

#include "pylibs.h"

const struct da_pylib da_pylibs[] = {
	{ "numpy", "numpy" },
	{ "pandas", "pandas" },
	{ "scipy", "scipy" },
	{ "statsmodels", "statsmodels" },
	{ "sklearn", "scikit-learn" },
	{ NULL, NULL },
};
