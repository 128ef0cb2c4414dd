/* inspect_core.h - the inspect stage's core: what an upload is (size, encoding, lines, shape,
 * red flags) without executing any of it, as the objects of inspect.json. */
#ifndef INSPECT_CORE_H
#define INSPECT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "inspect_parse.h"

/* Longest source line quoted in a flag, in bytes (cut at a character boundary). */
#define INSPECT_SOURCE_MAX 200

/* Inspects a strategy held in buf (len bytes; buf[len] must be NUL, as sa_read_file gives).
 * Returns a new "strategy" object (caller frees). When the file cannot be audited as it is,
 * reason gets why (for inspect.json's "reason") and the function returns the object anyway;
 * otherwise reason is "". *broken is set when the tool itself failed (no fork, no
 * interpreter). Never exits; NULL only when out of memory. */
cJSON *inspect_strategy_buf(const char *buf, size_t len, const struct inspect_limits *lim,
			    char *reason, size_t reasonlen, bool *broken);

/* Same for a file: reads it capped at SA_STRATEGY_CAP; a missing, unreadable or oversized file
 * is a reason, not a failure. */
cJSON *inspect_strategy_file(const char *path, const struct inspect_limits *lim,
			     char *reason, size_t reasonlen, bool *broken);

/* Inspects a trade log held in buf (len bytes): columns found, rows, and the first error with
 * its line. Returns a new "tradelog" object (caller frees); reason as above. */
cJSON *inspect_tradelog_buf(const char *buf, size_t len, char *reason, size_t reasonlen);

/* The same with a column map (TRADES_COLUMNS; NULL or "": the layout is detected), recording
 * the layout read as "format". */
cJSON *inspect_tradelog_buf_map(const char *buf, size_t len, const char *colmap, char *reason,
				size_t reasonlen);

/* Same for a file, read capped at SA_UPLOAD_CAP. */
cJSON *inspect_tradelog_file(const char *path, const char *colmap, char *reason, size_t reasonlen);

/* The skeletons written when an upload was not given: every field present, "present": false.
 * Caller frees. */
cJSON *inspect_strategy_absent(void);
cJSON *inspect_tradelog_absent(void);

/* Builds the whole inspect.json from the two objects (takes ownership of both) and their
 * reasons ("" when fine): stage, schema, ok, reason, flag_count, flag_counts. Caller frees. */
cJSON *inspect_report(cJSON *strategy, const char *sreason, cJSON *tradelog, const char *treason);

#endif
