/* report_trials.h - the report's Trials section: the declared variants, the spread of their
 * Sharpe ratios the deflation used, and the PBO, as charts and template values. */
#ifndef RPT_TRIALS_H
#define RPT_TRIALS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "report_input.h"

/* Draws dir/variants.png and dir/pbo.png (each says why it is empty when there is nothing to
 * draw). Returns 0, or -1 with err set when a file could not be written. */
int rpt_trials_charts(const char *dir, const struct rpt_input *in, char *err, size_t errlen);

/* Adds "trials" to the template context model: declared, counts, the trials and where they
 * came from, the V[SR] line, SR0, the PBO figures and words, and one row per variant. Returns
 * 0, or -1 when out of memory. */
int rpt_trials_model(cJSON *model, const struct rpt_input *in);

/* Adds "forward" (the bars since the version's first audit, formatted for the report's section
 * "Since first audited (out-of-sample)"), or null when stats.json has none. Returns 0 or -1. */
int rpt_forward_model(cJSON *model, const struct rpt_input *in);

#endif
