/* robust_json.c - robustness.json: the warm-up and permutation findings, in words and numbers. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "robust_core.h"
#include "timeutil.h"

static void add_time(cJSON *o, const char *key, const int64_t *t, size_t n, long i)
{
	char buf[21];

	if (i >= 0 && (size_t)i < n)
		cJSON_AddStringToObject(o, key, sa_time_format(t[i], buf));
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *warm_run_json(const struct rb_warm_run *r, const int64_t *t, size_t n)
{
	cJSON *o = cJSON_CreateObject(), *spans;

	cJSON_AddNumberToObject(o, "offset", (double)r->offset);
	cJSON_AddNumberToObject(o, "percent", r->pct);
	cJSON_AddStringToObject(o, "status", r->status);
	if (!r->ok)
		cJSON_AddStringToObject(o, "error", r->error);
	sa_json_add_num(o, "disagreement", r->disagreement, 6);
	cJSON_AddNumberToObject(o, "differing_bars", (double)r->differing);
	if (r->first_bar >= 0)
		cJSON_AddNumberToObject(o, "first_bar", (double)r->first_bar);
	else
		cJSON_AddNullToObject(o, "first_bar");
	add_time(o, "first_time", t, n, r->first_bar);
	spans = cJSON_AddArrayToObject(o, "spans");
	for (size_t i = 0; i < r->n_spans; i++) {
		cJSON *s = cJSON_CreateArray();

		cJSON_AddItemToArray(s, cJSON_CreateNumber((double)r->spans[i][0]));
		cJSON_AddItemToArray(s, cJSON_CreateNumber((double)r->spans[i][1]));
		cJSON_AddItemToArray(spans, s);
	}
	cJSON_AddNumberToObject(o, "spans_total", (double)r->spans_total);
	if (r->ok) {
		cJSON_AddNumberToObject(o, "settled_bar", (double)r->settled);
		cJSON_AddNumberToObject(o, "later_from", (double)r->later_from);
	}
	sa_json_add_num(o, "later_disagreement", r->later_disagreement, 6);
	return o;
}

static void warm_explain(const struct rb_warmup *w, double flag, const int64_t *t, char *buf,
			 size_t len)
{
	char tm[21];
	size_t used;

	if (w->failed_runs == w->n_runs)
		snprintf(buf, len, "No warm-up run completed, so the dependence on the start of history "
			 "could not be measured");
	else if (w->flagged)
		snprintf(buf, len, "Started later in history, the strategy gives different signals on "
			 "the last %d %% of bars (more than %.2g %% of them for at least one start; first "
			 "at bar %ld, %s, starting at %d %%): its signals depend on how much history it "
			 "was shown, so a live start would not reproduce the backtest", RB_TAIL_PCT,
			 flag * 100, w->first_bar, sa_time_format(t[w->first_bar], tm), w->first_pct);
	else if (w->first_bar >= 0)
		snprintf(buf, len, "Started later in history, the strategy disagrees on a few tail "
			 "bars (first at bar %ld, %s), within the %.2g %% tolerated", w->first_bar,
			 sa_time_format(t[w->first_bar], tm), flag * 100);
	else
		snprintf(buf, len, "Started at each offset, the strategy gives the same signals as the "
			 "full run on the last %d %% of bars: it does not depend on where history starts",
			 RB_TAIL_PCT);
	used = strlen(buf);
	if (w->failed_runs > 0 && w->failed_runs < w->n_runs)
		snprintf(buf + used, len - used, "; %zu of %zu warm-up runs failed and were not compared",
			 w->failed_runs, w->n_runs);
	used = strlen(buf);
	snprintf(buf + used, len - used, ".");
}

cJSON *rb_warmup_json(const struct rb_warmup *w, double flag, const int64_t *t)
{
	cJSON *o = cJSON_CreateObject(), *offs, *pcts, *dis, *runs;
	char text[640];

	cJSON_AddBoolToObject(o, "ok", w->failed_runs < w->n_runs);
	offs = cJSON_AddArrayToObject(o, "offsets");
	pcts = cJSON_AddArrayToObject(o, "offset_percent");
	dis = cJSON_AddArrayToObject(o, "disagreement");
	runs = cJSON_AddArrayToObject(o, "runs");
	for (size_t i = 0; i < w->n_runs; i++) {
		const struct rb_warm_run *r = &w->run[i];

		cJSON_AddItemToArray(offs, cJSON_CreateNumber((double)r->offset));
		cJSON_AddItemToArray(pcts, cJSON_CreateNumber(r->pct));
		cJSON_AddItemToArray(dis, isfinite(r->disagreement)
				     ? cJSON_CreateNumber(round(r->disagreement * 1e6) / 1e6)
				     : cJSON_CreateNull());
		cJSON_AddItemToArray(runs, warm_run_json(r, t, w->n_bars));
	}
	cJSON_AddNumberToObject(o, "tail_start", (double)w->tail_start);
	cJSON_AddNumberToObject(o, "compared_bars", (double)w->compared_bars);
	if (w->first_bar >= 0) {
		cJSON *f = cJSON_AddObjectToObject(o, "first_disagreement");

		cJSON_AddNumberToObject(f, "bar", (double)w->first_bar);
		add_time(f, "time", t, w->n_bars, w->first_bar);
		cJSON_AddNumberToObject(f, "offset_percent", w->first_pct);
	} else {
		cJSON_AddNullToObject(o, "first_disagreement");
	}
	cJSON_AddBoolToObject(o, "flagged", w->flagged);
	if (w->warmup_bars >= 0)
		cJSON_AddNumberToObject(o, "measured_warmup_bars", (double)w->warmup_bars);
	else
		cJSON_AddNullToObject(o, "measured_warmup_bars");
	sa_json_add_num(o, "flag_above", flag, 6);
	cJSON_AddNumberToObject(o, "failed_runs", (double)w->failed_runs);
	warm_explain(w, flag, t, text, sizeof text);
	cJSON_AddStringToObject(o, "explanation", text);
	return o;
}

/* What the test compares, and what it cannot see. */
static const char perm_basis[] =
	"per-bar Sharpe ratio of gross equity: the real run and every shuffled one replayed with no "
	"costs, since costs follow how often a run trades and a strategy on shuffled bars trades "
	"more often";
static const char perm_blind[] =
	"The test asks only whether the positions use the order of the bars. A strategy fitted to "
	"this history passes it: trades on hand-picked dates, or rules and parameters chosen by "
	"looking at these bars, line up with the real order and not with a shuffled one. It says "
	"nothing about costs (see the net return) nor about bars it has not seen.";

/* The result in words. The strategy's net return decides them: a timing that beats the
 * shuffles before costs and loses money after them is no edge. */
static void perm_verdict(const struct rb_permtest *p, char *buf, size_t len)
{
	double net = 100.0 * p->real_net_return;
	bool loses = !(p->real_net_return > 0);

	if (p->p_value <= 0.05 && loses)
		snprintf(buf, len, "Before costs, the real per-bar Sharpe ratio %.3f beats %zu of %zu "
			 "runs on the same bar returns in random order (p = %.3f): its positions use the "
			 "order of the bars, but after costs the strategy %s %.1f %%, so its timing does "
			 "not pay for its trading and there is no edge to credit", p->real_sharpe,
			 p->runs - p->at_least, p->runs, p->p_value, net < 0 ? "loses" : "makes",
			 fabs(net));
	else if (p->p_value <= 0.05)
		snprintf(buf, len, "Before costs, the real per-bar Sharpe ratio %.3f beats %zu of %zu "
			 "runs on the same bar returns in random order (p = %.3f): its positions use the "
			 "order of the bars; after costs it returns %+.1f %%", p->real_sharpe,
			 p->runs - p->at_least, p->runs, p->p_value, net);
	else if (loses)
		snprintf(buf, len, "%zu of %zu runs on the same bar returns in random order did at "
			 "least as well before costs as the real per-bar Sharpe ratio %.3f (p = %.3f): "
			 "its timing is what luck gives on these returns, and after costs it %s %.1f %%",
			 p->at_least, p->runs, p->real_sharpe, p->p_value,
			 net < 0 ? "loses" : "makes", fabs(net));
	else
		snprintf(buf, len, "%zu of %zu runs on the same bar returns in random order did at "
			 "least as well before costs as the real per-bar Sharpe ratio %.3f (p = %.3f): "
			 "its timing is what luck gives on these returns", p->at_least, p->runs,
			 p->real_sharpe, p->p_value);
}

static void perm_explain(const struct rb_permtest *p, char *buf, size_t len)
{
	size_t used;

	if (p->runs == 0)
		snprintf(buf, len, "No permuted run completed, so the timing could not be told from luck");
	else if (!isfinite(p->real_sharpe))
		snprintf(buf, len, "The real run has no Sharpe ratio (%zu trade%s, no spread in its "
			 "equity), so there is nothing to rank against the permuted data",
			 p->real_trades, p->real_trades == 1 ? "" : "s");
	else
		perm_verdict(p, buf, len);
	used = strlen(buf);
	if (p->failed_runs > 0)
		snprintf(buf + used, len - used, "; %zu of %zu permuted runs failed and are not in the "
			 "null distribution", p->failed_runs, p->requested);
	used = strlen(buf);
	if (p->undefined > 0)
		snprintf(buf + used, len - used, "; %zu permuted run%s had no Sharpe ratio (under two "
			 "spread in their equity) and count%s as 0", p->undefined,
			 p->undefined == 1 ? "" : "s", p->undefined == 1 ? "s" : "");
	used = strlen(buf);
	snprintf(buf + used, len - used, ".");
}

cJSON *rb_perm_json(const struct rb_permtest *p, unsigned long seed)
{
	cJSON *o = cJSON_CreateObject(), *null;
	char text[1024];

	cJSON_AddBoolToObject(o, "ok", p->runs > 0 && isfinite(p->real_sharpe));
	cJSON_AddNumberToObject(o, "requested", (double)p->requested);
	cJSON_AddNumberToObject(o, "runs", (double)p->runs);
	cJSON_AddNumberToObject(o, "failed_runs", (double)p->failed_runs);
	cJSON_AddNumberToObject(o, "undefined_sharpe", (double)p->undefined);
	cJSON_AddNumberToObject(o, "seed", (double)seed);
	cJSON_AddStringToObject(o, "basis", perm_basis);
	sa_json_add_num(o, "real_sharpe", p->real_sharpe, 6);
	sa_json_add_num(o, "real_net_return", p->real_net_return, 10);
	cJSON_AddNumberToObject(o, "real_trades", (double)p->real_trades);
	sa_json_add_num(o, "null_mean", p->null_mean, 6);
	sa_json_add_num(o, "null_p95", p->null_p95, 6);
	cJSON_AddNumberToObject(o, "at_least_real", (double)p->at_least);
	sa_json_add_num(o, "p_value", p->p_value, 6);
	null = cJSON_AddArrayToObject(o, "null_sharpes");
	for (size_t i = 0; i < p->runs; i++)
		cJSON_AddItemToArray(null, isfinite(p->null[i])
				     ? cJSON_CreateNumber(round(p->null[i] * 1e6) / 1e6)
				     : cJSON_CreateNull());
	perm_explain(p, text, sizeof text);
	cJSON_AddStringToObject(o, "explanation", text);
	cJSON_AddStringToObject(o, "does_not_catch", perm_blind);
	return o;
}
