/* calls.c - the live run's callback answers read from lookahead.json (calls.h). */
#include "calls.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"

void rp_calls_read_release(struct rp_calls_read *c)
{
	free(c->stop);
	free(c->exit);
	free(c->refused);
	free(c->side);
	free(c->entry);
	free(c->reason);
	memset(c, 0, sizeof *c);
}

/* One row of "calls", [bar, side, entry bar, asked, ratio or null, exit, reason, entry refused],
 * into c. Returns its bar, or -1 when it is malformed. */
static long call_row(const cJSON *row, size_t n_bars, struct rp_calls_read *c)
{
	const cJSON *v[8];
	double bar, side, entry, ex, no;

	if (!cJSON_IsArray(row) || cJSON_GetArraySize(row) != 8)
		return -1;
	for (int k = 0; k < 8; k++)
		v[k] = cJSON_GetArrayItem(row, k);
	for (int k = 0; k < 8; k++)
		if (k != 6 && !cJSON_IsNumber(v[k]) && !(k == 4 && cJSON_IsNull(v[k])))
			return -1;
	if (!cJSON_IsString(v[6]))
		return -1;
	no = v[7]->valuedouble;
	if ((no != 0 && no != 1) ||
	    (no == 1 && (v[2]->valuedouble != v[0]->valuedouble || v[5]->valuedouble != 0 ||
			 !cJSON_IsNull(v[4]) || *v[6]->valuestring)))
		return -1;
	bar = v[0]->valuedouble;
	side = v[1]->valuedouble;
	entry = v[2]->valuedouble;
	ex = v[5]->valuedouble;
	if (!(bar >= 0 && bar < (double)n_bars && bar == floor(bar)) || (side != 1 && side != -1) ||
	    !(entry >= 0 && entry <= bar && entry == floor(entry)) || (ex != 0 && ex != 1))
		return -1;
	if (cJSON_IsNumber(v[4]) && !(isfinite(v[4]->valuedouble) && v[4]->valuedouble != 0 &&
				       fabs(v[4]->valuedouble) <= 1))
		return -1;
	c->side[(size_t)bar] = (int8_t)side;
	c->entry[(size_t)bar] = (uint32_t)entry;
	c->stop[(size_t)bar] = cJSON_IsNumber(v[4]) ? v[4]->valuedouble : NAN;
	c->exit[(size_t)bar] = (uint8_t)ex;
	c->refused[(size_t)bar] = (uint8_t)no;
	c->reason[(size_t)bar] = v[6]->valuestring;
	return (long)bar;
}

static int calls_alloc(struct rp_calls_read *c, size_t n_bars)
{
	size_t m = n_bars ? n_bars : 1;

	c->stop = malloc(m * sizeof *c->stop);
	c->exit = calloc(m, 1);
	c->refused = calloc(m, 1);
	c->side = calloc(m, 1);
	c->entry = calloc(m, sizeof *c->entry);
	c->reason = malloc(m * sizeof *c->reason);
	if (!c->stop || !c->exit || !c->refused || !c->side || !c->entry || !c->reason)
		return -1;
	for (size_t i = 0; i < n_bars; i++) {
		c->stop[i] = NAN;
		c->reason[i] = "";
	}
	return 0;
}

int rp_read_calls(const cJSON *lookahead, size_t n_bars, struct rp_calls_read *c, char *err,
		  size_t errlen)
{
	const cJSON *live = cJSON_GetObjectItemCaseSensitive(lookahead, "live");
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(live, "calls"), *row;
	long last = -1;

	memset(c, 0, sizeof *c);
	if (!a)
		return 0;
	if (!cJSON_IsArray(a)) {
		sa_fmt(err, errlen, "lookahead.json live.calls is not an array");
		return -1;
	}
	if (calls_alloc(c, n_bars) < 0) {
		rp_calls_read_release(c);
		sa_fmt(err, errlen, "out of memory reading lookahead.json live.calls");
		return -1;
	}
	c->fee_bps = sa_json_num(live, "calls_fee_bps", NAN);
	if (!(c->fee_bps >= 0)) {
		sa_fmt(err, errlen, "lookahead.json live.calls_fee_bps is not a fee");
		rp_calls_read_release(c);
		return -1;
	}
	cJSON_ArrayForEach(row, a) {
		long bar = call_row(row, n_bars, c);

		if (bar <= last) {
			sa_fmt(err, errlen, "lookahead.json live.calls has a malformed row after bar %ld "
			       "(each [bar, side, entry bar, asked, ratio or null, exit, reason, entry refused], "
			       "bars in order)",
			       last);
			rp_calls_read_release(c);
			return -1;
		}
		last = bar;
	}
	c->rc = (struct rp_calls){ .stop = c->stop, .exit = c->exit, .refused = c->refused,
				   .side = c->side, .entry = c->entry };
	return 1;
}
