/* report_figures.c - the shared formatters of the figures quoted in several places. */
#include "report_figures.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "report_fmt.h"

int rpt_multiple_decimals(double x)
{
	double a = fabs(x);

	if (!isfinite(a))
		return 0;
	if (a == 0)
		return 2;  /* "0.00x", as 1.00x and 2.00x beside it */
	if (a >= 100)
		return 0;
	if (a >= 10)
		return 1;
	if (a >= 1)
		return 2;
	/* three significant figures below 1: 0.523 has 3 decimals, 0.0412 has 4 */
	return 2 - (int)floor(log10(a));
}

char *rpt_fmt_multiple(double x, char *buf, size_t len)
{
	if (!isfinite(x))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*fx", rpt_multiple_decimals(x), x);
	return buf;
}

char *rpt_fmt_row_net(const cJSON *row, char *buf, size_t len)
{
	const cJSON *v = cJSON_IsObject(row) ? cJSON_GetObjectItemCaseSensitive(row, "net_return") : NULL;
	size_t used;

	rpt_fmt_pct(v, RPT_ROW_NET_DECIMALS, buf, len);
	used = strlen(buf);
	if (sa_json_bool(row, "ruined", false) && used < len)
		snprintf(buf + used, len - used, " (ruined)");
	return buf;
}

char *rpt_fmt_row_sharpe(const cJSON *row, char *buf, size_t len)
{
	return rpt_fmt_num(cJSON_IsObject(row) ? cJSON_GetObjectItemCaseSensitive(row, "sharpe") : NULL,
			   RPT_ROW_SHARPE_DECIMALS, buf, len);
}
