/* verdict_live.c - the live replay in the verdict's words and numbers (verdict_live.h). */
#include "verdict_live.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"

/* A count from lookahead.json, clamped to [0, 1e12]; 0 when absent. */
static long count_of(struct sa_sf *s, const cJSON *base, enum sa_field_id k)
{
	return (long)fmax(0, fmin(1e12, sa_sf_num_or(s, base, k, 0)));
}

/* A decision of first_differences: -1, 0 or 1, else 2 (not a decision). */
static int decision_of(struct sa_sf *s, const cJSON *d, enum sa_field_id k)
{
	double x = sa_sf_num_or(s, d, k, NAN);

	return x == -1 || x == 0 || x == 1 ? (int)x : 2;
}

static void read_first(struct vd_live *l, struct sa_sf *s)
{
	const cJSON *d;

	cJSON_ArrayForEach(d, sa_sf_arr_or_null(s, NULL, SA_FD_LA_LIVE_FIRST)) {
		struct vd_live_diff *x = &l->first[l->n_first];

		if (l->n_first == VD_LIVE_FIRST)
			break;
		x->bar = (long)fmax(-1, fmin(1e12, sa_sf_num_or(s, d, SA_FD_LA_LIVE_FIRST_BAR, -1)));
		x->backtest = decision_of(s, d, SA_FD_LA_LIVE_FIRST_BACKTEST);
		x->live = decision_of(s, d, SA_FD_LA_LIVE_FIRST_LIVE);
		if (x->bar < 0 || x->backtest > 1 || x->live > 1)
			continue;
		snprintf(x->time, sizeof x->time, "%s", sa_sf_str_or(s, d, SA_FD_LA_LIVE_FIRST_TIME, ""));
		snprintf(x->confirmed, sizeof x->confirmed, "%s",
			 sa_sf_str_or(s, d, SA_FD_LA_LIVE_FIRST_CONFIRMED, "unconfirmed"));
		l->n_first++;
	}
}

/* The first bar where the callbacks answered the same trade otherwise, each run's answer. */
static void read_call_first(struct vd_live *l, struct sa_sf *s)
{
	static const enum sa_field_id exit[2] = { SA_FD_LA_LIVE_CALL_DIFF_BT_EXIT,
						  SA_FD_LA_LIVE_CALL_DIFF_LV_EXIT };
	static const enum sa_field_id stop[2] = { SA_FD_LA_LIVE_CALL_DIFF_BT_STOP,
						  SA_FD_LA_LIVE_CALL_DIFF_LV_STOP };
	static const enum sa_field_id refused[2] = { SA_FD_LA_LIVE_CALL_DIFF_BT_REFUSED,
						     SA_FD_LA_LIVE_CALL_DIFF_LV_REFUSED };
	const cJSON *d = cJSON_GetArrayItem(sa_sf_arr_or_null(s, NULL, SA_FD_LA_LIVE_CALL_DIFF), 0);
	struct vd_live_call *c = &l->call_first;

	l->call_leaks = count_of(s, NULL, SA_FD_LA_LIVE_CALL_LEAKS);
	if (!d || l->call_leaks == 0)
		return;
	c->bar = (long)fmax(-1, fmin(1e12, sa_sf_num_or(s, d, SA_FD_LA_LIVE_CALL_DIFF_BAR, -1)));
	snprintf(c->time, sizeof c->time, "%s", sa_sf_str_or(s, d, SA_FD_LA_LIVE_CALL_DIFF_TIME, ""));
	for (int k = 0; k < 2; k++) {
		c->exit[k] = sa_sf_num_or(s, d, exit[k], 0) != 0;
		c->refused[k] = sa_sf_num_or(s, d, refused[k], 0) != 0;
		c->stop[k] = sa_sf_num_or(s, d, stop[k], NAN);
	}
	l->has_call_first = c->bar >= 0;
}

static void read_sample(struct vd_live *l, struct sa_sf *s)
{
	l->sampled = sa_sf_obj_or_null(s, NULL, SA_FD_LA_LIVE_SAMPLE) != NULL;
	if (!l->sampled)
		return;
	l->drawn = count_of(s, NULL, SA_FD_LA_LIVE_SAMPLE_DRAWN);
	l->disagreeing = count_of(s, NULL, SA_FD_LA_LIVE_SAMPLE_DISAGREEING);
	l->share = sa_sf_num_or(s, NULL, SA_FD_LA_LIVE_SAMPLE_SHARE, NAN);
	l->confidence = sa_sf_num_or(s, NULL, SA_FD_LA_LIVE_SAMPLE_CONFIDENCE, NAN);
	if (!(l->share > 0 && l->share <= 1 && l->confidence > 0 && l->confidence <= 1))
		l->sampled = false;
}

void vd_live_from_lookahead(struct vd_live *l, struct sa_sf *la)
{
	l->net_backtest = l->net_live = NAN;
	l->present = sa_sf_obj_or_null(la, NULL, SA_FD_LA_LIVE) != NULL;
	if (!l->present)
		return;
	l->ok = sa_sf_bool_or(la, NULL, SA_FD_LA_LIVE_OK, false);
	if (!l->ok) {
		snprintf(l->reason, sizeof l->reason, "%s",
			 sa_sf_str_or(la, NULL, SA_FD_LA_LIVE_REASON, "no reason given"));
		return;
	}
	l->bars = count_of(la, NULL, SA_FD_LA_LIVE_BARS);
	l->decided = count_of(la, NULL, SA_FD_LA_LIVE_DECIDED);
	l->complete = sa_sf_bool_or(la, NULL, SA_FD_LA_LIVE_COMPLETE, false);
	l->differing = count_of(la, NULL, SA_FD_LA_LIVE_DIFFERING);
	l->leaks = count_of(la, NULL, SA_FD_LA_LIVE_LEAKS);
	l->memory = count_of(la, NULL, SA_FD_LA_LIVE_MEMORY);
	l->unconfirmed = count_of(la, NULL, SA_FD_LA_LIVE_UNCONFIRMED);
	l->failed = count_of(la, NULL, SA_FD_LA_LIVE_FAILED);
	read_sample(l, la);
	read_first(l, la);
	read_call_first(l, la);
}

void vd_live_from_replay(struct vd_live *l, struct sa_sf *rp)
{
	l->scored = rp->ok && !strcmp(sa_sf_str_or(rp, NULL, SA_FD_RP_SCORED, ""), "live");
	if (!l->scored || !sa_sf_obj_or_null(rp, NULL, SA_FD_RP_LIVE_VS_BACKTEST)) {
		l->net_backtest = l->net_live = NAN;
		return;
	}
	l->net_backtest = sa_sf_num_or(rp, NULL, SA_FD_RP_NET_BACKTEST, NAN);
	l->net_live = sa_sf_num_or(rp, NULL, SA_FD_RP_NET_LIVE, NAN);
}

/* A bounded appender, as verdict_text.c's. */
__attribute__((format(printf, 3, 4))) static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static const char *did(int d)
{
	return d > 0 ? "went long" : d < 0 ? "went short" : "stayed flat";
}

static const char *plural(long n)
{
	return n == 1 ? "" : "s";
}

/* How many bars were decided live: every one (and what left the check incomplete, if
 * anything), or how many and what the sample of the rest would catch. */
static void say_decided(const struct vd_live *l, char *buf, size_t len)
{
	if (l->decided >= l->bars) {
		add(buf, len, "every one of its %ld bars was decided live, with only the bars up to it",
		    l->bars);
		if (!l->complete)
			add(buf, len, ", but the live check is incomplete (%ld difference%s from the "
			    "backtest left unconfirmed, %ld live run%s failed)", l->unconfirmed,
			    plural(l->unconfirmed), l->failed, plural(l->failed));
		return;
	}
	add(buf, len, "%ld of its %ld bars were decided live, with only the bars up to each (the rest "
	    "take the backtest's decisions", l->decided, l->bars);
	if (l->sampled)
		add(buf, len, "), and %ld of the rest drawn from a secret seed found %ld that disagree: a "
		    "look-ahead acting on %g %% of the bars would have been caught with %g %% "
		    "confidence", l->drawn, l->disagreeing, 100 * l->share, 100 * l->confidence);
	else
		add(buf, len, ", unsampled, so a look-ahead acting only there is unchecked)");
}

char *vd_live_clause(const struct vd_live *l, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!l->present)
		return buf;
	if (!l->ok) {
		add(buf, len, "the live replay could not run (%s), so the backtest's decisions were "
		    "scored", l->reason);
		return buf;
	}
	say_decided(l, buf, len);
	/* a memory mismatch holds the whole prefix's decision, the backtest's own: no difference */
	if (l->differing > 0 && l->leaks == 0)
		add(buf, len, "; %ld bar%s decided live differ%s from the backtest, none confirmed as "
		    "look-ahead, and the statistics score the live decisions", l->differing,
		    plural(l->differing), l->differing == 1 ? "s" : "");
	return buf;
}

static void name_one(const struct vd_live_diff *x, bool first, char *buf, size_t len)
{
	add(buf, len, "%sat bar %ld (%s) the backtest %s, while with only the past it %s",
	    first ? ": " : "; ", x->bar, x->time, did(x->backtest), did(x->live));
}

/* The first differences to name: the first confirmed leaks listed, else the first listed. */
static void name_first(const struct vd_live *l, char *buf, size_t len)
{
	size_t named = 0;

	for (size_t k = 0; k < l->n_first && named < VD_LIVE_NAMED; k++)
		if (!strcmp(l->first[k].confirmed, "leak"))
			name_one(&l->first[k], named++ == 0, buf, len);
	if (!named && l->n_first)
		name_one(&l->first[0], true, buf, len);
}

/* One run's answer to the callbacks, in words. */
static void say_answer(const struct vd_live_call *c, int k, char *buf, size_t len)
{
	if (c->refused[k])
		add(buf, len, "refused the entry");
	else if (c->refused[1 - k])
		add(buf, len, "confirmed it");
	else if (c->exit[k])
		add(buf, len, "exited");
	else if (isfinite(c->stop[k]))
		add(buf, len, "held the trade with its stop %.2f %% from the price", 100 * fabs(c->stop[k]));
	else
		add(buf, len, "held the trade");
}

/* The callbacks' leaks: how many bars, and the first with both answers. */
static void say_call_leaks(const struct vd_live *l, bool after, char *buf, size_t len)
{
	add(buf, len, "%s its callbacks answered the same open trade differently on %ld bar%s "
	    "once the future was hidden", after ? "; and" : "decided bar by bar with only the past,",
	    l->call_leaks, plural(l->call_leaks));
	if (!l->has_call_first)
		return;
	add(buf, len, ": at bar %ld (%s) the backtest's callbacks ", l->call_first.bar,
	    l->call_first.time);
	say_answer(&l->call_first, 0, buf, len);
	add(buf, len, ", while with only the past they ");
	say_answer(&l->call_first, 1, buf, len);
}

char *vd_live_veto(const struct vd_live *l, char *buf, size_t len)
{
	long decisions = l->leaks - (l->call_leaks < l->leaks ? l->call_leaks : l->leaks);

	buf[0] = '\0';
	if (!l->present || !l->ok || l->leaks == 0)
		return buf;
	if (decisions > 0 || l->call_leaks == 0) {
		add(buf, len, "decided bar by bar with only the past, %ld bar%s differ%s from the "
		    "backtest's decisions, %ld of them confirmed as look-ahead by a re-run on the whole "
		    "history up to the bar", l->differing, plural(l->differing),
		    l->differing == 1 ? "s" : "", decisions);
		name_first(l, buf, len);
	}
	if (l->call_leaks > 0)
		say_call_leaks(l, decisions > 0, buf, len);
	if (isfinite(l->net_backtest) && isfinite(l->net_live))
		add(buf, len, "; the backtest claims a net return of %+.2f %%, the live decisions make "
		    "%+.2f %%", 100 * l->net_backtest, 100 * l->net_live);
	return buf;
}

void vd_live_json(cJSON *root, const struct vd_live *l)
{
	cJSON *o, *s;
	char clause[1024];

	if (!l->present) {
		cJSON_AddNullToObject(root, "live");
		return;
	}
	o = cJSON_AddObjectToObject(root, "live");
	cJSON_AddBoolToObject(o, "ok", l->ok);
	cJSON_AddNumberToObject(o, "bars", (double)l->bars);
	cJSON_AddNumberToObject(o, "decided", (double)l->decided);
	cJSON_AddBoolToObject(o, "complete", l->complete);
	cJSON_AddNumberToObject(o, "differing", (double)l->differing);
	cJSON_AddNumberToObject(o, "confirmed_leaks", (double)l->leaks);
	if (l->call_leaks > 0)
		cJSON_AddNumberToObject(o, "call_leaks", (double)l->call_leaks);
	if (l->sampled) {
		s = cJSON_AddObjectToObject(o, "sample");
		cJSON_AddNumberToObject(s, "drawn", (double)l->drawn);
		cJSON_AddNumberToObject(s, "disagreeing", (double)l->disagreeing);
		sa_json_add_num(s, "share", l->share, 6);
		sa_json_add_num(s, "confidence", l->confidence, 6);
	} else {
		cJSON_AddNullToObject(o, "sample");
	}
	cJSON_AddBoolToObject(o, "scored", l->scored);
	sa_json_add_num(o, "net_return_backtest", l->net_backtest, 10);
	sa_json_add_num(o, "net_return_live", l->net_live, 10);
	cJSON_AddStringToObject(o, "clause", vd_live_clause(l, clause, sizeof clause));
}
