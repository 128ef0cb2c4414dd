/* signals.h - the one check of what crosses the trust boundary: a run's signals array. */
#ifndef SA_SIGNALS_H
#define SA_SIGNALS_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Reads arr (borrowed; a run.json "signals" array) as exactly n_bars signals, each a JSON
 * number equal to -1, 0 or 1; anything else (a string, 0.5, 2, too few, too many) is refused,
 * never rounded. Returns 0 and a new array in *out (n_bars bytes, caller frees), or -1 with
 * *out NULL and "run.json ..." in err. */
int sa_signals_read(const cJSON *arr, size_t n_bars, int8_t **out, char *err, size_t errlen);

#endif
