/* sbx_result.c - a run's result: its status's name, its release, and its events as JSON lines. */
#include "sbx.h"

#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

const char *sbx_status_name(enum sbx_status st)
{
	static const char *const names[] = { "ok", "error", "killed_wall_clock", "killed_memory",
		"killed_cpu", "crashed", "bad_output", "not_run" };
	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "error";
}

void sbx_calls_free(struct sbx_calls *c)
{
	if (!c)
		return;
	free(c->side);
	free(c->entry);
	free(c->ask);
	free(c->stop);
	free(c->exit);
	free(c->refused);
	free(c->name);
	free(c->sig);
	rp_walk_free(c->walk);
	free(c);
}

struct sbx_calls *sbx_calls_new(size_t n, const struct rp_costs *costs)
{
	struct sbx_calls *c = calloc(1, sizeof *c);
	size_t m = n ? n : 1;

	if (!c)
		return NULL;
	c->n = n;
	c->side = calloc(m, 1);
	c->entry = calloc(m, sizeof *c->entry);
	c->ask = calloc(m, 1);
	c->stop = malloc(m * sizeof *c->stop);
	c->exit = calloc(m, 1);
	c->refused = calloc(m, 1);
	c->name = calloc(m, sizeof *c->name);
	c->sig = calloc(m, 1);
	if (!c->side || !c->entry || !c->ask || !c->stop || !c->exit || !c->refused || !c->name || !c->sig) {
		sbx_calls_free(c);
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		c->stop[i] = NAN;
	c->rc = (struct rp_calls){ .stop = c->stop, .exit = c->exit, .refused = c->refused,
				   .side = c->side, .entry = c->entry };
	c->costs = *costs;
	c->costs.calls = &c->rc;
	return c;
}

void sbx_result_release(struct sbx_result *r)
{
	if (!r)
		return;
	free(r->signals);
	free(r->tag_names);
	free(r->tag_enter);
	free(r->tag_exit);
	free(r->events);
	free(r->rules);
	free(r->out_log);
	free(r->err_log);
	sbx_calls_free(r->calls);
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

int sbx_rules_merge(struct sbx_rule_count **acc, size_t *n_acc, const struct sbx_result *r)
{
	for (size_t i = 0; i < r->n_rules; i++) {
		const struct sbx_rule_count *c = &r->rules[i];
		size_t j = 0;

		while (j < *n_acc && strcmp((*acc)[j].rule, c->rule) != 0)
			j++;
		if (j == *n_acc) {
			struct sbx_rule_count *grown = realloc(*acc, (*n_acc + 1) * sizeof *grown);
			if (!grown)
				return -1;
			*acc = grown;
			grown[j] = *c;
			(*n_acc)++;
			continue;
		}
		(*acc)[j].count += c->count;
		(*acc)[j].last = c->last;
	}
	return 0;
}

static void add_instance(cJSON *o, const char *which, const struct sbx_event *e)
{
	cJSON *x = cJSON_AddObjectToObject(o, which);

	cJSON_AddStringToObject(x, "action", e->action);
	cJSON_AddStringToObject(x, "detail", e->detail);
}

cJSON *sbx_rules_json(const struct sbx_rule_count *rules, size_t n)
{
	cJSON *list = cJSON_CreateArray();

	for (size_t i = 0; list && i < n; i++) {
		cJSON *o = cJSON_CreateObject();

		if (!o) {
			cJSON_Delete(list);
			return NULL;
		}
		cJSON_AddStringToObject(o, "rule", rules[i].rule);
		cJSON_AddNumberToObject(o, "count", (double)rules[i].count);
		add_instance(o, "first", &rules[i].first);
		add_instance(o, "last", &rules[i].last);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}
