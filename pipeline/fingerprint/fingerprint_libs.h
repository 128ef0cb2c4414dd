/* fingerprint_libs.h - the versions of the Python and the libraries a strategy runs against. */
#ifndef FP_LIBS_H
#define FP_LIBS_H

struct cJSON;

/* {"python": "3.11.2", "numpy": "1.24.2", ...}: read by the same embedded CPython the sandbox
 * runs, from package metadata (nothing is imported); null for a library that is not installed.
 * Returns a new object (caller frees), or NULL when the interpreter cannot start. */
struct cJSON *fp_libraries(void);

#endif
