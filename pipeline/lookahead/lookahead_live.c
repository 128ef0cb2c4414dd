/* lookahead_live.c - the live replay: every bar decided by a sandboxed process that is fed one
 * bar at a time and has only the past, compared with the full-history backtest. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <gsl/gsl_rng.h>

#include "costs.h"
#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "lookahead_core.h"
#include "msg.h"
#include "sbx_progress.h"
#include "sbx_stage.h"
#include "timeutil.h"

void la_live_plan(size_t n, size_t budget, size_t *lo, size_t *hi, size_t *k)
{
	size_t parts = LA_LIVE_STRETCHES;

	if (n > budget)
		parts *= LA_LIVE_SPREAD;
	if (parts > n)
		parts = n ? n : 1;
	*k = 0;
	for (size_t i = 0; i < parts; i++) {
		size_t a = n * i / parts, b = n * (i + 1) / parts;

		if (n > budget) {
			size_t take = budget * (i + 1) / parts - budget * i / parts;

			b = a + take < b ? a + take : b;
		}
		if (b > a) {
			lo[*k] = a;
			hi[*k] = b;
			(*k)++;
		}
	}
}

int la_live_calls_costs(const cJSON *cfg, const char *inspect, const struct da_ohlcv *bars,
			struct rp_costs *c, struct rp_exits *x, char *why, size_t len)
{
	char err[480];

	memset(x, 0, sizeof *x);
	if (rp_read_costs(cfg, c, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the costs the trade's callbacks are replayed with: %s", err);
	rp_costs_floor(c, bars, NULL);
	c->exits = x;
	if (!inspect)
		return 0;  /* none declared, as the replay reads them without inspect.json */
	if (rp_exits_read_inspect(inspect, x, err, sizeof err) < 0)
		return sbx_stage_fail(why, len, "the exits the trade's callbacks are replayed with: %s", err);
	return 0;
}

/* A generator seeded from the kernel for this audit alone: what it draws is written nowhere
 * before the stage ends, so no upload can know which bars it will be asked about. */
static gsl_rng *secret_rng(void)
{
	unsigned long seed = 0;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);

	if (r) {
		if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
			seed ^= (unsigned long)sbx_clock_ms() * 2654435761u;
		gsl_rng_set(r, seed);
	}
	return r;
}

static int merge_refusals(struct la_live *lv, const struct sbx_result *r)
{
	lv->blocked += r->n_refusals;
	return sbx_rules_merge(&lv->rules, &lv->n_rules, r);
}

static void note_failure(struct la_live *lv, size_t bar, const struct sbx_result *r)
{
	lv->failed_runs++;
	if (lv->n_failures < LA_FAILED_SHOWN) {
		struct la_live_failure *f = &lv->failures[lv->n_failures++];

		f->bar = bar;
		snprintf(f->status, sizeof f->status, "%s", sbx_status_name(r->status));
		snprintf(f->error, sizeof f->error, "%.239s", r->error);
	}
}

/* Takes a live run's decisions for bars [a, a + decided): each differs or agrees. */
static void take_decisions(struct la_live *lv, size_t a, const struct sbx_result *r)
{
	for (size_t i = 0; i < r->decided && a + i < lv->n; i++) {
		size_t t = a + i;

		int8_t v = r->signals[i];

		if (lv->state[t] != LA_LIVE_UNDECIDED)
			continue;
		/* a bar the strategy could not decide from its past holds no position: where the
		 * backtest held one there, the whole prefix settles it as any difference */
		lv->raised_at[t] = v == SBX_LIVE_RAISED;
		lv->sig[t] = v == SBX_LIVE_RAISED ? 0 : v;
		lv->state[t] = lv->sig[t] == lv->backtest[t] ? LA_LIVE_AGREE : LA_LIVE_DIFFER;
	}
}

/* What one run of a batch comes to, taken in job order once the batch has ended (never in the
 * order runs ended, so what is found and listed is the same on every machine). */
typedef void la_live_take(struct la_live *lv, size_t i, struct sbx_result *r, void *ctx);

/* Runs the m jobs (slot as sbx_batch_opts' slot, or NULL) until deadline, saying its progress on
 * stderr under label when not NULL, gives each result to take and counts its refusals, then
 * releases them. Returns 0, or -1 (why). */
static int run_jobs(struct sbx_zygote *z, const struct sbx_job *job, size_t m, const int *slot, int jobs,
		    long deadline, const char *label, struct la_live *lv, la_live_take *take, void *ctx,
		    char *why, size_t len)
{
	struct sbx_result *res = calloc(m ? m : 1, sizeof *res);
	struct sbx_progress prog;
	struct sbx_batch_opts bo = { .jobs = jobs, .slot = slot, .deadline_ms = deadline };
	char err[512];
	int rc = -1;

	if (!res)
		return sbx_stage_fail(why, len, "out of memory");
	if (label) {
		sbx_progress_start(&prog, label);
		bo.on_done = sbx_progress_done;
		bo.arg = &prog;
	}
	if (m > 0 && sbx_run_batch(z, job, m, &bo, res, err, sizeof err) < 0) {
		sbx_stage_fail(why, len, "the sandbox failed: %s", err);
		goto out;
	}
	for (size_t i = 0; i < m; i++) {
		take(lv, i, &res[i], ctx);
		if (merge_refusals(lv, &res[i]) < 0) {
			sbx_stage_fail(why, len, "out of memory counting refusals");
			goto out;
		}
	}
	rc = 0;
out:
	for (size_t i = 0; i < m; i++)
		sbx_result_release(&res[i]);
	free(res);
	return rc;
}

/* A live run over the stretch that starts at ((const size_t *)lo)[i]. */
static void take_stretch(struct la_live *lv, size_t i, struct sbx_result *r, void *lo)
{
	size_t a = ((const size_t *)lo)[i];

	if (r->calls) {
		sbx_calls_free(lv->record);  /* a replay with a wider window: its answers stand */
		lv->record = r->calls;
		r->calls = NULL;
	}

	lv->runs += r->status != SBX_NOT_RUN || r->decided > 0;
	if (r->signals)
		take_decisions(lv, a, r);
	if (r->status == SBX_NOT_RUN && strstr(r->error, "could not start"))
		note_failure(lv, a + r->decided, r);  /* the zygote failed, not the clock */
	else if (r->status == SBX_NOT_RUN)
		lv->cut = true;  /* cut short by the time budget, or never started */
	else if (r->status != SBX_OK)
		note_failure(lv, a + r->decided, r);
}

/* One replay over the planned stretches with the current window. Returns 0, or -1 (why). */
static int replay(struct sbx_zygote *z, const struct da_ohlcv *bars, const struct la_config *c, int jobs,
		  long deadline, struct la_live *lv, char *why, size_t len)
{
	size_t k = 0;
	size_t lo[LA_LIVE_STRETCHES * LA_LIVE_SPREAD], hi[LA_LIVE_STRETCHES * LA_LIVE_SPREAD];
	struct sbx_job job[LA_LIVE_STRETCHES * LA_LIVE_SPREAD];
	int slot[LA_LIVE_STRETCHES * LA_LIVE_SPREAD];

	la_live_plan(lv->n, c->live_bars, lo, hi, &k);
	if (lv->calls && lv->n) {
		/* the trade path is sequential: one run from the first bar, however many bars */
		k = 1;
		lo[0] = 0;
		hi[0] = lv->n;
	}
	for (size_t i = 0; i < k; i++) {
		size_t w = lv->window;

		job[i] = (struct sbx_job){ .s = bars, .first = lo[i] + 1 > w ? lo[i] + 1 - w : 0,
			.n_visible = lo[i] + 1, .live_end = hi[i], .live_window = w, .calls = lv->calls };
		slot[i] = (int)(i * (size_t)(jobs < 1 ? 1 : jobs) / k);
	}
	return run_jobs(z, job, k, slot, jobs, deadline, "lookahead: live replay", lv, take_stretch, lo, why, len);
}

/* Draws up to m of the bars whose state is from (all when fewer), in time order, into out.
 * Returns how many. */
static size_t draw(const struct la_live *lv, uint8_t from, gsl_rng *rng, size_t m, size_t first_n,
		   size_t *out)
{
	size_t have = 0, k = 0;

	for (size_t t = 0; t < lv->n; t++)
		have += lv->state[t] == from;
	for (size_t t = 0, seen = 0; t < lv->n && k < m; t++) {
		if (lv->state[t] != from)
			continue;
		/* the first first_n always, the rest by selection sampling (Knuth's algorithm S) */
		if (seen < first_n || have - seen <= m - k ||
		    (rng && gsl_rng_uniform(rng) * (double)(have - seen) < (double)(m - k)))
			out[k++] = t;
		seen++;
	}
	return k;
}

struct la_confirm {
	const size_t *at;
	size_t first_traded;
};

/* A whole-prefix run up to bar ((struct la_confirm *)ctx)->at[i]: the backtest's value there is
 * a leak or the window's memory. */
static void take_confirm(struct la_live *lv, size_t i, struct sbx_result *r, void *ctx)
{
	const struct la_confirm *c = ctx;
	size_t t = c->at[i];

	if (r->status == SBX_NOT_RUN)
		return;
	lv->confirmations++;
	if (r->status == SBX_OK && r->signals && r->n == t + 1) {
		lv->sig[t] = r->signals[t];
		lv->state[t] = r->signals[t] == lv->backtest[t] ? LA_LIVE_MEMORY : LA_LIVE_LEAK;
	} else if (t >= c->first_traded) {
		/* the backtest traded on a bar the strategy cannot decide from its past: a live bot
		 * holds no position there, as on a bar where it raised */
		note_failure(lv, t, r);
		lv->sig[t] = 0;
		lv->state[t] = LA_LIVE_LEAK;
	}
}

/* Runs the whole prefix up to each bar of at[0..m) and settles it. Returns 0, or -1 (why). */
static int confirm(struct sbx_zygote *z, const struct da_ohlcv *bars, int jobs, long deadline,
		   size_t first_traded, const size_t *at, size_t m, struct la_live *lv, char *why, size_t len)
{
	struct sbx_job *job = calloc(m ? m : 1, sizeof *job);
	struct la_confirm ctx = { at, first_traded };
	int rc;

	if (!job)
		return sbx_stage_fail(why, len, "out of memory");
	for (size_t i = 0; i < m; i++)
		job[i] = (struct sbx_job){ .s = bars, .n_visible = at[i] + 1 };
	rc = run_jobs(z, job, m, NULL, jobs, deadline, NULL, lv, take_confirm, &ctx, why, len);
	free(job);
	return rc;
}

/* Bars whose published live decision is not the backtest's: a bar the whole prefix settled as
 * memory holds the prefix's decision, the backtest's own, and is no difference. */
static size_t count_differing(const struct la_live *lv)
{
	size_t k = 0;

	for (size_t t = 0; t < lv->n; t++)
		k += lv->sig[t] != lv->backtest[t];
	return k;
}

static size_t count(const struct la_live *lv, uint8_t st)
{
	size_t k = 0;

	for (size_t t = 0; t < lv->n; t++)
		k += lv->state[t] == st;
	return k;
}

/* Bars still differing, unconfirmed, that the strategy did decide (not raised). */
static size_t count_decided_differ(const struct la_live *lv)
{
	size_t k = 0;

	for (size_t t = 0; t < lv->n; t++)
		k += lv->state[t] == LA_LIVE_DIFFER && !lv->raised_at[t];
	return k;
}

struct la_sample {
	const size_t *at;
	size_t differ[LA_LIVE_SAMPLE];  /* drawn bars that disagreed or failed, to confirm */
	size_t k;
};

/* A window run at the drawn bar ((struct la_sample *)ctx)->at[i]. */
static void take_sample(struct la_live *lv, size_t i, struct sbx_result *r, void *ctx)
{
	struct la_sample *c = ctx;
	size_t t = c->at[i];

	if (r->status == SBX_NOT_RUN)
		return;
	lv->sample_drawn++;
	if (r->status != SBX_OK || !r->signals || r->n == 0) {
		note_failure(lv, t, r);
		c->differ[c->k++] = t;
	} else if (r->signals[r->n - 1] != lv->backtest[t]) {
		lv->sample_disagree++;
		c->differ[c->k++] = t;
	} else {
		lv->state[t] = LA_LIVE_SAMPLED;
	}
}

/* Decides the sampled bars past the budget, each on its window, and confirms a disagreement on
 * the whole prefix. Returns 0, or -1 (why). */
static int sample(struct sbx_zygote *z, const struct da_ohlcv *bars, int jobs, long deadline,
		  size_t first_traded, gsl_rng *rng, struct la_live *lv, char *why, size_t len)
{
	size_t at[LA_LIVE_SAMPLE], m = draw(lv, LA_LIVE_UNDECIDED, rng, LA_LIVE_SAMPLE, 0, at);
	struct sbx_job job[LA_LIVE_SAMPLE];
	struct la_sample ctx = { .at = at };

	for (size_t i = 0; i < m; i++)
		job[i] = (struct sbx_job){ .s = bars, .n_visible = at[i] + 1,
			.first = at[i] + 1 > lv->window ? at[i] + 1 - lv->window : 0 };
	if (run_jobs(z, job, m, NULL, jobs, deadline, NULL, lv, take_sample, &ctx, why, len) < 0)
		return -1;
	return confirm(z, bars, jobs, deadline, first_traded, ctx.differ, ctx.k, lv, why, len);
}

/* Forgets the window's decisions (not the confirmed ones) for a replay with a wider window. */
static void forget_window(struct la_live *lv)
{
	for (size_t t = 0; t < lv->n; t++)
		if (lv->state[t] == LA_LIVE_AGREE || lv->state[t] == LA_LIVE_DIFFER) {
			lv->state[t] = LA_LIVE_UNDECIDED;
			lv->sig[t] = lv->backtest[t];
			lv->raised_at[t] = 0;
		}
}

/* The replay's own deadline: a share of the time left, so the confirmations and the sample of
 * what it could not decide still fit before the stage's. */
static long replay_deadline(long deadline)
{
	long now = sbx_clock_ms();

	return deadline <= 0 ? 0 : now + (long)((double)(deadline - now) * LA_LIVE_REPLAY_SHARE);
}

/* The claimed run's result: its callbacks' answers (taken), or why it could not give them. */
static void take_claimed(struct la_live *lv, size_t i, struct sbx_result *r, void *ctx)
{
	(void)i;
	(void)ctx;
	if (r->calls) {
		sbx_calls_free(lv->claimed);
		lv->claimed = r->calls;
		r->calls = NULL;
	}
	lv->runs += r->status != SBX_NOT_RUN || r->decided > 0;
	if (r->status == SBX_NOT_RUN && !strstr(r->error, "could not start"))
		lv->cut = true;
	else if (r->status != SBX_OK)
		note_failure(lv, r->decided, r);
}

/* Whether the two runs' callbacks answered bar t alike: the same exit and reason, and stops
 * both absent or equal but for rounding (the live frame's indicators start at its window). */
static bool same_call(const struct sbx_calls *a, const struct sbx_calls *b, size_t t)
{
	double x = a->stop[t], y = b->stop[t];
	bool stops = (isnan(x) && isnan(y)) ||
		     (!isnan(x) && !isnan(y) && fabs(x - y) <= LA_CALL_STOP_TOL * fmax(1.0, fabs(y)));

	return stops && a->exit[t] == b->exit[t] && a->refused[t] == b->refused[t] &&
	       !strcmp(a->name[t], b->name[t]);
}

/* The bars where the host sent both runs the same trade (side, entry, what was asked) and their
 * callbacks answered otherwise: look-ahead, as the live run's frame held only the past. */
static void compare_calls(struct la_live *lv)
{
	const struct sbx_calls *a = lv->record, *b = lv->claimed;

	lv->call_leaks = lv->n_call_at = 0;
	for (size_t t = 0; a && b && t < lv->n && t < a->n && t < b->n; t++) {
		if (!a->side[t] || a->side[t] != b->side[t] || a->entry[t] != b->entry[t] ||
		    a->ask[t] != b->ask[t] || same_call(a, b, t))
			continue;
		if (lv->n_call_at < LA_LIVE_LISTED)
			lv->call_at[lv->n_call_at++] = t;
		lv->call_leaks++;
	}
}

/* The backtest the author saw, with its callbacks: one run that holds every bar, its class's
 * indicators analysed once over them all, answering the same wire in lock-step with the host's
 * replay of its own trade (sbx_proto.h, SBX_LIVE_CLAIMED); then its answers set beside the live
 * run's. Returns 0, or -1 (why). */
static int claimed_calls(struct sbx_zygote *z, const struct da_ohlcv *bars, int jobs, long deadline,
			 struct la_live *lv, char *why, size_t len)
{
	struct sbx_job job = { .s = bars, .first = 0, .n_visible = lv->n, .live_end = lv->n,
			       .live_window = lv->n, .calls = lv->calls, .claimed = true };

	if (!lv->calls || !lv->record || lv->n == 0 || lv->n > SBX_LIVE_WINDOW_MAX)
		return 0;
	if (run_jobs(z, &job, 1, NULL, jobs, deadline, "lookahead: claimed run", lv, take_claimed, NULL,
		     why, len) < 0)
		return -1;
	compare_calls(lv);
	return 0;
}

int la_live_run(struct sbx_zygote *z, const struct da_ohlcv *bars, int8_t *full, size_t first_traded,
		const struct la_config *c, size_t window, int jobs, long deadline, struct la_live *lv,
		char *why, size_t len)
{
	gsl_rng *rng = NULL;
	size_t at[LA_LIVE_CONFIRM];
	int rc = -1;

	lv->ran = true;
	lv->n = bars->n;
	lv->budget = c->live_bars;
	lv->backtest = full;
	lv->window = window < 1 ? 1 : window < bars->n ? window : bars->n ? bars->n : 1;
	if (lv->window > SBX_LIVE_WINDOW_MAX)
		lv->window = SBX_LIVE_WINDOW_MAX;
	lv->sig = malloc(lv->n ? lv->n : 1);
	lv->state = calloc(lv->n ? lv->n : 1, 1);
	lv->raised_at = calloc(lv->n ? lv->n : 1, 1);
	if (!lv->sig || !lv->state || !lv->raised_at) {
		sbx_stage_fail(why, len, "out of memory");
		goto out;
	}
	memcpy(lv->sig, full, lv->n);
	for (;;) {
		size_t m;

		if (replay(z, bars, c, jobs, replay_deadline(deadline), lv, why, len) < 0)
			goto out;
		/* The first differing bars in time order (the same ones on every machine), each run
		 * again over the whole prefix in a fresh process: even where the window held every bar,
		 * a live run that keeps state between its calls is not the backtest's process. */
		m = draw(lv, LA_LIVE_DIFFER, NULL, LA_LIVE_CONFIRM, LA_LIVE_CONFIRM, at);
		if (confirm(z, bars, jobs, deadline, first_traded, at, m, lv, why, len) < 0)
			goto out;
		/* A leak is proven; or every difference left is a bar the live bot could not decide
		 * (a wider window cannot help it); or the window holds every bar (a difference is then
		 * the whole prefix's: a leak); or the time is spent. Else the window was short of the
		 * strategy's memory: widen it and decide again. */
		if (count(lv, LA_LIVE_LEAK) > 0 || count_decided_differ(lv) == 0 || lv->window >= lv->n ||
		    lv->window >= SBX_LIVE_WINDOW_MAX)
			break;
		if (sbx_clock_ms() >= deadline) {
			lv->cut = true;  /* the time, not the strategy, ended the widening */
			break;
		}
		lv->window = lv->window * 2 < lv->n ? lv->window * 2 : lv->n;
		if (lv->window > SBX_LIVE_WINDOW_MAX)
			lv->window = SBX_LIVE_WINDOW_MAX;
		lv->grown++;
		forget_window(lv);
	}
	lv->decided = lv->n - count(lv, LA_LIVE_UNDECIDED);
	if (count(lv, LA_LIVE_UNDECIDED) > 0 && count(lv, LA_LIVE_LEAK) == 0) {
		if (!(rng = secret_rng())) {
			sbx_stage_fail(why, len, "out of memory");
			goto out;
		}
		if (sample(z, bars, jobs, deadline, first_traded, rng, lv, why, len) < 0)
			goto out;
	}
	if (claimed_calls(z, bars, jobs, deadline, lv, why, len) < 0)
		goto out;
	lv->differing = count_differing(lv);
	/* a callback that answered the same trade otherwise is look-ahead confirmed as it stands:
	 * the claimed run is the whole history's, in a fresh process */
	lv->leaks = count(lv, LA_LIVE_LEAK) + lv->call_leaks;
	lv->memory = count(lv, LA_LIVE_MEMORY);
	lv->unconfirmed = count(lv, LA_LIVE_DIFFER);
	lv->unsettled = count_decided_differ(lv);
	for (size_t t = 0; t < lv->n; t++)
		lv->raised += lv->raised_at[t];
	rc = 0;
out:
	gsl_rng_free(rng);
	return rc;
}

bool la_live_complete(const struct la_live *lv)
{
	size_t undecided = 0;

	for (size_t t = 0; lv->state && t < lv->n; t++)
		undecided += lv->state[t] == LA_LIVE_UNDECIDED;
	/* A difference left unsettled leaves nothing unchecked: the live decision is what is
	 * scored, and it was made with only the past whatever made it differ. */
	return lv->ran && lv->failed_runs == 0 &&
	       (undecided == 0 || lv->sample_drawn >= LA_LIVE_SAMPLE || lv->sample_drawn >= undecided);
}

bool la_live_settled(const struct la_live *lv)
{
	return lv->ran && lv->n > 0 && lv->decided == lv->n && lv->failed_runs == 0 && lv->leaks == 0 &&
	       lv->unconfirmed == 0;
}

static const char *state_word(uint8_t st)
{
	return st == LA_LIVE_LEAK ? "leak" : "unconfirmed";
}

static cJSON *differences_json(const struct la_live *lv, const int64_t *times)
{
	cJSON *a = cJSON_CreateArray();
	char buf[21];
	size_t k = 0;

	for (size_t t = 0; a && t < lv->n && k < LA_LIVE_LISTED; t++) {
		uint8_t st = lv->state[t];
		cJSON *o;

		if (st != LA_LIVE_DIFFER && st != LA_LIVE_LEAK)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "bar", (double)t);
		cJSON_AddStringToObject(o, "time", sa_time_format(times[t], buf));
		cJSON_AddNumberToObject(o, "backtest", lv->backtest[t]);
		cJSON_AddNumberToObject(o, "live", lv->sig[t]);
		cJSON_AddStringToObject(o, "confirmed", state_word(st));
		cJSON_AddItemToArray(a, o);
		k++;
	}
	return a;
}

static cJSON *sample_json(const struct la_live *lv)
{
	cJSON *o;

	if (lv->sample_drawn == 0 && lv->decided == lv->n)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "drawn", (double)lv->sample_drawn);
	cJSON_AddNumberToObject(o, "disagreeing", (double)lv->sample_disagree);
	cJSON_AddNumberToObject(o, "share", LA_LIVE_SHARE);
	/* the chance that a veto on the share of the undecided bars shows in none of the draws */
	sa_json_add_num(o, "confidence", 1.0 - pow(1.0 - LA_LIVE_SHARE, (double)lv->sample_drawn), 4);
	return o;
}

static cJSON *failures_json(const struct la_live *lv, const int64_t *times)
{
	cJSON *a = cJSON_CreateArray();
	char buf[21];

	for (size_t i = 0; a && i < lv->n_failures; i++) {
		const struct la_live_failure *f = &lv->failures[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "bar", (double)f->bar);
		if (f->bar < lv->n)
			cJSON_AddStringToObject(o, "time", sa_time_format(times[f->bar], buf));
		else
			cJSON_AddNullToObject(o, "time");
		cJSON_AddStringToObject(o, "status", f->status);
		cJSON_AddStringToObject(o, "error", f->error);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* "calls": each bar where the host held a trade, as [bar, side, entry bar, asked (SBX_ASK_*),
 * custom_stoploss's ratio or null, custom_exit (0 or 1), its reason, confirm_trade_entry's
 * refusal (0 or 1)]. */
static cJSON *calls_json(const struct sbx_calls *c)
{
	cJSON *a = cJSON_CreateArray();

	for (size_t t = 0; a && t < c->n; t++) {
		cJSON *row;

		if (!c->side[t])
			continue;
		row = cJSON_CreateArray();
		cJSON_AddItemToArray(row, cJSON_CreateNumber((double)t));
		cJSON_AddItemToArray(row, cJSON_CreateNumber(c->side[t]));
		cJSON_AddItemToArray(row, cJSON_CreateNumber(c->entry[t]));
		cJSON_AddItemToArray(row, cJSON_CreateNumber(c->ask[t]));
		cJSON_AddItemToArray(row, isnan(c->stop[t]) ? cJSON_CreateNull() : cJSON_CreateNumber(c->stop[t]));
		cJSON_AddItemToArray(row, cJSON_CreateNumber(c->exit[t]));
		cJSON_AddItemToArray(row, cJSON_CreateString(c->name[t]));
		cJSON_AddItemToArray(row, cJSON_CreateNumber(c->refused[t]));
		cJSON_AddItemToArray(a, row);
	}
	return a;
}

/* One run's answer at bar t: {"stop": ratio or null, "exit": 0 or 1, "reason": text, "refused":
 * 0 or 1 (confirm_trade_entry refused the entry)}. */
static cJSON *answer_json(const struct sbx_calls *c, size_t t)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddItemToObject(o, "stop", isnan(c->stop[t]) ? cJSON_CreateNull() : cJSON_CreateNumber(c->stop[t]));
	cJSON_AddNumberToObject(o, "exit", c->exit[t]);
	cJSON_AddStringToObject(o, "reason", c->name[t]);
	cJSON_AddNumberToObject(o, "refused", c->refused[t]);
	return o;
}

/* "call_differences": the first bars where the two runs' callbacks answered the same trade
 * otherwise, with both answers. */
static cJSON *call_differences_json(const struct la_live *lv, const int64_t *times)
{
	cJSON *a = cJSON_CreateArray();
	char buf[21];

	for (size_t i = 0; a && i < lv->n_call_at; i++) {
		size_t t = lv->call_at[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddNumberToObject(o, "bar", (double)t);
		cJSON_AddStringToObject(o, "time", sa_time_format(times[t], buf));
		cJSON_AddNumberToObject(o, "side", lv->record->side[t]);
		cJSON_AddNumberToObject(o, "entry_bar", lv->record->entry[t]);
		cJSON_AddItemToObject(o, "backtest", answer_json(lv->claimed, t));
		cJSON_AddItemToObject(o, "live", answer_json(lv->record, t));
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

cJSON *la_live_json(const struct la_live *lv, const int64_t *times)
{
	cJSON *o = cJSON_CreateObject(), *sig;
	bool entries = false;

	cJSON_AddBoolToObject(o, "ok", lv->ran);
	cJSON_AddNullToObject(o, "reason");
	cJSON_AddNumberToObject(o, "bars", (double)lv->n);
	cJSON_AddNumberToObject(o, "decided", (double)lv->decided);
	cJSON_AddBoolToObject(o, "complete", la_live_complete(lv));
	cJSON_AddNumberToObject(o, "budget", (double)lv->budget);
	cJSON_AddBoolToObject(o, "cut_short", lv->cut);
	cJSON_AddNumberToObject(o, "window", (double)lv->window);
	cJSON_AddNumberToObject(o, "window_grown", (double)lv->grown);
	cJSON_AddNumberToObject(o, "runs", (double)lv->runs);
	cJSON_AddNumberToObject(o, "differing", (double)lv->differing);
	cJSON_AddNumberToObject(o, "confirmed_leaks", (double)lv->leaks);
	cJSON_AddNumberToObject(o, "memory_mismatches", (double)lv->memory);
	cJSON_AddNumberToObject(o, "unconfirmed", (double)lv->unconfirmed);
	cJSON_AddNumberToObject(o, "unsettled", (double)lv->unsettled);
	cJSON_AddNumberToObject(o, "confirmations", (double)lv->confirmations);
	cJSON_AddItemToObject(o, "first_differences", differences_json(lv, times));
	cJSON_AddItemToObject(o, "sample", sample_json(lv));
	cJSON_AddNumberToObject(o, "raised", (double)lv->raised);
	cJSON_AddNumberToObject(o, "failed_runs", (double)lv->failed_runs);
	cJSON_AddItemToObject(o, "failures", failures_json(lv, times));
	cJSON_AddNumberToObject(o, "blocked_actions", (double)lv->blocked);
	sig = cJSON_AddArrayToObject(o, "signals");
	for (size_t t = 0; sig && t < lv->n; t++) {
		cJSON_AddItemToArray(sig, cJSON_CreateNumber(lv->sig[t]));
		entries |= lv->sig[t] > 1;
	}
	/* the driver took values with events only from a framework run (sbx_proto.h) */
	cJSON_AddBoolToObject(o, "signal_entries", entries);
	if (lv->record) {
		cJSON_AddItemToObject(o, "calls", calls_json(lv->record));
		cJSON_AddNumberToObject(o, "calls_fee_bps", lv->record->fee_bps);
	}
	if (lv->claimed) {
		cJSON_AddItemToObject(o, "claimed_calls", calls_json(lv->claimed));
		cJSON_AddNumberToObject(o, "call_leaks", (double)lv->call_leaks);
		cJSON_AddItemToObject(o, "call_differences", call_differences_json(lv, times));
	}
	return o;
}

/* The live replay's sentence: what it decided and what it found. Returns buf. */
static char *live_sentence(const struct la_live *lv, const int64_t *times, char *buf, size_t len)
{
	char when[21], raised[160] = "";
	size_t first = lv->n;

	for (size_t t = 0; t < lv->n && first == lv->n; t++)
		if (lv->state[t] == LA_LIVE_LEAK)
			first = t;
	if (lv->raised > 0)
		sa_fmt(raised, sizeof raised, " It raised at %zu bar%s of the live replay, which a live bot "
		       "would have traded flat.", lv->raised, lv->raised == 1 ? "" : "s");
	if (first < lv->n && lv->sig[first] != lv->backtest[first])
		return sa_fmt(buf, len, "Decided bar by bar with only the past, as a live bot would, the "
			      "strategy disagreed with its own backtest, confirmed on the whole history up to the "
			      "bar: at bar %zu (%s) the backtest was %s, while with only the past it was %s.%s ",
			      first, sa_time_format(times[first], when), la_signal_word(lv->backtest[first]),
			      la_signal_word(lv->sig[first]), raised);
	if (first < lv->n)
		return sa_fmt(buf, len, "Decided bar by bar with only the past, as a live bot would, the "
			      "strategy could not decide bar %zu (%s), where its backtest held a position.%s ",
			      first, sa_time_format(times[first], when), raised);
	if (lv->failed_runs > 0)
		return sa_fmt(buf, len, "The live replay did not finish: %s at bar %zu (%s).%s ",
			      lv->failures[0].status, lv->failures[0].bar, lv->failures[0].error, raised);
	if (lv->unsettled > 0)
		return sa_fmt(buf, len, "Decided bar by bar with only the past, as a live bot would, the "
			      "strategy disagreed with its backtest on %zu bar%s that no re-run on the whole "
			      "history showed to be look-ahead (a memory longer than the window, or state kept "
			      "between calls): the live decisions are the ones scored.%s ",
			      lv->unsettled, lv->unsettled == 1 ? "" : "s", raised);
	if (lv->decided < lv->n)
		return sa_fmt(buf, len, "%zu of %zu bars were decided bar by bar with only the past, as a live "
			      "bot would; of the rest, %zu drawn from a seed of this audit alone were decided on "
			      "their window, %zu otherwise than the backtest.%s ", lv->decided, lv->n,
			      lv->sample_drawn, lv->sample_disagree, raised);
	if (lv->memory > 0)
		return sa_fmt(buf, len, "Every one of the %zu bars was decided again with only the bars up to "
			      "it, as a live bot would; each agreed with the backtest, or (%zu bar%s) agreed once "
			      "decided again on the whole history in a fresh process.%s ", lv->n, lv->memory,
			      lv->memory == 1 ? "" : "s", raised);
	return sa_fmt(buf, len, "Every one of the %zu bars was decided again with only the bars up to it, "
		      "as a live bot would, and each agreed with the backtest.%s ", lv->n, raised);
}

/* One run's answer at bar t in words, into buf. Returns buf. */
static char *answer_words(const struct sbx_calls *c, size_t t, char *buf, size_t len)
{
	char stop[64] = "no stop";

	if (c->refused[t])
		return sa_fmt(buf, len, "to refuse the entry (confirm_trade_entry)");
	if (c->ask[t] & SBX_ASK_ENTRY && !c->exit[t] && isnan(c->stop[t]))
		return sa_fmt(buf, len, "to confirm the entry");
	if (!isnan(c->stop[t]))
		sa_fmt(stop, sizeof stop, "a stop at %.6g", c->stop[t]);
	if (c->exit[t])
		return sa_fmt(buf, len, "%s and an exit (%s)", stop, c->name[t][0] ? c->name[t] : "custom_exit");
	return sa_fmt(buf, len, "%s and no exit", stop);
}

/* The callbacks' sentence when the claimed run's answered a trade otherwise than the live
 * run's, else "". Returns buf. */
static char *calls_sentence(const struct la_live *lv, const int64_t *times, char *buf, size_t len)
{
	char when[21], claimed[96], live[96], more[96] = "";
	size_t t;

	buf[0] = '\0';
	if (lv->call_leaks == 0 || lv->n_call_at == 0)
		return buf;
	t = lv->call_at[0];
	if (lv->n_call_at > 1)
		sa_fmt(more, sizeof more, " (then at bar %zu%s)", lv->call_at[1], lv->n_call_at > 2 ? " and on" : "");
	return sa_fmt(buf, len, "Asked about the same open trade at the same bar, the strategy's callbacks "
		      "answered otherwise in its backtest (indicators analysed once over the whole history) "
		      "than with only the past, on %zu bar%s: at bar %zu (%s) the backtest's answer was %s, "
		      "while with only the past it was %s%s. ", lv->call_leaks, lv->call_leaks == 1 ? "" : "s", t,
		      sa_time_format(times[t], when), answer_words(lv->claimed, t, claimed, sizeof claimed),
		      answer_words(lv->record, t, live, sizeof live), more);
}

/* Sets res's key to item, replacing the one there. */
static void set_item(cJSON *res, const char *key, cJSON *item)
{
	if (cJSON_HasObjectItem(res, key))
		cJSON_ReplaceItemInObjectCaseSensitive(res, key, item);
	else
		cJSON_AddItemToObject(res, key, item);
}

void la_live_merge(cJSON *res, const struct la_live *lv, const int64_t *times)
{
	char text[1024], calls[640], both[4096];
	const char *expl = sa_json_str(res, "explanation", "");

	if (!lv->ran)
		return;
	/* A live decision is a check: when no truncated run completed (the replay took the time),
	 * the live replay's bars still checked what they checked. */
	if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(res, "ok")) && (lv->decided > 0 || lv->sample_drawn > 0)) {
		set_item(res, "ok", cJSON_CreateTrue());
		cJSON_DeleteItemFromObjectCaseSensitive(res, "reason");
		set_item(res, "clean", cJSON_CreateBool(sa_json_num(res, "mismatch_count", 0) == 0 &&
							 sa_json_num(res, "failed_count", 0) == 0));
	}
	if (lv->leaks > 0)
		set_item(res, "clean", cJSON_CreateFalse());
	/* The live replay is the check: when it decided every bar (or sampled what its budget left),
	 * the truncated runs confirm it, and a budget that cut them short leaves nothing unchecked. */
	set_item(res, "complete", la_live_complete(lv) ? cJSON_CreateTrue() : cJSON_CreateFalse());
	snprintf(both, sizeof both, "%s%s%s", calls_sentence(lv, times, calls, sizeof calls),
		 live_sentence(lv, times, text, sizeof text), expl);
	set_item(res, "explanation", cJSON_CreateString(both));
	cJSON_AddItemToObject(res, "live", la_live_json(lv, times));
}

void la_live_release(struct la_live *lv)
{
	sbx_calls_free(lv->record);
	sbx_calls_free(lv->claimed);
	free(lv->sig);
	free(lv->state);
	free(lv->raised_at);
	free(lv->rules);
	memset(lv, 0, sizeof *lv);
}
