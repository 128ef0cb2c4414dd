/* verdict_trials.h - what the declared variants add to a verdict: the trials and the V[SR] the
 * deflation used, the PBO behind the overfitting gate, and the plain words for both. */
#ifndef SA_VERDICT_TRIALS_H
#define SA_VERDICT_TRIALS_H

#include <stddef.h>
#include <cjson/cJSON.h>

#include "stagefile.h"
#include "verdict_text.h"

/* Takes trials, trials_source, sr_variance_source, variants.ran and pbo from stats.json, opened
 * through the table, into f. The effective trials are stats.json's alone: the stats stage
 * decides them, and no reader decides them again. */
void vd_load_trials(struct sa_sf *stats, struct vd_facts *f);

/* The overfitting gate's one line: "PBO 0.39: in 39 % of 12870 splits ...". Returns buf. */
char *vd_why_overfitting(const struct vd_facts *f, char *buf, size_t len);

/* One sentence a non-quant can read on which spread of Sharpe ratios the deflation assumed
 * ("The deflation used the spread of the 50 declared variants' Sharpe ratios."), "" when
 * unknown. Returns buf. */
char *vd_variance_line(const struct vd_facts *f, char *buf, size_t len);

/* What PBO means for this upload in plain words ("in 9009 of 12870 splits the variant that
 * looked best in-sample ranked at or below the median out of sample", counted over the splits
 * PBO was measured on; of 10 when their number is unknown), "" without a PBO. Returns buf. */
char *vd_pbo_words(const struct vd_facts *f, char *buf, size_t len);

/* The sentence on the search the file declares (stats.json declared_search), "" when none. */
char *vd_search_line(const struct vd_facts *f, char *buf, size_t len);

#endif
