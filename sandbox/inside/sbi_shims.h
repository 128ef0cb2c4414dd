/* sbi_shims.h - the framework shims: trusted Python modules (sandbox/inside/shims/) that let a
 * freqtrade or backtesting.py strategy run unchanged, loaded into the zygote before any upload. */
#ifndef SBX_SHIMS_H
#define SBX_SHIMS_H

#include <stddef.h>

/* One module of sandbox/inside/shims/, its source embedded at build time (scripts/embed-py). */
struct sbi_shim {
	const char *module;  /* dotted name: "talib.abstract" */
	int package;         /* 1 for a package's __init__.py */
	const char *src;
};

/* The table, in name order (generated into the build tree from the .py files). */
extern const struct sbi_shim sbi_shims[];
extern const size_t sbi_n_shims;

/* In the zygote, when src[0..len) names a framework (its words are searched, never run): puts a
 * finder for the shims first on sys.meta_path, imports every shim (so no run imports one after
 * lockdown and no run reads a file for them), and stores the adapter that turns a framework
 * class into signals(df) as helpers["adapt"] (helpers: the zygote's dict of trusted helpers,
 * borrowed). params[0..plen) is the text of freqtrade's parameter file beside the strategy
 * (sbx_proto.h; plen 0 when none), handed to the shims. Returns 1 when loaded, 0 when the source names no framework, -1 when a shim fails
 * (a Python error is printed; the shims are trusted code, so that is the tool's fault). */
int sbi_shims_load(void *helpers, const char *src, size_t len, const char *params, size_t plen);

#endif
