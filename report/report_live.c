/* report_live.c - the section "Live against the backtest": model, sheet, and the backtest's
 * curve of the replay stage's backtest_equity.csv (report_live.h). */
#include "report_live.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "msg.h"
#include "report_columns.h"
#include "report_fmt.h"
#include "report_xlsx_book.h"

static const cJSON *get(const cJSON *o, const char *k)
{
	return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* replay.json when it is ok and says what it scored, else NULL. */
static const cJSON *scored_of(const struct rpt_input *in)
{
	const cJSON *rp = rpt_stage_ok(in, RPT_REPLAY);

	return cJSON_IsString(get(rp, "scored")) ? rp : NULL;
}

/* lookahead.json's live object, when it is one. */
static const cJSON *live_of(const struct rpt_input *in)
{
	const cJSON *l = get(in->stage[RPT_LOOKAHEAD].json, "live");

	return cJSON_IsObject(l) ? l : NULL;
}

bool rpt_live_present(const struct rpt_input *in)
{
	return scored_of(in) != NULL;
}

static bool scored_live(const cJSON *rp)
{
	return !strcmp(sa_json_str(rp, "scored", ""), "live");
}

/* A decision in words: "long", "short", "flat", or "?" when it is none. */
static const char *word(const cJSON *d, const char *key)
{
	double x = sa_json_num(d, key, NAN);

	return x == 1 ? "long" : x == -1 ? "short" : x == 0 ? "flat" : "?";
}

static const char *did(const char *w)
{
	return !strcmp(w, "long") ? "went long" : !strcmp(w, "short") ? "went short" :
	       !strcmp(w, "flat") ? "stayed flat" : "did something unreadable";
}

static const char *confirmed_words(const char *c)
{
	return !strcmp(c, "leak") ? "look-ahead" : !strcmp(c, "memory") ? "the window's memory" :
	       "not confirmed";
}

static char *pct(const cJSON *o, const char *key, char *buf, size_t len)
{
	return rpt_fmt_pct(get(o, key), 2, buf, len);
}

static char *count(const cJSON *o, const char *key, char *buf, size_t len)
{
	return rpt_fmt_num(get(o, key), 0, buf, len);
}

/* A count of trades with its noun: "1 trade", "50 trades". */
static char *trades(const cJSON *o, char *buf, size_t len)
{
	char n[48];

	return sa_fmt(buf, len, "%s trade%s", count(o, "trades", n, sizeof n),
		      sa_json_num(o, "trades", NAN) == 1 ? "" : "s");
}

/* What the difference is worth, or why the live decisions were not scored. */
static void say_worth(cJSON *o, const cJSON *rp)
{
	const cJSON *d = get(rp, "live_vs_backtest"), *bt = get(rp, "backtest");
	char nl[32], nb[32], diff[32], tl[32], tb[32], n[32], text[1024];
	double x = sa_json_num(d, "difference", NAN);

	if (!scored_live(rp)) {
		sa_fmt(text, sizeof text, "The live decisions were not scored: %s. Every figure of this "
		       "report is the full-history backtest's: what its author saw, not what it would "
		       "have done live.", sa_json_str(rp, "scored_reason", "no reason was given"));
	} else if (sa_json_num(d, "differing_bars", NAN) == 0) {
		sa_fmt(text, sizeof text, "Decided bar by bar with only the bars up to each, as a live "
		       "bot decides, the strategy takes the backtest's decision on every bar: the two "
		       "curves are one, %s net over %s.", pct(d, "net_return_live", nl, sizeof nl),
		       trades(rp, tl, sizeof tl));
	} else {
		sa_fmt(diff, sizeof diff, isfinite(x) ? "%+.2f %%" : "n/a", 100 * x);
		sa_fmt(text, sizeof text, "Decided bar by bar with only the bars up to each, as a live "
		       "bot decides, the strategy makes %s net over %s; the full-history backtest "
		       "its author saw claims %s over %s, with the same costs and rules. The "
		       "difference, the backtest's net return less the live one's (each compounded), is "
		       "%s: what the backtest's sight of bars it could not have had is worth. %s bars "
		       "were decided differently; every figure of this report scores the live decisions.",
		       pct(d, "net_return_live", nl, sizeof nl), trades(rp, tl, sizeof tl),
		       pct(d, "net_return_backtest", nb, sizeof nb), trades(bt, tb, sizeof tb),
		       diff, count(d, "differing_bars", n, sizeof n));
	}
	cJSON_AddStringToObject(o, "worth", text);
}

/* The live replay's sample past its budget, as one clause. */
static void say_sample(char *text, size_t len, const cJSON *l)
{
	const cJSON *s = get(l, "sample");
	char a[32], b[32], c[32], d[32];
	size_t used = strlen(text);

	if (!cJSON_IsObject(s)) {
		sa_fmt(text + used, len - used, "; the rest take the backtest's decisions, unchecked.");
		return;
	}
	sa_fmt(text + used, len - used, "; the rest take the backtest's decisions, and %s of them, "
	       "drawn from a secret seed, found %s that disagree: a look-ahead acting on %s of the "
	       "bars would have been caught with %s confidence.", count(s, "drawn", a, sizeof a),
	       count(s, "disagreeing", b, sizeof b), rpt_fmt_pct(get(s, "share"), 0, c, sizeof c),
	       rpt_fmt_pct(get(s, "confidence"), 0, d, sizeof d));
}

/* How the bars were decided, from lookahead.json's live object ("" without one). */
static void say_decided(cJSON *o, const cJSON *l)
{
	char text[1024] = "", a[32], b[32], c[32], d[32], e[32];
	size_t used;

	if (!l) {
		cJSON_AddStringToObject(o, "decided", "");
		return;
	}
	if (!sa_json_bool(l, "ok", false))
		sa_fmt(text, sizeof text, "The live replay could not run: %s.",
		       sa_json_str(l, "reason", "no reason was given"));
	else if (sa_json_num(l, "decided", 0) >= sa_json_num(l, "bars", 0)) {
		sa_fmt(text, sizeof text, "Every one of the %s bars was decided live, each with at most "
		       "the last %s bars up to it.", count(l, "bars", a, sizeof a),
		       count(l, "window", b, sizeof b));
		used = strlen(text);
		if (!sa_json_bool(l, "complete", false))
			sa_fmt(text + used, sizeof text - used, " The live check is incomplete: %s of the "
			       "differences from the backtest were left unconfirmed, and %s live runs "
			       "failed.", count(l, "unconfirmed", c, sizeof c), count(l, "failed_runs", d, sizeof d));
	} else {
		sa_fmt(text, sizeof text, "%s of the %s bars were decided live, each with at most the "
		       "last %s bars up to it", count(l, "decided", a, sizeof a), count(l, "bars", b, sizeof b),
		       count(l, "window", c, sizeof c));
		say_sample(text, sizeof text, l);
	}
	used = strlen(text);
	if (sa_json_bool(l, "ok", false) && sa_json_num(l, "differing", 0) > 0)
		sa_fmt(text + used, sizeof text - used, " Of the %s bars whose live decision differs "
		       "from the backtest's, %s were confirmed as look-ahead by a re-run on the whole "
		       "history up to the bar.", count(l, "differing", c, sizeof c),
		       count(l, "confirmed_leaks", d, sizeof d));
	used = strlen(text);
	/* a bar the whole prefix settled holds the backtest's decision: no difference */
	if (sa_json_bool(l, "ok", false) && sa_json_num(l, "memory_mismatches", 0) > 0)
		sa_fmt(text + used, sizeof text - used, " %s bars the window decided otherwise agreed with "
		       "the backtest once decided again on the whole history up to the bar (the window was "
		       "shorter than the strategy's memory): they hold the backtest's decision.",
		       count(l, "memory_mismatches", e, sizeof e));
	cJSON_AddStringToObject(o, "decided", text);
}

/* The first differences, each with both decisions, and the first one in a sentence. */
static void add_first(cJSON *o, const cJSON *l)
{
	cJSON *list = cJSON_AddArrayToObject(o, "first_differences");
	const cJSON *d;
	char b[32], text[512];

	cJSON_ArrayForEach(d, get(l, "first_differences")) {
		cJSON *r = cJSON_CreateObject();
		const char *bt = word(d, "backtest"), *lv = word(d, "live");

		if (cJSON_GetArraySize(list) == 0) {
			sa_fmt(text, sizeof text, "The first: at bar %s (%s) the backtest %s, while with "
			       "only the past it %s.", count(d, "bar", b, sizeof b),
			       sa_json_str(d, "time", "?"), did(bt), did(lv));
			cJSON_AddStringToObject(o, "first_said", text);
		}
		cJSON_AddStringToObject(r, "bar", count(d, "bar", b, sizeof b));
		cJSON_AddStringToObject(r, "time", sa_json_str(d, "time", "?"));
		cJSON_AddStringToObject(r, "backtest", bt);
		cJSON_AddStringToObject(r, "live", lv);
		cJSON_AddStringToObject(r, "confirmed", confirmed_words(sa_json_str(d, "confirmed", "")));
		cJSON_AddItemToArray(list, r);
	}
	cJSON_AddBoolToObject(o, "has_first", cJSON_GetArraySize(list) > 0);
}

void rpt_live_model(cJSON *m, const struct rpt_input *in)
{
	const cJSON *rp = scored_of(in), *d = get(rp, "live_vs_backtest");
	cJSON *o = cJSON_AddObjectToObject(m, "live");
	char b[32];

	cJSON_AddBoolToObject(o, "present", rp != NULL);
	if (!rp)
		return;
	cJSON_AddBoolToObject(o, "scored_live", scored_live(rp));
	say_worth(o, rp);
	say_decided(o, live_of(in));
	cJSON_AddStringToObject(o, "net_return_live", pct(d, "net_return_live", b, sizeof b));
	cJSON_AddStringToObject(o, "net_return_backtest", pct(get(rp, "backtest"), "net_return", b, sizeof b));
	cJSON_AddStringToObject(o, "difference", pct(d, "difference", b, sizeof b));
	cJSON_AddStringToObject(o, "differing_bars", count(d, "differing_bars", b, sizeof b));
	cJSON_AddStringToObject(o, "trades_live", count(rp, "trades", b, sizeof b));
	cJSON_AddStringToObject(o, "trades_backtest", count(get(rp, "backtest"), "trades", b, sizeof b));
	add_first(o, live_of(in));
}

/* The first differences under rpt_live_cols' headers, raw as lookahead.json has them. */
static int sheet_first(struct rpt_book *b, const cJSON *l)
{
	lxw_worksheet *ws = rpt_xlsx_table_sheet(b, "Live differences", rpt_live_cols, RPT_LIVE_COLS);
	const cJSON *d;
	int r = 1;

	if (!ws)
		return -1;
	cJSON_ArrayForEach(d, get(l, "first_differences")) {
		for (int c = 0; c < RPT_LIVE_COLS; c++)
			rpt_xlsx_json(ws, r, c, get(d, rpt_live_cols[c].column), NULL);
		r++;
	}
	rpt_xlsx_filter(ws, r - 1, RPT_LIVE_COLS);
	return 0;
}

int rpt_live_sheet(struct rpt_book *b, const struct rpt_input *in)
{
	static const char *const replay_keys[] = { "trades", "net_return", "gross_return" };
	static const char *const live_keys[] = { "ok", "reason", "bars", "decided", "complete",
						 "window", "differing", "confirmed_leaks",
						 "memory_mismatches" };
	static const char *const diff_keys[] = { "differing_bars", "net_return_live",
						 "net_return_backtest", "difference" };
	static const char *const sample_keys[] = { "drawn", "disagreeing", "share", "confidence" };
	const cJSON *rp = scored_of(in), *l = live_of(in), *d = get(rp, "live_vs_backtest");
	struct rpt_kv kv;
	char label[64];

	if (!rp)
		return 0;
	if (rpt_xlsx_kv_open(b, "Live", 36, &kv))
		return -1;
	rpt_xlsx_kv(&kv, "scored", get(rp, "scored"), NULL);
	rpt_xlsx_kv(&kv, "scored_reason", get(rp, "scored_reason"), NULL);
	for (size_t k = 0; k < sizeof replay_keys / sizeof replay_keys[0]; k++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "backtest.%s", replay_keys[k]),
			    get(get(rp, "backtest"), replay_keys[k]), k ? b->pct : NULL);
	for (size_t k = 0; k < sizeof diff_keys / sizeof diff_keys[0]; k++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "live_vs_backtest.%s", diff_keys[k]),
			    get(d, diff_keys[k]), k ? b->pct : NULL);
	for (size_t k = 0; l && k < sizeof live_keys / sizeof live_keys[0]; k++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "live.%s", live_keys[k]), get(l, live_keys[k]), NULL);
	for (size_t k = 0; cJSON_IsObject(get(l, "sample")) && k < 4; k++)
		rpt_xlsx_kv(&kv, sa_fmt(label, sizeof label, "live.sample.%s", sample_keys[k]),
			    get(get(l, "sample"), sample_keys[k]), NULL);
	rpt_xlsx_kv_close(&kv);
	return sheet_first(b, l);
}

int rpt_live_backtest(const struct rpt_input *in, struct rpt_series *s, char *why, size_t whylen)
{
	const struct rpt_table *tb = &in->curve[RPT_BACKTEST];
	char err[200];

	memset(s, 0, sizeof *s);
	if (!scored_of(in) || !scored_live(scored_of(in))) {
		sa_fmt(why, whylen, "the live decisions were not scored: %s",
		       sa_json_str(scored_of(in), "scored_reason", "replay.json does not say why"));
		return -1;
	}
	if (in->curve_reason[RPT_BACKTEST][0]) {
		sa_fmt(why, whylen, "%s", in->curve_reason[RPT_BACKTEST]);
		return -1;
	}
	if (rpt_series_from_table(tb, s, err, sizeof err)) {
		sa_fmt(why, whylen, "backtest_equity.csv %s", err);
		return -1;
	}
	if (s->n < 2) {
		rpt_series_release(s);
		sa_fmt(why, whylen, "backtest_equity.csv holds fewer than two rows");
		return -1;
	}
	return 0;
}
