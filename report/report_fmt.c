/* report_fmt.c - the report's two number formats (report_fmt.h). */
#include "report_fmt.h"

#include <math.h>
#include <stdio.h>

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
