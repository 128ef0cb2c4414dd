/* verdict_sealed.c - the sealed gate, read from sealed.json and written into verdict.json. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "verdict_sealed.h"

void vd_sealed_load(const char *path, struct vd_sealed *s, struct vd_numbers *n)
{
	char err[VD_TEXT_MAX] = "";
	cJSON *c = sa_json_read_stage(path, &s->ok, err, sizeof err);
	double blocked = sa_json_num(c, "blocked_actions", 0);

	s->given = n->sealed_given = true;
	snprintf(s->status, sizeof s->status, "%s", s->ok ? "ok" : err[0] ? err : "missing");
	s->bars = sa_json_num(c, "bars", NAN);
	s->trades = sa_json_num(c, "trades", NAN);
	s->net_return = sa_json_num(c, "net_return", NAN);
	s->mean_net = sa_json_num(c, "mean_net_return", NAN);
	s->psr = sa_json_num(c, "psr", NAN);
	s->max_dd = sa_json_num(c, "max_drawdown", NAN);
	s->edge_holds = s->ok && sa_json_bool(c, "edge_holds", false);
	n->sealed_edge = s->edge_holds;
	n->sealed_mean_net = s->ok ? s->mean_net : NAN;
	/* a refusal on the sealed bars is a refusal of the upload, like any other run's */
	if (s->ok && blocked > 0 && blocked < 1e9)
		n->blocked_actions += (long)blocked;
	if (s->ok && !sa_json_bool(c, "complete", false))
		n->unfinished = true;
	cJSON_Delete(c);
}

static void why(const struct vd_sealed *s, char *buf, size_t len)
{
	if (!s->ok)
		snprintf(buf, len, "the sealed bars could not be scored: %s", s->status);
	else if (!isfinite(s->trades) || s->trades < 1)
		snprintf(buf, len, "no trade on the %.0f sealed bars", s->bars);
	else
		snprintf(buf, len, "on the %.0f sealed bars, %.0f trade%s: mean net return %.4f %% per "
			 "trade, %+.1f %% in all; the edge %s there (both must be above 0)", s->bars,
			 s->trades, s->trades == 1 ? "" : "s", 100 * s->mean_net, 100 * s->net_return,
			 s->edge_holds ? "holds" : "does not hold");
}

void vd_sealed_json(cJSON *v, const struct vd_sealed *s, const struct vd_result *r)
{
	cJSON *gates = cJSON_GetObjectItemCaseSensitive(v, "gates"), *g, *o;
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
	sa_json_add_num(o, "bars", s->bars, 10);
	sa_json_add_num(o, "trades", s->trades, 10);
	sa_json_add_num(o, "net_return", s->net_return, 10);
	sa_json_add_num(o, "mean_net_return", s->mean_net, 10);
	sa_json_add_num(o, "psr", s->psr, 10);
	sa_json_add_num(o, "max_drawdown", s->max_dd, 10);
	cJSON_AddBoolToObject(o, "edge_holds", s->edge_holds);
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
