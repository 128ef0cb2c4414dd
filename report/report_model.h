/* report_model.h - turns the loaded audit into the values the HTML template shows. */
#ifndef RPT_MODEL_H
#define RPT_MODEL_H

#include <stdbool.h>
#include <cjson/cJSON.h>

#include "report_input.h"

/* Builds the template context for the audit called name: every value a formatted string, a
 * bool or a list, with "n/a" where an input was missing. Returns a new tree (caller frees with
 * cJSON_Delete), or NULL when out of memory. */
cJSON *rpt_model_build(const struct rpt_input *in, const char *name);

/* Adds the Verdict section ("verdict", "verdict_class", "summary", "gate_verdict", "rejected",
 * "rejected_live", "gates", "vetoes") to the model m, from verdict.json by the table's rows
 * (report_verdict.c). */
void rpt_verdict_model(cJSON *m, const struct rpt_input *in);

/* Whether the audit stopped before its replay: its reason is said once, and the stages and
 * gates after it only inherit it. */
bool rpt_stopped_early(const struct rpt_input *in);

/* The rows of a list the page shows at most (trades, events, flags, mismatches); all are in the
 * XLSX. */
#define RPT_MAX_ROWS 50

/* Adds the Containment section ("containment"), the look-ahead check's ("lookahead") and the
 * robustness runs' ("robust") to the model m (report_run_model.c). */
void rpt_containment_model(cJSON *m, const struct rpt_input *in);
void rpt_lookahead_model(cJSON *m, const struct rpt_input *in);
void rpt_robust_model(cJSON *m, const struct rpt_input *in);

/* Adds the Inspection section ("inspection") to the model m (report_data_model.c). */
void rpt_inspection_model(cJSON *m, const struct rpt_input *in);

/* Adds the Costs section ("costs": the replay's costs and the cost multiples' table) to the
 * model m (report_stats_model.c). */
void rpt_costs_model(cJSON *m, const struct rpt_input *in);

/* Adds the Statistics section ("stats", "long_short", "years") to the model m
 * (report_stats_model.c). */
void rpt_stats_model(cJSON *m, const struct rpt_input *in);

/* Adds the Fingerprint and Data sections ("fingerprint", "data") to the model m
 * (report_data_model.c). */
void rpt_data_model(cJSON *m, const struct rpt_input *in);

/* obj[key], or NULL when obj is not an object. */
const cJSON *rpt_get(const cJSON *obj, const char *key);

/* Adds obj[key] to `to` as `as`, formatted by rpt_fmt_pct (a percentage) or rpt_fmt_num with
 * dec decimals: "n/a" when it is not a finite number. */
void rpt_add_pct(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec);
void rpt_add_num(cJSON *to, const char *as, const cJSON *obj, const char *key, int dec);

/* Adds a copy of obj[key] to `to` as `as`, as text: strings as they are, numbers and bools
 * printed, else "n/a". */
void rpt_add_text(cJSON *to, const char *as, const cJSON *obj, const char *key);

#endif
