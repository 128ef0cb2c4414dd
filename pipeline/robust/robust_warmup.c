/* robust_warmup.c - warm-up sensitivity: runs started later in history against the full run. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "costs.h"
#include "jsonio.h"
#include "ohlcv_json.h"
#include "robust_core.h"
#include "sbx_report.h"
#include "signals.h"
#include "stagefile.h"

int rb_offsets_parse(const char *text, int *pct, size_t *n, char *why, size_t whylen)
{
	const char *p = text;
	int rc = -1;

	*n = 0;
	while (*p) {
		char *end;
		long v;

		if (!isdigit((unsigned char)*p))
			goto bad;
		errno = 0;
		v = strtol(p, &end, 10);
		if (errno || v < 1 || v > RB_MAX_OFFSET_PCT || *n == RB_MAX_OFFSETS ||
		    (*n > 0 && v <= pct[*n - 1]))
			goto bad;
		pct[(*n)++] = (int)v;
		p = end;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			goto bad;
	}
	if (*n == 0)
		goto bad;
	rc = 0;
	goto out;
bad:
	snprintf(why, whylen, "WARMUP_OFFSETS '%.64s' should be up to %d increasing whole "
		 "percentages from 1 to %d, separated by commas", text, RB_MAX_OFFSETS,
		 RB_MAX_OFFSET_PCT);
	*n = 0;
out:
	return rc;
}

int rb_runs_config_read(const cJSON *cfg, struct rb_config *c, char *why, size_t whylen)
{
	const char *offsets;
	long long perms, seed;

	memset(c, 0, sizeof *c);
	if (sa_config_str(cfg, SA_K_WARMUP_OFFSETS, &offsets, why, whylen) < 0 ||
	    rb_offsets_parse(offsets, c->offset_pct, &c->n_offsets, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_PERMUTATIONS, &perms, why, whylen) < 0 ||
	    sa_config_int(cfg, SA_K_ROBUST_SEED, &seed, why, whylen) < 0)
		return -1;
	c->permutations = (size_t)perms;
	c->seed = (unsigned long)seed;
	/* The sandbox stage's own reader: every run of the upload gets the same limits. */
	return sbx_limits_from_config(cfg, &c->lim, why, whylen);
}

int rb_score_config_read(const cJSON *cfg, struct rb_config *c, char *why, size_t whylen)
{
	if (sa_config_num(cfg, SA_K_WARMUP_FLAG, &c->flag_share, why, whylen) < 0)
		return -1;
	return rp_read_costs(cfg, &c->costs, why, whylen);
}

int rb_full_run_read(const char *run_path, const char *data, const cJSON *cfg, cJSON **run,
		     struct da_ohlcv *bars, int8_t **full, char *why, size_t whylen)
{
	char err[512];
	struct sa_sf sf;

	*full = NULL;
	*run = NULL;
	/* through the stage-file table: its head checked; a failed run's record is still read */
	if (!(*run = sa_sf_keep(&sf, run_path, SA_SF_RUN))) {
		snprintf(why, whylen, "run.json unusable (%s); robustness was not checked", sf.status);
		return -1;
	}
	if (da_ohlcv_load_config(data, cfg, bars, err, sizeof err) < 0) {
		snprintf(why, whylen, "data '%s' unusable: %s", data, err);
		return -1;
	}
	if (da_run_signals(*run, bars->n, DA_RUN_UNCONTAINED | DA_RUN_ENTRIES, full, err, sizeof err) < 0) {
		snprintf(why, whylen, "%s; robustness was not checked", err);
		return -1;
	}
	return 0;
}

size_t rb_tail_start(size_t n)
{
	return n - n * RB_TAIL_PCT / 100;
}

size_t rb_offset_bar(size_t n, int pct)
{
	return n * (size_t)pct / 100;
}

struct da_ohlcv rb_suffix(const struct da_ohlcv *s, size_t k)
{
	if (k > s->n)
		k = s->n;
	return (struct da_ohlcv){ .n = s->n - k, .t = s->t + k, .open = s->open + k,
		.high = s->high + k, .low = s->low + k, .close = s->close + k,
		.volume = s->volume + k, .swap_long = s->swap_long ? s->swap_long + k : NULL,
		.swap_short = s->swap_short ? s->swap_short + k : NULL };
}

/* Counts bar b as differing: it continues the current span when the bar before it differed
 * (cont), else starts a new one; only the first RB_MAX_SPANS spans are listed. */
static void add_span(struct rb_warm_run *w, size_t b, bool cont)
{
	if (!cont) {
		w->spans_total++;
		if (w->n_spans < RB_MAX_SPANS) {
			w->spans[w->n_spans][0] = w->spans[w->n_spans][1] = b;
			w->n_spans++;
		}
	} else if (w->spans_total == w->n_spans) {
		w->spans[w->n_spans - 1][1] = b;  /* the current span is a listed one */
	}
}

void rb_warm_compare(const int8_t *full, size_t n, size_t offset, int pct, const int8_t *sig,
		     size_t len, const char *status, const char *error, struct rb_warm_run *w)
{
	size_t tail = rb_tail_start(n);
	long prev = -2;

	memset(w, 0, sizeof *w);
	w->offset = offset;
	w->pct = pct;
	w->first_bar = -1;
	w->disagreement = NAN;
	snprintf(w->status, sizeof w->status, "%s", status ? status : "error");
	if (!sig || len != n - offset || offset > tail) {
		if (sig)
			snprintf(w->status, sizeof w->status, "bad_output");
		snprintf(w->error, sizeof w->error, "%s", sig ? "returned the wrong number of signals"
			 : error && error[0] ? error : "no result");
		return;
	}
	w->ok = true;
	for (size_t b = tail; b < n; b++) {
		if (sig[b - offset] == full[b])
			continue;
		if (w->first_bar < 0)
			w->first_bar = (long)b;
		w->differing++;
		add_span(w, b, (long)b == prev + 1);
		prev = (long)b;
	}
	w->disagreement = n > tail ? (double)w->differing / (double)(n - tail) : 0.0;
	w->settled = n;
	while (w->settled > offset && sig[w->settled - 1 - offset] == full[w->settled - 1])
		w->settled--;
	w->later_from = tail;
	w->later_disagreement = w->disagreement;
}

long rb_warm_measure(struct rb_warmup *w)
{
	w->warmup_bars = -1;
	for (size_t i = 0; i < w->n_runs; i++) {
		const struct rb_warm_run *r = &w->run[i];

		if (!r->ok)
			continue;
		if (r->settled <= w->tail_start)
			w->warmup_bars = (long)(r->settled - r->offset);
		break;
	}
	return w->warmup_bars;
}

void rb_later_compare(const int8_t *full, size_t n, const int8_t *sig, long warmup,
		      struct rb_warm_run *r)
{
	size_t from = rb_tail_start(n), differing = 0;

	if (!r->ok)
		return;
	if (warmup > 0 && r->offset + (size_t)warmup > from)
		from = r->offset + (size_t)warmup;
	r->later_from = from;
	r->later_disagreement = NAN;
	/* too few bars left past the warm-up to say anything about them */
	if (from >= n || (double)(n - from) < RB_LATER_MIN_SHARE * (double)n)
		return;
	for (size_t b = from; b < n; b++)
		differing += sig[b - r->offset] != full[b];
	r->later_disagreement = (double)differing / (double)(n - from);
}

void rb_warm_finish(struct rb_warmup *w, double flag_share)
{
	w->failed_runs = 0;
	w->first_bar = -1;
	w->first_pct = 0;
	w->flagged = false;
	for (size_t i = 0; i < w->n_runs; i++) {
		const struct rb_warm_run *r = &w->run[i];

		if (!r->ok) {
			w->failed_runs++;
			continue;
		}
		if (r->disagreement > flag_share)
			w->flagged = true;
		if (r->first_bar >= 0 && (w->first_bar < 0 || r->first_bar < w->first_bar)) {
			w->first_bar = r->first_bar;
			w->first_pct = r->pct;
		}
	}
}
