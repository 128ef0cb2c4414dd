/* nightly_decide.h - what a night needs to know before auditing one strategy: its TRIALS from
 * the file's header, the key its audit depends on, and whether that key was audited already. */
#ifndef NIGHTLY_DECIDE_H
#define NIGHTLY_DECIDE_H

#include <stdbool.h>
#include <stddef.h>

/* The stage binaries an audit runs; a change to any of them changes the tool key. */
#define NIGHTLY_TOOL_BINS "config fingerprint inspect sandbox lookahead variants replay stats verdict report bundle"

/* What an audit's result depends on. A sha is "" when that input is absent. */
struct nightly_key {
	char code[65];      /* the strategy .py */
	char tradelog[65];  /* the trade-log .csv */
	char data[65];      /* the OHLCV csv */
	char config[65];    /* the audit's config.json (every knob, TRIALS included) */
	char tool[96];      /* "VERSION/sha256 of the stage binaries' sums" */
};

/* Finds a "# trials: N" line in the file's header (the leading lines that are blank or start
 * with '#'), case-insensitive, N an integer in 1..1000000. Returns 1 and sets *trials when
 * found, 0 when the header has no such line (or N is out of range). Never fails. */
int nightly_trials_from_header(const char *buf, size_t len, long *trials);

/* Finds a "# data: PATH" line in the file's header (as for trials) and writes into path the
 * PATH as given when it is absolute, else relative to the folder of upload (the file's own
 * path, borrowed). Returns 1 when found, 0 when the header has none, -1 when PATH holds a
 * control character or does not fit pathlen. Never fails otherwise. */
int nightly_data_from_header(const char *buf, size_t len, const char *upload, char *path, size_t pathlen);

/* Computes the tool key from the binaries named in NIGHTLY_TOOL_BINS in bindir. A missing
 * binary counts as the text "missing", so the key still changes when it appears. Writes into
 * key (at least 96 bytes). Returns 0, or -1 with a message when a binary cannot be read. */
int nightly_tool_key(const char *bindir, const char *version, char key[96]);

/* Fills k from the files (strategy or tradelog may be NULL; config may be NULL too) and the
 * tool key. Returns 0, or -1 with a message printed when a present file cannot be hashed. */
int nightly_key_compute(struct nightly_key *k, const char *strategy, const char *tradelog,
			const char *data, const char *config, const char *tool);

/* True when the earlier audit described by its fingerprint.json fields matches k on code and
 * data, so the results in the out directory belong to this key. Borrowed strings; NULL is "". */
bool nightly_fingerprint_matches(const struct nightly_key *k, const char *fp_code,
				 const char *fp_tradelog, const char *fp_data);

#endif
