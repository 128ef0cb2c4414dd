/* exits.c - the declared exits read back from JSON and checked, and named (exits.h). */
#include "exits.h"

#include <math.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"

/* o[key] as a number in (0, hi], or [0, hi] when zero_ok; 0 when absent or null. Returns 0 or
 * -1. */
static int fraction(const cJSON *o, const char *key, bool zero_ok, double hi, double *out,
		    char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = 0.0;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || !((zero_ok ? v->valuedouble >= 0 : v->valuedouble > 0) &&
				    v->valuedouble <= hi)) {
		sa_fmt(err, errlen, "exits: %s is not a number in %s0, %g]", key, zero_ok ? "[" : "(", hi);
		return -1;
	}
	*out = v->valuedouble;
	return 0;
}

static int trailing(const cJSON *t, struct rp_exits *x, char *err, size_t errlen)
{
	const cJSON *only = cJSON_GetObjectItemCaseSensitive(t, "only_offset");
	const cJSON *first = cJSON_GetObjectItemCaseSensitive(t, "best_first");

	if (!t || cJSON_IsNull(t))
		return 0;
	if (fraction(t, "distance", false, 1, &x->trail, err, errlen) < 0 ||
	    fraction(t, "positive", false, 1, &x->trail_positive, err, errlen) < 0 ||
	    fraction(t, "offset", true, 1e12, &x->trail_offset, err, errlen) < 0)
		return -1;
	if (!(x->trail > 0) || (only && !cJSON_IsBool(only)) || (first && !cJSON_IsBool(first))) {
		sa_fmt(err, errlen, "exits: trailing needs a distance in (0, 1], and only_offset and "
		       "best_first booleans");
		return -1;
	}
	x->trail_only_offset = cJSON_IsTrue(only);
	x->trail_best_first = cJSON_IsTrue(first);
	return 0;
}

static int roi(const cJSON *a, struct rp_exits *x, char *err, size_t errlen)
{
	const cJSON *step;

	if (!a || cJSON_IsNull(a))
		return 0;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > RP_ROI_MAX) {
		sa_fmt(err, errlen, "exits: roi is not a list of at most %d steps", RP_ROI_MAX);
		return -1;
	}
	cJSON_ArrayForEach(step, a) {
		const cJSON *m = cJSON_GetArrayItem(step, 0), *r = cJSON_GetArrayItem(step, 1);
		if (cJSON_GetArraySize(step) != 2 || !cJSON_IsNumber(m) || !cJSON_IsNumber(r) ||
		    !(m->valuedouble >= 0 && m->valuedouble < 1e12) ||
		    !(r->valuedouble >= -1 && r->valuedouble < 1e12) ||
		    (x->n_roi && !(m->valuedouble > x->roi[x->n_roi - 1].minutes))) {
			sa_fmt(err, errlen, "exits: roi step %zu is not [minutes >= 0, return >= -1] "
			       "with minutes ascending", x->n_roi + 1);
			return -1;
		}
		x->roi[x->n_roi++] = (struct rp_roi_step){ m->valuedouble, r->valuedouble };
	}
	return 0;
}

/* o[key] as a boolean into *out (false when absent or null). Returns 0 or -1. */
static int boolean(const cJSON *o, const char *key, bool *out, char *err, size_t errlen)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = false;
	if (!v || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsBool(v)) {
		sa_fmt(err, errlen, "exits: %s is not true or false", key);
		return -1;
	}
	*out = cJSON_IsTrue(v);
	return 0;
}

/* freqtrade's rules about the open trade: exit_profit_only with its exit_profit_offset (a
 * return, in [-1, 1e12)), ignore_roi_if_entry_signal. */
static int trade_rules(const cJSON *o, struct rp_exits *x, char *err, size_t errlen)
{
	const cJSON *off = cJSON_GetObjectItemCaseSensitive(o, "exit_profit_offset");

	if (boolean(o, "exit_profit_only", &x->exit_profit_only, err, errlen) < 0 ||
	    boolean(o, "ignore_roi_if_entry_signal", &x->ignore_roi_if_entry_signal, err, errlen) < 0)
		return -1;
	if (!off || cJSON_IsNull(off))
		return 0;
	if (!cJSON_IsNumber(off) || !(off->valuedouble >= -1 && off->valuedouble < 1e12)) {
		sa_fmt(err, errlen, "exits: exit_profit_offset is not a return in [-1, 1e12)");
		return -1;
	}
	x->exit_profit_offset = off->valuedouble;
	return 0;
}

int rp_exits_from_json(const cJSON *o, struct rp_exits *x, char *err, size_t errlen)
{
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "error");

	memset(x, 0, sizeof(*x));
	if (!o || !sa_json_bool(o, "declared", false))
		return 0;
	if (cJSON_IsString(e)) {
		sa_fmt(err, errlen, "%s", e->valuestring);
		return -1;
	}
	if (fraction(o, "stop_loss", false, 1, &x->stop_loss, err, errlen) < 0 ||
	    fraction(o, "take_profit", false, 1e12, &x->take_profit, err, errlen) < 0 ||
	    trailing(cJSON_GetObjectItemCaseSensitive(o, "trailing"), x, err, errlen) < 0 ||
	    roi(cJSON_GetObjectItemCaseSensitive(o, "roi"), x, err, errlen) < 0 ||
	    trade_rules(o, x, err, errlen) < 0) {
		memset(x, 0, sizeof(*x));
		return -1;
	}
	/* freqtrade's exits read profits with the fee, as its Trade does (rp_exits) */
	x->fee_in_profit = !strcmp(sa_json_str(o, "source", ""), "freqtrade");
	return 0;
}

const cJSON *rp_exits_of_inspect(const cJSON *inspect)
{
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(inspect, "strategy"),
						"exits");
}

int rp_exits_read_inspect(const char *path, struct rp_exits *x, char *err, size_t errlen)
{
	char why[400];
	cJSON *ins = sa_json_read(path, SA_JSON_CAP, why, sizeof why);
	int rc = -1;

	memset(x, 0, sizeof *x);
	if (!ins) {
		sa_fmt(err, errlen, "inspect.json unusable (%s), so the declared exits are unknown", why);
		goto out;
	}
	if (rp_exits_from_json(rp_exits_of_inspect(ins), x, why, sizeof why) < 0) {
		sa_fmt(err, errlen, "the strategy's exits cannot be replayed: %s", why);
		goto out;
	}
	rc = 0;
out:
	cJSON_Delete(ins);
	return rc;
}

const char *rp_exit_reason_name(enum rp_exit_reason e)
{
	static const char *const names[RP_EXIT_N] = {
		[RP_EXIT_UNKNOWN] = "", [RP_EXIT_SIGNAL] = "signal", [RP_EXIT_STOP_LOSS] = "stop_loss",
		[RP_EXIT_TAKE_PROFIT] = "take_profit", [RP_EXIT_ROI] = "roi",
		[RP_EXIT_TRAILING_STOP] = "trailing_stop", [RP_EXIT_END] = "end", [RP_EXIT_RUIN] = "ruin",
		[RP_EXIT_CUSTOM] = "custom_exit",
	};

	return (unsigned)e < RP_EXIT_N ? names[e] : "";
}

bool rp_exits_any(const struct rp_exits *x)
{
	return x && (x->stop_loss > 0 || x->take_profit > 0 || x->trail > 0 || x->n_roi > 0 ||
		     x->exit_profit_only);
}
