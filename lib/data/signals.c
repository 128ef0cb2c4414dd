/* signals.c - validating a run's signals array (signals.h). */
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "jsonio.h"
#include "signals.h"

int da_signals_read(const cJSON *arr, size_t n_bars, int8_t **out, char *err, size_t errlen)
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

long da_run_blocked(const cJSON *run)
{
	const cJSON *b = cJSON_GetObjectItemCaseSensitive(run, "blocked_actions");

	if (cJSON_IsArray(b))
		return cJSON_GetArraySize(b);
	if (cJSON_IsNumber(b) && b->valuedouble > 0)
		return b->valuedouble < 1e9 ? (long)b->valuedouble : 1000000000L;
	return 0;
}

int da_run_signals(const cJSON *run, size_t n_bars, unsigned flags, int8_t **sig, char *err,
		   size_t errlen)
{
	const char *status = sa_json_str(run, "status", NULL);
	double claimed = sa_json_num(run, "n_bars", -1);
	long blocked = da_run_blocked(run);

	*sig = NULL;
	if (!status) {
		sa_fmt(err, errlen, "run.json has no \"status\" (status 'missing')");
		return -1;
	}
	if (strcmp(status, "ok") != 0 || !sa_json_bool(run, "ok", false)) {
		sa_fmt(err, errlen, "the strategy run did not finish cleanly (status '%.40s')", status);
		return -1;
	}
	if ((flags & DA_RUN_UNCONTAINED) && blocked > 0) {
		sa_fmt(err, errlen, "the strategy run was contained (%ld blocked action%s), so the upload "
		       "is not run again", blocked, blocked == 1 ? "" : "s");
		return -1;
	}
	if (claimed != (double)n_bars) {
		sa_fmt(err, errlen, "run.json n_bars is %g but the data has %zu bars", claimed, n_bars);
		return -1;
	}
	return da_signals_read(cJSON_GetObjectItemCaseSensitive(run, "signals"), n_bars, sig, err,
			       errlen);
}
