/* stats_spread.c - the spread the bars imply, their staleness, and the bounce check. */
#include "stats_spread.h"

#include <math.h>
#include <stdbool.h>

#include "costs.h"
#include "jsonio.h"
#include "stats_core.h"
#include "stats_rerun.h"

static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, ST_DIGITS);
}

/* Positive dependence no walk of independent returns gives (two standard errors of a lag-1
 * autocorrelation), or one close in ten unchanged: prices that lag the market they record. */
static bool stale(const struct rp_spread *e)
{
	return e->returns_lag1 > 2.0 / sqrt((double)e->bars) || e->zero_returns >= 0.1;
}

/* Returns that undo the last one beyond what chance gives (two standard errors of a lag-1
 * autocorrelation): the closes bounce between two sides of a spread. */
static bool bounces(const struct rp_spread *e)
{
	return e->returns_lag1 < -2.0 / sqrt((double)e->bars);
}

static void add_prices(cJSON *o, const struct da_ohlcv *s, const struct rp_costs *c)
{
	cJSON *t = cJSON_AddObjectToObject(o, "tradeable_prices");
	enum rp_market m = rp_market_of(c, s);
	struct rp_costs own = *c;
	struct rp_spread e;

	rp_spread_estimate(s, &e);
	own.spread_floor_bps = 0.0;
	cJSON_AddNumberToObject(t, "bars", (double)e.bars);
	add_num(t, "roll_spread", e.roll);
	add_num(t, "corwin_schultz_spread", e.corwin_schultz);
	add_num(t, "abdi_ranaldo_spread", e.abdi_ranaldo);
	add_num(t, "spread_estimate", e.estimate);
	add_num(t, "spread_floor", c->spread_floor);
	add_num(t, "slippage_floor_bps", c->spread_floor_bps);
	add_num(t, "slippage_configured_bps", rp_slippage_bps(&own, m));
	add_num(t, "slippage_bps", rp_slippage_bps(c, m));
	cJSON_AddBoolToObject(t, "slippage_floored", c->spread_floor_bps > rp_slippage_bps(&own, m));
	add_num(t, "returns_lag1", e.returns_lag1);
	add_num(t, "zero_returns_share", e.zero_returns);
	cJSON_AddBoolToObject(t, "stale", stale(&e));
	cJSON_AddBoolToObject(t, "bounces", bounces(&e));
	cJSON_AddStringToObject(t, "method",
		"spreads as fractions of the price: Roll 1984 (2 sqrt(-cov) of lag-1 log returns), "
		"Corwin-Schultz 2012 (two-bar high-low, gaps removed, negatives 0, mean), "
		"Abdi-Ranaldo 2017 (close against the mid-range of its bar and the next); the "
		"estimate is the least of them; slippage per side is at least spread_floor x half "
		"of it; stale: lag-1 autocorrelation of returns above 2 / sqrt(bars), or 10 % of "
		"closes unchanged; bounces: below -2 / sqrt(bars)");
}

static void add_bounce(cJSON *o, double net, bool bars_bounce, const struct sts_rerun *late,
		       const struct sts_rerun *conf)
{
	cJSON *b = cJSON_AddObjectToObject(o, "bounce");
	/* an edge of one bar's timing (an hour's drift) also dies a bar late: on bars that do not
	 * bounce that is timing, not a bounce */
	bool late_flip = bars_bounce && !late->unanswered && net > 0 && !(late->net_return > 0);
	bool spread_flip = conf->net_return > 0 && !(net > 0);

	add_num(b, "net_return", net);
	add_num(b, "net_return_one_bar_later", late->net_return);
	if (late->unanswered)
		cJSON_AddStringToObject(b, "one_bar_later_reason", STS_UNANSWERED);
	add_num(b, "net_return_configured_slippage", conf->net_return);
	cJSON_AddBoolToObject(b, "sign_changes_late", late_flip);
	cJSON_AddBoolToObject(b, "sign_changes_spread", spread_flip);
	cJSON_AddBoolToObject(b, "inside_bounce", late_flip || spread_flip);
	cJSON_AddBoolToObject(b, "bars_bounce", bars_bounce);
	cJSON_AddStringToObject(b, "rule",
		"inside_bounce: on bars that bounce (tradeable_prices.bounces), a positive net return "
		"that is not positive when every fill is one bar later (at the open of t+2); or one "
		"positive at the configured slippage that is not at the slippage the estimated "
		"spread sets; such an edge cannot be READY. A class with per-trade callbacks has no "
		"one-bar-later figure (one_bar_later_reason): its rule is the spread's alone");
}

int sts_spread_report(cJSON *o, const struct da_ohlcv *s, const int8_t *signals,
		      const struct rp_costs *c, double net_return, const char *why)
{
	struct sts_rerun late, conf;
	struct rp_costs own;
	struct rp_spread e;

	if (!s) {
		cJSON_AddNullToObject(o, "tradeable_prices");
		cJSON_AddStringToObject(o, "tradeable_prices_reason", why ? why : "no price data");
		cJSON_AddNullToObject(o, "bounce");
		cJSON_AddStringToObject(o, "bounce_reason", why ? why : "no price data");
		return 0;
	}
	add_prices(o, s, c);
	if (!signals) {
		cJSON_AddNullToObject(o, "bounce");
		cJSON_AddStringToObject(o, "bounce_reason",
			"no signals to replay (a trade log): its fills cannot be moved");
		return 0;
	}
	own = *c;
	own.spread_floor_bps = 0.0;
	if (sts_rerun(s, signals, c, 1, 1.0, &late) < 0 || sts_rerun(s, signals, &own, 0, 1.0, &conf) < 0)
		return -1;
	rp_spread_estimate(s, &e);
	add_bounce(o, net_return, bounces(&e), &late, &conf);
	return 0;
}
