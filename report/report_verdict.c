/* report_verdict.c - the report's Verdict section: the verdict, what the gates alone say, each
 * gate's value against its threshold in words, and the vetoes, from verdict.json by the rows of
 * the stage-file table. */
#include "report_model.h"

#include <stdbool.h>
#include <string.h>

#include "msg.h"
#include "report_fmt.h"

static const char *verdict_class(const char *v)
{
	if (strcmp(v, "READY_FOR_MICRO_LIVE") == 0)
		return "good";
	if (strcmp(v, "WATCH") == 0)
		return "warn";
	return "bad";
}

/* A gate's test in words: how its value must stand to its threshold, and what a failure means
 * (the why column says it with the figures). */
static const struct gate_words {
	const char *name, *cmp, *fails;
} gate_words[] = {
	{ "trades", "at least", "too few trades to count as evidence" },
	{ "net_edge", "above", "no edge left after costs" },
	{ "psr", "at least", "the Sharpe ratio may be luck" },
	{ "dsr", "at least", "the Sharpe ratio may be luck among the trials" },
	{ "track_record", "at least", "the track record is too short" },
	{ "drawdown", "at most", "equity fell too far" },
	{ "alpha", "at least", "no significant return beyond holding the instrument" },
	{ "overfitting", "below", "the choice of variant is likely overfit" },
};

/* The field k of the gate g (NULL when it is null). */
static const cJSON *gate_item(struct sa_sf *v, const cJSON *g, enum sa_field_id k)
{
	const cJSON *it = NULL;

	sa_sf_item(v, g, k, &it);
	return it;
}

static const struct gate_words *words_of(const char *name)
{
	for (size_t k = 0; k < sizeof gate_words / sizeof gate_words[0]; k++)
		if (!strcmp(gate_words[k].name, name))
			return &gate_words[k];
	return NULL;
}

/* The threshold th (formatted) prefixed with the gate's comparison. */
static const char *threshold_words(const char *name, const char *th, char *buf, size_t len)
{
	const struct gate_words *w = words_of(name);

	return w && strcmp(th, "n/a") ? sa_fmt(buf, len, "%s %s", w->cmp, th) : th;
}

/* o's "result": "pass", or "fail: " and what failed. g is verdict.json's gate (borrowed). */
static void gate_result(cJSON *o, struct sa_sf *v, const cJSON *g, const char *name, bool pass)
{
	const struct gate_words *w = words_of(name);
	const cJSON *value = gate_item(v, g, SA_FD_VD_GATES_VALUE);
	const char *why = sa_sf_str_or(v, g, SA_FD_VD_GATES_WHY, ""), *fails;
	char buf[200];

	fails = w ? w->fails : "below its threshold";
	if (!rpt_is_num(value))
		fails = "not measured";
	else if (!strcmp(name, "net_edge") &&
		 value->valuedouble > sa_sf_num_or(v, g, SA_FD_VD_GATES_THRESHOLD, 0))
		/* the mean clears the bar: what failed is the edge without the best trades, or ruin */
		fails = strstr(why, "ruined") ? "the account was ruined" :
			"the edge rests on the best trades";
	else if (!strcmp(name, "drawdown") && strstr(why, "ruined"))
		fails = "the account was ruined";
	if (pass)
		cJSON_AddStringToObject(o, "result", "pass");
	else
		cJSON_AddStringToObject(o, "result", sa_fmt(buf, sizeof buf, "fail: %s", fails));
}

/* Whether any gate of verdict.json has a measured value. */
static bool gates_measured(struct sa_sf *v)
{
	const cJSON *g;

	cJSON_ArrayForEach(g, sa_sf_arr_or_null(v, NULL, SA_FD_VD_GATES))
		if (rpt_is_num(gate_item(v, g, SA_FD_VD_GATES_VALUE)))
			return true;
	return false;
}

/* One gate's row: its value and threshold formatted as the gate counts them, pass, the result
 * in words and why. */
static cJSON *gate_row(const struct rpt_input *in, struct sa_sf *v, const cJSON *g)
{
	const char *name = sa_sf_str_or(v, g, SA_FD_VD_GATES_NAME, "?");
	const char *why = sa_sf_str_or(v, g, SA_FD_VD_GATES_WHY, "n/a");
	bool pct = strcmp(name, "drawdown") == 0 || strcmp(name, "net_edge") == 0;
	bool pass = sa_sf_bool_or(v, g, SA_FD_VD_GATES_PASS, false);
	int dec = strcmp(name, "trades") == 0 ? 0 : strcmp(name, "track_record") == 0 ? 1 : 3;
	const cJSON *value = gate_item(v, g, SA_FD_VD_GATES_VALUE);
	const cJSON *threshold = gate_item(v, g, SA_FD_VD_GATES_THRESHOLD);
	char vbuf[64], tbuf[64], buf[200];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "value", pct ? rpt_fmt_pct(value, 3, vbuf, sizeof vbuf) :
				rpt_fmt_num(value, dec, vbuf, sizeof vbuf));
	if (pct)
		rpt_fmt_pct(threshold, 1, tbuf, sizeof tbuf);
	else
		rpt_fmt_num(threshold, dec, tbuf, sizeof tbuf);
	cJSON_AddStringToObject(o, "threshold", threshold_words(name, tbuf, buf, sizeof buf));
	cJSON_AddBoolToObject(o, "pass", pass);
	gate_result(o, v, g, name, pass);
	if (rpt_stopped_early(in) && !strncmp(why, "not measured", 12))
		cJSON_AddStringToObject(o, "why", "not measured: the audit stopped early (above)");
	else
		cJSON_AddStringToObject(o, "why", why);
	return o;
}

void rpt_verdict_model(cJSON *m, const struct rpt_input *in)
{
	struct sa_sf *v = rpt_sf_ok(in, SA_SF_VERDICT);
	const char *verdict = sa_sf_str_or(v, NULL, SA_FD_VD_VERDICT, "NO_VERDICT");
	const char *gate = sa_sf_str_or(v, NULL, SA_FD_VD_GATE_VERDICT, "");
	const char *scored = sa_sf_str_or(rpt_sf_ok(in, SA_SF_REPLAY), NULL, SA_FD_RP_SCORED, "");
	const cJSON *g;

	cJSON_AddStringToObject(m, "verdict", verdict);
	cJSON_AddStringToObject(m, "verdict_class", verdict_class(verdict));
	cJSON_AddStringToObject(m, "summary", v->ok ? sa_sf_str_or(v, NULL, SA_FD_VD_SUMMARY, "") :
				"No verdict could be reached: verdict.json is missing or failed. Nothing below is a recommendation.");
	/* what the gates alone would have said, unless nothing was measured for them to say it */
	if (gate[0] && strcmp(gate, verdict) != 0 && gates_measured(v))
		cJSON_AddStringToObject(m, "gate_verdict", gate);
	/* a rejection leads with its finding; the performance after it is a claim, not a record */
	if (!strcmp(verdict, "REJECTED_LOOKAHEAD"))
		cJSON_AddStringToObject(m, "rejected", "The look-ahead check above found signals that change when the "
					"future is hidden: no one could have traded them.");
	else if (!strcmp(verdict, "REJECTED_UNSAFE"))
		cJSON_AddStringToObject(m, "rejected", "The sandbox refused what the upload tried (above), so "
					"nothing it returned can be trusted.");
	/* the figures below then score what it would have done live, not the backtest */
	cJSON_AddBoolToObject(m, "rejected_live", !strcmp(verdict, "REJECTED_LOOKAHEAD") &&
			      !strcmp(scored, "live"));
	cJSON *gates = cJSON_AddArrayToObject(m, "gates");
	cJSON_ArrayForEach(g, sa_sf_arr_or_null(v, NULL, SA_FD_VD_GATES))
		cJSON_AddItemToArray(gates, gate_row(in, v, g));
	cJSON *vetoes = cJSON_AddArrayToObject(m, "vetoes");
	cJSON_ArrayForEach(g, sa_sf_arr_or_null(v, NULL, SA_FD_VD_VETOES)) {
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", sa_sf_str_or(v, g, SA_FD_VD_VETOES_NAME, "n/a"));
		cJSON_AddStringToObject(o, "reason", sa_sf_str_or(v, g, SA_FD_VD_VETOES_REASON, "n/a"));
		cJSON_AddItemToArray(vetoes, o);
	}
}
