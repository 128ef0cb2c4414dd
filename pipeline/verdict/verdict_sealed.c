/* verdict_sealed.c - the sealed gate, read from sealed.json and written into verdict.json. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "stagefile.h"
#include "verdict_sealed.h"

void vd_sealed_load(const char *path, struct vd_sealed *s, struct vd_numbers *n)
{
	struct sa_sf sf;

	s->ok = sa_sf_open_path(&sf, path, SA_SF_SEALED);
	s->given = n->sealed_given = true;
	snprintf(s->status, sizeof s->status, "%.*s", (int)sizeof s->status - 1, sf.status);
	snprintf(s->outcome, sizeof s->outcome, "%s", s->ok ? sa_sf_str_or(&sf, NULL, SA_FD_SL_OUTCOME, "") : "");
	s->bars = sa_sf_num_or(&sf, NULL, SA_FD_SL_BARS, NAN);
	s->bound_bits = sa_sf_num_or(&sf, NULL, SA_FD_SL_BOUND_BITS, NAN);
	s->used = s->of = s->lineage_used = NAN;
	if (sa_sf_obj_or_null(&sf, NULL, SA_FD_SL_BUDGET)) {
		s->used = sa_sf_num_or(&sf, NULL, SA_FD_SL_BUDGET_USED, NAN);
		s->of = sa_sf_num_or(&sf, NULL, SA_FD_SL_BUDGET_OF, NAN);
		s->lineage_used = sa_sf_num_or(&sf, NULL, SA_FD_SL_BUDGET_LINEAGE, NAN);
		s->spent = s->ok && sa_sf_bool_or(&sf, NULL, SA_FD_SL_BUDGET_SPENT, false);
	}
	s->edge_holds = s->ok && sa_sf_bool_or(&sf, NULL, SA_FD_SL_EDGE_HOLDS, false);
	n->sealed_edge = s->edge_holds;
	n->sealed_value = s->ok ? (s->edge_holds ? 1 : 0) : NAN;
	/* a refusal on the sealed bars is a refusal of the upload, like any other run's (counted
	 * once: how many is kept in the ledger's history, not told back) */
	if (s->ok && sa_sf_bool_or(&sf, NULL, SA_FD_SL_REFUSED, false))
		n->blocked_actions += 1;
	if (s->ok && !sa_sf_bool_or(&sf, NULL, SA_FD_SL_COMPLETE, false))
		n->unfinished = true;
	if (sf.broken[0]) {
		snprintf(s->status, sizeof s->status, "%.*s", (int)sizeof s->status - 1, sf.broken);
		snprintf(s->broken, sizeof s->broken, "%.*s", (int)sizeof s->broken - 1, sf.broken);
		n->broken = true;
	}
	sa_sf_close(&sf);
}

/* "the edge holds, as on the open data" from the outcome. */
static const char *told(const char *outcome)
{
	static const struct { const char *name, *text; } t[] = {
		{ "spent", "the sealed set has answered its budget of audits and is spent: fresh sealed bars are needed" },
		{ "not_run", "the strategy was not run there (it did not finish uncontained on the audit's data)" },
		{ "failed", "the strategy gave no valid signals there" },
		{ "cut_short", "the run there was stopped at a time limit" },
		{ "refused", "the sandbox refused an action of the run there" },
		{ "fails", "the edge does not hold" },
		{ "weaker", "the edge holds, well under the open data's" },
		{ "as_open", "the edge holds, as on the open data" },
		{ "stronger", "the edge holds, well above the open data's" },
	};

	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
		if (!strcmp(outcome, t[i].name))
			return t[i].text;
	return "its outcome is unknown";
}

static void why(const struct vd_sealed *s, char *buf, size_t len)
{
	if (!s->ok)
		snprintf(buf, len, "the sealed bars could not be scored: %s", s->status);
	else
		snprintf(buf, len, "on the %.0f sealed bars, %s (audit %.0f of the set's budget of %.0f, "
			 "%.0f of them this lineage's; at most %.2f bits of the sealed bars told back an audit)",
			 s->bars, told(s->outcome), s->used, s->of, s->lineage_used, s->bound_bits);
}

void vd_sealed_json(cJSON *v, cJSON *gates, const struct vd_sealed *s, const struct vd_result *r)
{
	cJSON *g, *o, *b;
	char text[VD_TEXT_MAX * 2];

	if (!s->given)
		return;
	why(s, text, sizeof text);
	g = cJSON_CreateObject();
	cJSON_AddStringToObject(g, "name", "sealed");
	sa_json_add_num(g, "value", r->sealed.value, 6);
	sa_json_add_num(g, "threshold", r->sealed.threshold, 6);
	cJSON_AddBoolToObject(g, "pass", r->sealed.pass);
	cJSON_AddStringToObject(g, "why", text);
	cJSON_AddItemToArray(gates, g);
	o = cJSON_AddObjectToObject(v, "sealed");
	cJSON_AddStringToObject(o, "status", s->status);
	cJSON_AddStringToObject(o, "outcome", s->outcome);
	sa_json_add_num(o, "bars", s->bars, 10);
	sa_json_add_num(o, "bound_bits", s->bound_bits, 4);
	cJSON_AddBoolToObject(o, "edge_holds", s->edge_holds);
	b = cJSON_AddObjectToObject(o, "budget");
	sa_json_add_num(b, "used", s->used, 10);
	sa_json_add_num(b, "of", s->of, 10);
	sa_json_add_num(b, "lineage_used", s->lineage_used, 10);
	cJSON_AddBoolToObject(b, "spent", s->spent);
}

void vd_sealed_say(const struct vd_sealed *s, const struct vd_result *r, char *buf, size_t len)
{
	size_t used = strlen(buf);
	char text[VD_TEXT_MAX * 2];

	if (!s->given || used + 1 >= len)
		return;
	why(s, text, sizeof text);
	snprintf(buf + used, len - used, " Sealed data: %s%s.", text,
		 r->sealed.pass ? "" : ", so the verdict cannot pass");
}
