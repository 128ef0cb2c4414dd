/* costs.c - the cost model read from config.json (costs.h). */
#include "costs.h"

#include <math.h>
#include <string.h>

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

	if (sa_config_num(cfg, SA_K_FEE_BPS, &c->fee_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SLIPPAGE_BPS, &c->slippage_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_FUNDING_BPS_8H, &c->funding_bps_8h, err, errlen) < 0 ||
	    sa_config_int(cfg, SA_K_FUNDING_INCOME, &income, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_BORROW_BPS_YEAR, &c->borrow_bps_year, err, errlen) < 0 ||
	    sa_config_str(cfg, SA_K_MARKET, &market, err, errlen) < 0)
		return -1;
	c->funding_income = income != 0;
	if (read_market_defaults(cfg, c, err, errlen) < 0)
		return -1;
	if (market_of(market, &c->market) < 0) {
		sa_fmt(err, errlen, "config.json: costs.market '%s' is not one of: %s (MARKET)", market,
		       sa_knob_choices(SA_K_MARKET));
		return -1;
	}
	return 0;
}
