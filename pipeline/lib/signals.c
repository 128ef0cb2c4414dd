/* signals.c - validating a run's signals array (signals.h). */
#include <stdlib.h>

#include "msg.h"
#include "signals.h"

int sa_signals_read(const cJSON *arr, size_t n_bars, int8_t **out, char *err, size_t errlen)
{
	const cJSON *v;
	int8_t *sig = NULL;
	size_t i = 0;
	int rc = -1;

	*out = NULL;
	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n_bars) {
		sa_fmt(err, errlen, "run.json holds %d signals for %zu bars of data; one per bar is needed",
		       cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0, n_bars);
		goto out;
	}
	sig = malloc(n_bars ? n_bars : 1);
	if (!sig) {
		sa_fmt(err, errlen, "out of memory reading %zu signals", n_bars);
		goto out;
	}
	cJSON_ArrayForEach(v, arr) {
		double x = cJSON_IsNumber(v) ? v->valuedouble : 0.5;

		if (x != -1.0 && x != 0.0 && x != 1.0) {
			sa_fmt(err, errlen, "run.json signal %zu is not -1, 0 or 1", i);
			goto out;
		}
		sig[i++] = (int8_t)x;
	}
	*out = sig;
	sig = NULL;
	rc = 0;
out:
	free(sig);
	return rc;
}
