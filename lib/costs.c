/* costs.c - the cost model read from config.json (costs.h). */
#include "costs.h"

#include "config.h"

int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen)
{
	if (sa_config_num(cfg, SA_K_FEE_BPS, &c->fee_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SLIPPAGE_BPS, &c->slippage_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_FUNDING_BPS_8H, &c->funding_bps_8h, err, errlen) < 0)
		return -1;
	return 0;
}
