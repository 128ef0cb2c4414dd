/* signals.c - validating a run's signals array (signals.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "msg.h"
#include "jsonio.h"
#include "signals.h"

/* Reads arr as exactly n_bars signals, each -1, 0 or 1, and with entries any whole number to
 * DA_SIGNAL_EVENTS_MAX (a position with events), kept as they are with DA_RUN_ENTRIES in flags and
 * otherwise taken as their positions; err names it by what (a file and its field: "run.json",
 * "lookahead.json live.signals") and its items by item ("signal", "value"). */
static int read_array(const cJSON *arr, size_t n_bars, const char *what, const char *item,
		      bool entries, unsigned flags, int8_t **out, char *err, size_t errlen)
{
	const cJSON *v;
	int8_t *sig = NULL;
	size_t i = 0;
	int rc = -1;

	*out = NULL;
	if (!cJSON_IsArray(arr) || (size_t)cJSON_GetArraySize(arr) != n_bars) {
		sa_fmt(err, errlen, "%s holds %d %ss for %zu bars of data; one per bar is needed",
		       what, cJSON_IsArray(arr) ? cJSON_GetArraySize(arr) : 0, item, n_bars);
		goto out;
	}
	sig = malloc(n_bars ? n_bars : 1);
	if (!sig) {
		sa_fmt(err, errlen, "out of memory reading %zu signals", n_bars);
		goto out;
	}
	cJSON_ArrayForEach(v, arr) {
		double x = cJSON_IsNumber(v) ? v->valuedouble : 0.5;
		bool coded = entries && x > 1.0 && x <= DA_SIGNAL_EVENTS_MAX && x == (double)(int)x;

		if (x != -1.0 && x != 0.0 && x != 1.0 && !coded) {
			sa_fmt(err, errlen, "%s %s %zu is not -1, 0 or 1", what, item, i);
			goto out;
		}
		sig[i++] = (int8_t)(coded && !(flags & DA_RUN_ENTRIES) ? da_position((int)x) : (int)x);
	}
	*out = sig;
	sig = NULL;
	rc = 0;
out:
	free(sig);
	return rc;
}

int da_signals_read(const cJSON *arr, size_t n_bars, int8_t **out, char *err, size_t errlen)
{
	return read_array(arr, n_bars, "run.json", "signal", false, 0, out, err, errlen);
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
	return read_array(cJSON_GetObjectItemCaseSensitive(run, "signals"), n_bars, "run.json",
			  "signal", sa_json_bool(run, "signal_entries", false), flags, sig, err, errlen);
}

int da_live_signals(const cJSON *lookahead, size_t n_bars, unsigned flags, int8_t **sig, char *err,
		    size_t errlen)
{
	const cJSON *live = cJSON_GetObjectItemCaseSensitive(lookahead, "live");
	const cJSON *ok = cJSON_GetObjectItemCaseSensitive(live, "ok");

	*sig = NULL;
	if (!cJSON_IsObject(lookahead)) {
		sa_fmt(err, errlen, "lookahead.json is not a JSON object");
		return DA_LIVE_ERROR;
	}
	if (!live || cJSON_IsNull(live)) {
		if (sa_json_bool(lookahead, "ok", false))
			sa_fmt(err, errlen, "lookahead.json has no live object: no bar was decided live");
		else
			sa_fmt(err, errlen, "lookahead.json has no live object: the look-ahead stage "
			       "failed (%.300s)", sa_json_str(lookahead, "reason", "no reason given"));
		return DA_LIVE_NONE;
	}
	if (!cJSON_IsObject(live)) {
		sa_fmt(err, errlen, "lookahead.json live is not an object");
		return DA_LIVE_ERROR;
	}
	if (!cJSON_IsBool(ok)) {
		sa_fmt(err, errlen, "lookahead.json live.ok is not true or false");
		return DA_LIVE_ERROR;
	}
	if (cJSON_IsFalse(ok)) {
		sa_fmt(err, errlen, "the live replay could not run (lookahead.json live.reason: %.300s)",
		       sa_json_str(live, "reason", "none given"));
		return DA_LIVE_NONE;
	}
	if (read_array(cJSON_GetObjectItemCaseSensitive(live, "signals"), n_bars,
		       "lookahead.json live.signals", "value", sa_json_bool(live, "signal_entries", false),
		       flags, sig, err, errlen) < 0)
		return DA_LIVE_ERROR;
	return DA_LIVE_OK;
}

/* One side's [[bar, place], ...] into v (n_bars bytes, zeroed), places from 0 below k. */
static int tag_bars(const cJSON *a, const char *side, size_t n_bars, size_t k, uint8_t *v,
		    char *err, size_t errlen)
{
	const cJSON *p;
	double last = -1;
	size_t i = 0;

	if (!cJSON_IsArray(a)) {
		sa_fmt(err, errlen, "run.json tags.%s is not a list of [bar, tag] pairs", side);
		return -1;
	}
	cJSON_ArrayForEach(p, a) {
		const cJSON *b = cJSON_GetArrayItem(p, 0), *x = cJSON_GetArrayItem(p, 1);

		if (!cJSON_IsArray(p) || cJSON_GetArraySize(p) != 2 || !cJSON_IsNumber(b) ||
		    !cJSON_IsNumber(x) || !(b->valuedouble > last) || !(b->valuedouble < (double)n_bars) ||
		    b->valuedouble != (double)(size_t)b->valuedouble || !(x->valuedouble >= 0) ||
		    !(x->valuedouble < (double)k) || x->valuedouble != (double)(size_t)x->valuedouble) {
			sa_fmt(err, errlen, "run.json tags.%s pair %zu is not [bar, tag] with the bars "
			       "ascending below %zu and the tag below %zu", side, i + 1, n_bars, k);
			return -1;
		}
		last = b->valuedouble;
		v[(size_t)b->valuedouble] = (uint8_t)(x->valuedouble + 1);
		i++;
	}
	return 0;
}

/* The names into t, checked as the wire checks them. */
static int tag_names(const cJSON *a, struct da_tags *t, char *err, size_t errlen)
{
	const cJSON *v;
	size_t k = (size_t)cJSON_GetArraySize(a), i = 0;

	if (!cJSON_IsArray(a) || k < 1 || k > DA_TAGS_MAX) {
		sa_fmt(err, errlen, "run.json tags.names is not a list of 1 to %d names", DA_TAGS_MAX);
		return -1;
	}
	if (!(t->names = calloc(k, sizeof *t->names))) {
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	cJSON_ArrayForEach(v, a) {
		const char *s = cJSON_GetStringValue(v);
		size_t m = s ? strlen(s) : 0;
		bool ok = m >= 1 && m <= DA_TAG_NAME_MAX;

		for (size_t c = 0; ok && c < m; c++)
			ok = s[c] >= 0x20 && s[c] <= 0x7e;
		for (size_t j = 0; ok && j < i; j++)
			ok = strcmp(t->names[j], s) != 0;
		if (!ok) {
			sa_fmt(err, errlen, "run.json tags.names %zu is not a new name of 1 to %d "
			       "printable ASCII characters", i + 1, DA_TAG_NAME_MAX);
			return -1;
		}
		memcpy(t->names[i++], s, m);
	}
	t->n_names = k;
	return 0;
}

int da_run_tags(const cJSON *run, size_t n_bars, struct da_tags *t, char *err, size_t errlen)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(run, "tags");

	memset(t, 0, sizeof *t);
	if (!o || cJSON_IsNull(o))
		return 0;
	if (!cJSON_IsObject(o)) {
		sa_fmt(err, errlen, "run.json tags is not an object");
		return -1;
	}
	if (tag_names(cJSON_GetObjectItemCaseSensitive(o, "names"), t, err, errlen) < 0)
		goto bad;
	if (!(t->enter = calloc(n_bars ? n_bars : 1, 1)) || !(t->exit = calloc(n_bars ? n_bars : 1, 1))) {
		sa_fmt(err, errlen, "out of memory");
		goto bad;
	}
	if (tag_bars(cJSON_GetObjectItemCaseSensitive(o, "enter"), "enter", n_bars, t->n_names,
		     t->enter, err, errlen) < 0 ||
	    tag_bars(cJSON_GetObjectItemCaseSensitive(o, "exit"), "exit", n_bars, t->n_names,
		     t->exit, err, errlen) < 0)
		goto bad;
	return 0;
bad:
	da_tags_release(t);
	return -1;
}

const char *da_tag_name(const struct da_tags *t, unsigned k)
{
	return t && k >= 1 && k <= t->n_names ? t->names[k - 1] : "";
}

void da_tags_release(struct da_tags *t)
{
	free(t->names);
	free(t->enter);
	free(t->exit);
	memset(t, 0, sizeof *t);
}
