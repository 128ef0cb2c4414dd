/* sbx_result.c - a run's result: its status's name, its release, and its events as JSON lines. */
#include "sbx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

const char *sbx_status_name(enum sbx_status st)
{
	static const char *const names[] = { "ok", "error", "killed_wall_clock", "killed_memory",
		"killed_cpu", "crashed", "bad_output", "not_run" };
	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "error";
}

void sbx_result_release(struct sbx_result *r)
{
	if (!r)
		return;
	free(r->signals);
	free(r->events);
	free(r->out_log);
	free(r->err_log);
	memset(r, 0, sizeof *r);
}

int sbx_events_write(FILE *fp, const struct sbx_result *r, long *seq)
{
	int rc = 0;
	for (size_t i = 0; i < r->n_events && rc == 0; i++) {
		cJSON *o = cJSON_CreateObject();
		char *line = NULL;
		if (!o)
			return -1;
		cJSON_AddNumberToObject(o, "seq", (double)++*seq);
		cJSON_AddStringToObject(o, "action", r->events[i].action);
		cJSON_AddStringToObject(o, "rule", r->events[i].rule);
		cJSON_AddStringToObject(o, "detail", r->events[i].detail);
		line = cJSON_PrintUnformatted(o);
		if (!line || fprintf(fp, "%s\n", line) < 0)
			rc = -1;
		free(line);
		cJSON_Delete(o);
	}
	return rc;
}
