/* report_fmt.c - the report's number formats, and the formatters of the figures it quotes in
 * more than one place (report_fmt.h). */
#include "report_fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"

bool rpt_is_num(const cJSON *v)
{
	return cJSON_IsNumber(v) && isfinite(v->valuedouble);
}

char *rpt_fmt_pct(const cJSON *v, int decimals, char *buf, size_t len)
{
	if (rpt_is_num(v)) {
		double pct = v->valuedouble * 100;

		/* a tiny negative must not print as "-0.000 %" */
		snprintf(buf, len, "%.*f %%", decimals, fabs(pct) < 0.5 * pow(10, -decimals) ? 0.0 : pct);
	}
	else
		snprintf(buf, len, "n/a");
	return buf;
}

char *rpt_fmt_num(const cJSON *v, int decimals, char *buf, size_t len)
{
	if (rpt_is_num(v))
		snprintf(buf, len, "%.*f", decimals, fabs(v->valuedouble) < 0.5 * pow(10, -decimals) ? 0.0 : v->valuedouble);
	else
		snprintf(buf, len, "n/a");
	return buf;
}

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
