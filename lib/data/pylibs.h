/* pylibs.h - the third-party Python modules a strategy may import: one list for the inspect
 * stage (which names any other) and fingerprint (which records their versions). Which of their
 * submodules the zygote imports ahead, and on which words of the source, is the sandbox's own
 * table (sandbox/inside/sbi_preimport.c), a policy of speed, not of what is allowed. */
#ifndef SA_PYLIBS_H
#define SA_PYLIBS_H

struct da_pylib {
	const char *module;        /* the name a strategy imports */
	const char *distribution;  /* the package metadata's name, for its version */
};

/* The list, ending with a row of NULLs. */
extern const struct da_pylib da_pylibs[];

/* The list above as text, for messages (a literal, so it can join a format). */
#define DA_PYLIBS_TEXT_SHORT "numpy, pandas, scipy, statsmodels, sklearn"

#endif
