/* costs.c - the cost model read from config.json, and each market's costs (costs.h). */
#include "costs.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "msg.h"

/* The market a MARKET text names (the knob table has checked it; "" is unset). */
static int market_of(const char *text, enum rp_market *m)
{
	static const enum rp_market all[] = { RP_MARKET_AUTO, RP_MARKET_PERP, RP_MARKET_SPOT,
					      RP_MARKET_STOCK, RP_MARKET_FX };

	for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
		if (!strcmp(text, rp_market_name(all[i]))) {
			*m = all[i];
			return 0;
		}
	return -1;
}

/* The fee and slippage of each market, used where FEE_BPS or SLIPPAGE_BPS is unset. */
static int read_market_defaults(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen)
{
	static const struct { enum rp_market m; enum sa_knob_id fee, slip; } rows[] = {
		{ RP_MARKET_PERP, SA_K_FEE_BPS_PERP, SA_K_SLIPPAGE_BPS_PERP },
		{ RP_MARKET_SPOT, SA_K_FEE_BPS_SPOT, SA_K_SLIPPAGE_BPS_SPOT },
		{ RP_MARKET_STOCK, SA_K_FEE_BPS_STOCK, SA_K_SLIPPAGE_BPS_STOCK },
		{ RP_MARKET_FX, SA_K_FEE_BPS_FX, SA_K_SLIPPAGE_BPS_FX },
	};

	c->market_fee_bps[RP_MARKET_AUTO] = c->market_slippage_bps[RP_MARKET_AUTO] = NAN;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		if (sa_config_num(cfg, rows[i].fee, &c->market_fee_bps[rows[i].m], err, errlen) < 0 ||
		    sa_config_num(cfg, rows[i].slip, &c->market_slippage_bps[rows[i].m], err, errlen) < 0)
			return -1;
	return 0;
}

int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen)
{
	long long income;
	const char *market;
	double min_commission, stake;

	if (sa_config_num(cfg, SA_K_FEE_BPS, &c->fee_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SLIPPAGE_BPS, &c->slippage_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_FUNDING_BPS_8H, &c->funding_bps_8h, err, errlen) < 0 ||
	    sa_config_int(cfg, SA_K_FUNDING_INCOME, &income, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_BORROW_BPS_YEAR, &c->borrow_bps_year, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SPREAD_FLOOR, &c->spread_floor, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_MIN_COMMISSION_STOCK, &min_commission, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_STAKE, &stake, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SWAP_LONG_BPS_YEAR, &c->swap_long_bps_year, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SWAP_SHORT_BPS_YEAR, &c->swap_short_bps_year, err, errlen) < 0 ||
	    sa_config_str(cfg, SA_K_MARKET, &market, err, errlen) < 0)
		return -1;
	c->funding_income = income != 0;
	c->spread_floor_bps = 0.0;
	c->rules_fee_set = false;  /* the exits' rules read the fee charged (rp_costs) */
	c->swap_column_k_set = false;  /* the data's swap columns charged once */
	c->calls = NULL;           /* a live run's callbacks' answers are the replay's to attach */
	c->min_fee_bps_stock = min_commission / stake * 1e4;
	if (read_market_defaults(cfg, c, err, errlen) < 0)
		return -1;
	if (market_of(market, &c->market) < 0) {
		sa_fmt(err, errlen, "config.json: costs.market '%s' is not one of: %s (MARKET)", market,
		       sa_knob_choices(SA_K_MARKET));
		return -1;
	}
	return 0;
}

/* --- the spread the bars imply ------------------------------------------------------- */

static bool bar_usable(const struct da_ohlcv *s, size_t i)
{
	return s->close[i] > 0 && s->high[i] > 0 && s->low[i] > 0 && s->high[i] >= s->low[i] &&
	       isfinite(s->close[i]) && isfinite(s->high[i]) && isfinite(s->low[i]);
}

/* Roll (1984) and the staleness figures, from the close-to-close returns. */
static void roll_and_staleness(const struct da_ohlcv *s, struct rp_spread *e)
{
	double sum_l = 0, sum_r = 0, sum_lr = 0, sum_ll = 0, sum_rr = 0, zeros = 0, m = 0;
	double cov, var_l, var_r;

	for (size_t i = 2; i < s->n; i++) {
		double a = log(s->close[i - 1] / s->close[i - 2]);  /* r_t-1 */
		double b = log(s->close[i] / s->close[i - 1]);      /* r_t */

		sum_l += a;
		sum_r += b;
		sum_lr += a * b;
		m++;
	}
	if (m < 2)
		return;
	cov = (sum_lr - sum_l * sum_r / m) / (m - 1);
	e->roll = cov < 0 ? 2.0 * sqrt(-cov) : 0.0;
	/* the staleness figures on simple returns, the lag-1 autocorrelation as a Pearson r */
	sum_l = sum_r = sum_lr = 0;
	m = 0;
	for (size_t i = 2; i < s->n; i++) {
		double a = s->close[i - 1] / s->close[i - 2] - 1, b = s->close[i] / s->close[i - 1] - 1;

		sum_l += a;
		sum_r += b;
		sum_lr += a * b;
		sum_ll += a * a;
		sum_rr += b * b;
		m++;
	}
	cov = sum_lr - sum_l * sum_r / m;
	var_l = sum_ll - sum_l * sum_l / m;
	var_r = sum_rr - sum_r * sum_r / m;
	e->returns_lag1 = var_l > 0 && var_r > 0 ? cov / sqrt(var_l * var_r) : NAN;
	for (size_t i = 1; i < s->n; i++)
		zeros += s->close[i] == s->close[i - 1];
	e->zero_returns = zeros / (double)(s->n - 1);
}

/* Corwin and Schultz (2012): the two-bar estimate of eq. 14 for bars i-1 and i. */
static double cs_pair(const struct da_ohlcv *s, size_t i)
{
	const double k = 3.0 - 2.0 * M_SQRT2;
	double h0 = s->high[i - 1], l0 = s->low[i - 1], h1 = s->high[i], l1 = s->low[i];
	double c0 = s->close[i - 1], beta, gamma, alpha, shift = 0;

	/* section 3.2: a gap between the bars is not spread, so bar i is moved back to the close */
	if (l1 > c0)
		shift = l1 - c0;
	else if (h1 < c0)
		shift = h1 - c0;
	h1 -= shift;
	l1 -= shift;
	beta = pow(log(h0 / l0), 2) + pow(log(h1 / l1), 2);
	gamma = pow(log(fmax(h0, h1) / fmin(l0, l1)), 2);
	alpha = (sqrt(2.0 * beta) - sqrt(beta)) / k - sqrt(gamma / k);
	return fmax(0.0, 2.0 * (exp(alpha) - 1.0) / (1.0 + exp(alpha)));
}

/* Corwin-Schultz and Abdi-Ranaldo, from highs, lows and closes. */
static void range_estimates(const struct da_ohlcv *s, struct rp_spread *e)
{
	double cs = 0, ar = 0, m = 0;

	for (size_t i = 1; i < s->n; i++) {
		double c = log(s->close[i - 1]);
		double eta0 = (log(s->high[i - 1]) + log(s->low[i - 1])) / 2;
		double eta1 = (log(s->high[i]) + log(s->low[i])) / 2;

		cs += cs_pair(s, i);
		ar += (c - eta0) * (c - eta1);
		m++;
	}
	if (m < 2)
		return;
	e->corwin_schultz = cs / m;
	e->abdi_ranaldo = sqrt(fmax(0.0, 4.0 * ar / m));
}

/* The smallest defined value of v, NAN when none is. */
static double least_defined(const double *v, size_t n)
{
	double x = NAN;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]) && !(v[i] >= x))
			x = v[i];
	return x;
}

void rp_spread_estimate(const struct da_ohlcv *s, struct rp_spread *e)
{
	double v[3];

	*e = (struct rp_spread){ 0, NAN, NAN, NAN, NAN, NAN, NAN };
	for (size_t i = 0; i < s->n; i++)
		if (!bar_usable(s, i))
			return;
	e->bars = s->n;
	if (s->n < 3)
		return;
	roll_and_staleness(s, e);
	range_estimates(s, e);
	v[0] = e->roll;
	v[1] = e->corwin_schultz;
	v[2] = e->abdi_ranaldo;
	/* Each estimator alone mistakes something else for a spread: Roll any mean reversion
	 * (and noise: a covariance is negative half the time without a spread), Corwin-Schultz
	 * the range of a bar sampled on an unbroken walk; the spread the three agree on is the
	 * least of them. */
	e->estimate = least_defined(v, 3);
}

void rp_costs_floor(struct rp_costs *c, const struct da_ohlcv *s, const struct rp_spread *e)
{
	struct rp_spread own;

	c->spread_floor_bps = 0.0;
	if (!(c->spread_floor > 0) || (!s && !e))
		return;
	if (!e) {
		rp_spread_estimate(s, &own);
		e = &own;
	}
	if (e->estimate > 0)
		c->spread_floor_bps = c->spread_floor * e->estimate / 2 * 1e4;
}

/* --- the costs a replay charges, by market ------------------------------------------- */

enum rp_market rp_market_of(const struct rp_costs *c, const struct da_ohlcv *s)
{
	if (c->market != RP_MARKET_AUTO)
		return c->market;
	if (s->fmt.perpetual[0])
		return RP_MARKET_PERP;
	if (s->fmt.sessions)
		return RP_MARKET_STOCK;
	return s->fmt.fx_week ? RP_MARKET_FX : RP_MARKET_SPOT;
}

double rp_fee_bps(const struct rp_costs *c, enum rp_market m)
{
	double fee = isnan(c->fee_bps) && (unsigned)m < RP_MARKETS ? c->market_fee_bps[m] : c->fee_bps;

	/* a stock order pays at least the broker's minimum commission, whatever its size */
	return m == RP_MARKET_STOCK && c->min_fee_bps_stock > fee ? c->min_fee_bps_stock : fee;
}

double rp_slippage_bps(const struct rp_costs *c, enum rp_market m)
{
	double own = isnan(c->slippage_bps) && (unsigned)m < RP_MARKETS ? c->market_slippage_bps[m] :
		     c->slippage_bps;

	/* a fill is never better than the half spread the bars themselves imply */
	return c->spread_floor_bps > own ? c->spread_floor_bps : own;
}

const char *rp_market_name(enum rp_market m)
{
	static const char *const names[] = { "", "perp", "spot", "stock", "fx" };

	return (unsigned)m < sizeof names / sizeof names[0] ? names[m] : "";
}

struct rp_costs rp_costs_scaled(const struct rp_costs *c, double k)
{
	struct rp_costs x = *c;

	for (int m = 0; m < RP_MARKETS && !c->rules_fee_set; m++)
		x.rules_fee_bps[m] = rp_fee_bps(c, (enum rp_market)m);
	x.rules_fee_set = true;
	x.fee_bps *= k;
	x.slippage_bps *= k;
	for (int m = 0; m < RP_MARKETS; m++) {
		x.market_fee_bps[m] *= k;
		x.market_slippage_bps[m] *= k;
	}
	x.funding_bps_8h *= k;
	x.borrow_bps_year *= k;
	x.swap_long_bps_year *= k;
	x.swap_short_bps_year *= k;
	x.swap_column_k = (c->swap_column_k_set ? c->swap_column_k : 1.0) * k;
	x.swap_column_k_set = true;
	x.spread_floor_bps *= k;
	x.min_fee_bps_stock *= k;
	return x;
}

/* --- FX rollover ----------------------------------------------------------------------- */

#define DAY_S 86400

/* Whether US summer time holds at 17:00 New York of the date tm names (the rule since 2007:
 * from the second Sunday of March to the first Sunday of November). */
static bool us_summer_time(const struct tm *tm)
{
	int first_wday = ((tm->tm_wday - (tm->tm_mday - 1)) % 7 + 7) % 7;  /* of the 1st */
	int first_sunday = 1 + (7 - first_wday) % 7;

	if (tm->tm_mon > 2 && tm->tm_mon < 10)
		return true;
	if (tm->tm_mon == 2)
		return tm->tm_mday >= first_sunday + 7;
	if (tm->tm_mon == 10)
		return tm->tm_mday < first_sunday;
	return false;
}

int64_t rp_rollover_instant(int64_t day, int *nights)
{
	time_t at = (time_t)(day * DAY_S);
	struct tm tm;

	gmtime_r(&at, &tm);
	*nights = tm.tm_wday == 0 || tm.tm_wday == 6 ? 0 : tm.tm_wday == 3 ? 3 : 1;
	return day * DAY_S + (us_summer_time(&tm) ? 21 : 22) * 3600;
}

/* Floor division of a by DAY_S (times before the epoch too). */
static int64_t day_of(int64_t a)
{
	return a >= 0 ? a / DAY_S : -((-a + DAY_S - 1) / DAY_S);
}

double rp_rollover_nights(int64_t a, int64_t b)
{
	double n = 0;

	if (b <= a)
		return 0;
	for (int64_t d = day_of(a); d <= day_of(b - 1); d++) {
		int64_t lo = d * DAY_S + 21 * 3600, hi = d * DAY_S + 22 * 3600;
		int nights;
		int64_t at;

		/* most bars hold neither hour of either season: no calendar needed */
		if ((lo < a || lo >= b) && (hi < a || hi >= b))
			continue;
		at = rp_rollover_instant(d, &nights);
		if (at >= a && at < b)
			n += nights;
	}
	return n;
}

double rp_rollover_rate(const struct rp_costs *c, int side)
{
	double bps = side > 0 ? c->swap_long_bps_year : side < 0 ? c->swap_short_bps_year : 0.0;

	return bps / 1e4 / 360.0;
}

double rp_swap_column_scale(const struct rp_costs *c)
{
	return (c->swap_column_k_set ? c->swap_column_k : 1.0) / 1e4 / 360.0;
}

double rp_rollover_rate_bar(const struct rp_costs *c, const struct da_ohlcv *s, size_t j, int side)
{
	if (!s->swap_long || !s->swap_short || side == 0)
		return rp_rollover_rate(c, side);
	return (side > 0 ? s->swap_long[j] : s->swap_short[j]) * rp_swap_column_scale(c);
}
