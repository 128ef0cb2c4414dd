/* runsig.h - the signals the upload's re-runs gave, kept for the stages that score them: the
 * stages that run the upload write them (robust_signals.bin, variant_signals.bin) beside a JSON
 * index of the runs, and the stages that judge read them back, so a host-side knob (a cost, a
 * threshold) scores again without running the upload. */
#ifndef SA_RUNSIG_H
#define SA_RUNSIG_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "ohlcv.h"

/* A signals file, little-endian:
 *   bytes 0-7   the magic "SASIGS1\n"
 *   then every run's signals one after another, one int8 a bar (-1 to DA_SIGNAL_EVENTS_MAX, as
 *   the sandbox's driver validated them: a position, and a framework run's events, signals.h); the index names where each run's start ("at", counted from the
 *   first byte after the magic) and how many bars it ran on ("bars"). */
#define DA_RUNSIG_MAGIC "SASIGS1\n"
#define DA_RUNSIG_CAP ((size_t)1024 * 1024 * 1024)  /* the largest file read back */

/* A growing buffer of signals (writing) or a file read back (reading). */
struct da_runsig {
	int8_t *v;
	size_t n, cap;
};

/* Appends n signals to b; *at gets where they start. Returns 0, or -1 when memory ran out. */
int da_runsig_add(struct da_runsig *b, const int8_t *sig, size_t n, size_t *at);

/* Writes b to path atomically and its sha256 (of the whole file) into hex. Returns 0, or -1
 * with the reason in err. */
int da_runsig_write(const struct da_runsig *b, const char *path, char hex[65], char *err, size_t errlen);

/* Reads path into *b; when sha256 is not NULL the file must hash to it (a file from another
 * set of runs is refused, never mixed in). Every value must be a signal (-1 to DA_SIGNAL_EVENTS_MAX). Returns 0,
 * or -1 with the reason in err naming the file. */
int da_runsig_read(const char *path, const char *sha256, struct da_runsig *b, char *err, size_t errlen);

/* Frees what b holds and zeroes it. Safe on a zeroed struct. */
void da_runsig_release(struct da_runsig *b);

/* The signals of one run of an index (entry borrowed: "at", a whole number or null, and
 * "bars"): *sig points into b (NULL when "at" is null: the run gave none), *n gets "bars".
 * Returns 0, or -1 with err naming the field when the entry is malformed or points outside b. */
int da_runsig_run(const struct da_runsig *b, const cJSON *entry, const int8_t **sig, size_t *n,
		  char *err, size_t errlen);

/* The sha256 of the bars as loaded (times and prices, each column's bytes hashed, then the
 * column hashes): the index records it, so the bars a run was scored on are the bars it ran on,
 * whatever file or knob (ADJUSTED) gave them. Returns 0, or -1 with the reason in err. */
int da_bars_sha256(const struct da_ohlcv *s, char hex[65], char *err, size_t errlen);

#endif
