/* inspect_hyperopt.h - the hyperopt space a freqtrade strategy declares (its IntParameter,
 * DecimalParameter, RealParameter, CategoricalParameter and BooleanParameter attributes), read
 * from the syntax tree as literals, never run: a search the file says was made. The reader
 * runs inside the rlimited parsing child; the host takes its finding through
 * inspect_hyperopt_take, which trusts nothing of it. */
#ifndef INSPECT_HYPEROPT_H
#define INSPECT_HYPEROPT_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The most parameters read; a space with more is cut there (and truncated says so). */
#define INSPECT_MAX_PARAMS 64

/* The parameters of a parsed module (borrowed), as a JSON array [{name, kind, line, size}]
 * (size null when the range is continuous or not a literal), or NULL when it declares none or
 * the reader failed. A new array, caller frees. */
cJSON *inspect_hyperopt_read(PyObject *module);

/* strategy.hyperopt_space from the child's finding "hyperopt" (NULL or not an array: none):
 * {declared, parameters [{name, kind, line, size}], grid, truncated}, grid the product of the
 * sizes (the distinct points the space holds), null when a size is unknown. Every field is
 * checked and rebuilt here. Returns a new object, caller frees; NULL when out of memory. */
cJSON *inspect_hyperopt_take(const cJSON *found);

#endif
