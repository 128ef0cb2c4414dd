/* report_fmt.h - the two number formats every part of the report prints JSON figures with. It
 * uses nothing of the report, so any report file may include it. */
#ifndef RPT_FMT_H
#define RPT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* Whether v is a finite number. */
bool rpt_is_num(const cJSON *v);

/* Formats v as a fixed-point percentage ("12.34 %"), or "n/a" when v is not a finite number.
 * Returns buf. */
char *rpt_fmt_pct(const cJSON *v, int decimals, char *buf, size_t len);

/* Formats a number with decimals places, or "n/a". Returns buf. */
char *rpt_fmt_num(const cJSON *v, int decimals, char *buf, size_t len);

#endif
