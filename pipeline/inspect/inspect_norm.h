/* inspect_norm.h - the strategy's normalised code: its syntax tree written out with comments,
 * formatting and docstrings gone and the names it binds numbered by first use, hashed twice:
 * with its literal constants (the version) and with every constant abstracted (the structure).
 * Runs only inside the parsing child of inspect_parse.h, on the tree the parser gave. */
#ifndef INSPECT_NORM_H
#define INSPECT_NORM_H

#include <Python.h>
#include <cjson/cJSON.h>

/* The tree's two hashes as {version_sha256, structure_sha256} (a new object, caller frees), or
 * NULL when out of memory or the tree is deeper than INSPECT_MAX_DEPTH. bound is the set of
 * names the file binds (borrowed); every one but signals and VARIANTS, the names the pipeline
 * reads, is written by its number. */
cJSON *inspect_norm(PyObject *tree, PyObject *bound);

#endif
