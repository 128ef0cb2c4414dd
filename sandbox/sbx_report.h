/* sbx_report.h - run.json and events.jsonl for the sandbox stage. */
#ifndef SBX_REPORT_H
#define SBX_REPORT_H

#include <cjson/cJSON.h>

#include "sbx.h"

/* Reads limits {wall_s, cpu_s, mem_mb, scratch_mb, nofile, cpus} from a parsed config.json
 * into *lim, each through its knob's row: a missing value takes the row's default, a value out
 * of the row's range is refused. Returns 0, or -1 with the reason in err (the knob and its
 * range). config NULL reads every default. */
int sbx_limits_from_config(const cJSON *config, struct sbx_limits *lim, char *err, size_t errlen);

/* The defaults the Makefile documents (20 s wall, 20 s CPU, 1024 MB, 16 MB scratch, 64 files). */
void sbx_limits_default(struct sbx_limits *lim);

/* Builds run.json for a result (r may be NULL when the run never started; reason then says
 * why). Returns a new tree; caller frees with cJSON_Delete. */
cJSON *sbx_run_json(const struct sbx_result *r, const struct sbx_limits *lim,
		    const struct sbx_cgroup *cg, const char *reason);

/* Writes r's events to path atomically as JSON lines numbered from 1 (an empty file when r is
 * NULL). Returns 0, or -1 with the reason in err. */
int sbx_events_file(const char *path, const struct sbx_result *r, char *err, size_t errlen);

#endif
