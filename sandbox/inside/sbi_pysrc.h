/* sbi_pysrc.h - the zygote's own trusted Python (sandbox/inside/py/: its helpers, its read
 * roots, the shims' loader), embedded into the binary at build time (scripts/embed-py), so the
 * sources are real .py files, linted and unit-tested, and no path of the checkout reaches a run. */
#ifndef SBX_PYSRC_H
#define SBX_PYSRC_H

#include <stddef.h>

/* One file of sandbox/inside/py/, its bytes exactly. */
struct sbi_pysrc {
	const char *module;  /* the file's name without .py: "sa_helpers" */
	int package;         /* always 0: the folder holds no package */
	const char *src;
};

/* The table, in name order (generated into the build tree from the .py files). */
extern const struct sbi_pysrc sbi_pysrcs[];
extern const size_t sbi_n_pysrcs;

/* The source of sandbox/inside/py/<module>.py, or NULL when the table holds no such file. */
const char *sbi_pysrc_find(const char *module);

/* Runs sandbox/inside/py/<module>.py into a new dict holding only __builtins__ and what the file
 * defines: a new reference (a PyObject *, the caller's), or NULL with the Python error set (a
 * RuntimeError when the table holds no such file). Needs the interpreter and its lock. */
void *sbi_pysrc_run(const char *module);

#endif
