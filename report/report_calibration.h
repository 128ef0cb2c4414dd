/* report_calibration.h - the auditor's own error rates, as `make calibrate` last measured them,
 * in the words of the report's Honest limitations. */
#ifndef RPT_CALIBRATION_H
#define RPT_CALIBRATION_H

#include <cjson/cJSON.h>

/* Adds "calibration": {"words": ...} to the template context model: one sentence quoting the
 * rates recorded in dir/calibration.json (the summary the Makefile copies into the bundle), or
 * saying that none were measured, or why the file cannot be read. Returns 0, or -1 out of
 * memory. */
int rpt_calibration_model(cJSON *model, const char *dir);

#endif
