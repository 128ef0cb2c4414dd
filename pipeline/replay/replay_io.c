/* replay_io.c - validating the replay stage's inputs and writing its three files. */
#include "replay_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "signals.h"
#include "text.h"
#include "timeutil.h"

int rp_read_costs(const cJSON *cfg, struct rp_costs *c, char *err, size_t errlen)
{
	if (sa_config_num(cfg, SA_K_FEE_BPS, &c->fee_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_SLIPPAGE_BPS, &c->slippage_bps, err, errlen) < 0 ||
	    sa_config_num(cfg, SA_K_FUNDING_BPS_8H, &c->funding_bps_8h, err, errlen) < 0)
		return -1;
	return 0;
}

/* The run's own verdict on itself: it must say it finished and produced signals. */
static int run_finished(const cJSON *run, char *err, size_t errlen)
{
	const char *status = sa_json_str(run, "status", NULL);

	if (!status) {
		sa_fmt(err, errlen, "run.json has no \"status\"; no signals to replay");
		return -1;
	}
	if (strcmp(status, "ok") != 0 || !sa_json_bool(run, "ok", false)) {
		sa_fmt(err, errlen, "the strategy run did not finish cleanly (status '%.40s'); "
		       "no signals to replay", status);
		return -1;
	}
	return 0;
}

int rp_read_signals(const cJSON *run, size_t n_bars, int8_t **signals, char *err,
		    size_t errlen)
{
	double n_claimed = sa_json_num(run, "n_bars", -1);

	*signals = NULL;
	if (run_finished(run, err, errlen) < 0)
		return -1;
	if (n_claimed != (double)n_bars) {
		sa_fmt(err, errlen, "run.json n_bars is %g but the data has %zu bars", n_claimed, n_bars);
		return -1;
	}
	return sa_signals_read(cJSON_GetObjectItemCaseSensitive(run, "signals"), n_bars, signals,
			       err, errlen);
}

/* Adds n with RP_DIGITS significant digits. */
static void add_num(cJSON *o, const char *key, double x)
{
	sa_json_add_num(o, key, x, RP_DIGITS);
}

static void add_costs(cJSON *o, const struct rp_costs *c, const struct rp_result *r)
{
	cJSON *costs = cJSON_AddObjectToObject(o, "costs");

	add_num(costs, "fee_bps", c ? c->fee_bps : NAN);
	add_num(costs, "slippage_bps", c ? c->slippage_bps : NAN);
	add_num(costs, "funding_bps_8h", c ? c->funding_bps_8h : NAN);
	add_num(costs, "fees", r->fees);
	add_num(costs, "slippage", r->slippage);
	add_num(costs, "funding", r->funding);
	add_num(costs, "total", r->fees + r->slippage + r->funding);
}

/* Totals and counts every mode reports. */
static void add_totals(cJSON *o, const struct rp_inputs *in, const struct rp_result *r)
{
	size_t bars = in->data ? in->data->n : 0;

	cJSON_AddNumberToObject(o, "bars", (double)bars);
	cJSON_AddNumberToObject(o, "trades", (double)r->n_trades);
	add_num(o, "gross_return", r->gross_return);
	add_num(o, "net_return", r->net_return);
	add_num(o, "mean_net_return", r->n_trades ? r->net_return / (double)r->n_trades : NAN);
	add_costs(o, in->costs, r);
	add_num(o, "units_traded", r->units_traded);
	cJSON_AddNumberToObject(o, "bars_in_market", (double)r->bars_in_market);
	add_num(o, "exposure", bars ? (double)r->bars_in_market / (double)bars : NAN);
	add_num(o, "turnover", bars ? r->units_traded / (double)bars : NAN);
	add_num(o, "bar_seconds", r->bar_seconds > 0 ? r->bar_seconds : NAN);
	cJSON_AddBoolToObject(o, "open_at_end", r->open_at_end);
	cJSON_AddNumberToObject(o, "equity_rows", (double)r->n_eq);
}

static void add_reconcile(cJSON *o, const struct rp_reconcile *rc)
{
	cJSON *j = cJSON_AddObjectToObject(o, "reconcile");
	char text[512];

	cJSON_AddNumberToObject(j, "claimed_trades", (double)rc->claimed_trades);
	cJSON_AddNumberToObject(j, "replay_trades", (double)rc->replay_trades);
	cJSON_AddNumberToObject(j, "matched", (double)rc->matched);
	add_num(j, "claimed_total", rc->claimed_total);
	add_num(j, "replay_total", rc->replay_total);
	add_num(j, "claimed_mean", rc->claimed_mean);
	add_num(j, "replay_mean", rc->replay_mean);
	add_num(j, "total_difference", rc->total_difference);
	add_num(j, "matched_mean_gap", rc->matched_mean_gap);
	cJSON_AddBoolToObject(j, "consistent", rc->consistent);
	cJSON_AddStringToObject(j, "supported_by_numbers", rc->consistent ? "both" : "replay");
	if (rc->consistent)
		sa_fmt(text, sizeof(text), "The trade log agrees with the replay of the code: %zu "
		       "trades, claimed total %.4f against %.4f net after costs. The statistics use "
		       "the replay.", rc->claimed_trades, rc->claimed_total, rc->replay_total);
	else
		sa_fmt(text, sizeof(text), "The trade log does not match the code: it claims %zu "
		       "trades totalling %.4f, the honest replay gives %zu trades totalling %.4f net "
		       "after costs (%zu matched by entry time and side). The numbers support the "
		       "replay, not the log; the statistics use the replay.", rc->claimed_trades,
		       rc->claimed_total, rc->replay_trades, rc->replay_total, rc->matched);
	cJSON_AddStringToObject(j, "statement", text);
}

/* Records why an input was set aside although the stage could go on without it. */
static void add_set_aside(cJSON *o, const char *key, const char *why)
{
	if (why && *why)
		cJSON_AddStringToObject(o, key, why);
}

/* The reason when nothing can be replayed: every input's own reason, joined. */
static void fail_nothing(cJSON *o, const struct rp_inputs *in)
{
	char reason[1024];

	if (!in->costs)
		sa_fmt(reason, sizeof(reason), "%s", in->config_err);
	else if (!in->data && !in->log)
		sa_fmt(reason, sizeof(reason), "the data could not be loaded (%s)%s%s", in->data_err,
		       in->log_err && *in->log_err ? "; trade log: " : "", in->log_err ? in->log_err : "");
	else
		sa_fmt(reason, sizeof(reason), "nothing to replay: %s%s%s",
		       in->signals_err && *in->signals_err ? in->signals_err : "no strategy signals",
		       in->log_err && *in->log_err ? "; trade log: " : "",
		       in->log_err && *in->log_err ? in->log_err : "");
	sa_json_fail(o, reason);
}

cJSON *rp_stage(const struct rp_inputs *in, struct rp_result *r)
{
	cJSON *o = sa_json_stage("replay", 1);
	bool have_sig = in->costs && in->data && in->signals;
	bool have_log = in->costs && in->log;
	struct rp_reconcile rec;
	const char *mode = have_sig && have_log ? "both" : have_sig ? "signals" : "tradelog";
	int rc = 0;

	memset(r, 0, sizeof(*r));
	if (!have_sig && !have_log) {
		fail_nothing(o, in);
		goto out;
	}
	if (have_sig)
		rc = rp_replay(in->data, in->signals, in->costs, r);
	else
		rc = rp_from_log(in->log, in->data, r);
	if (rc < 0) {
		sa_json_fail(o, "out of memory during the replay");
		goto out;
	}
	cJSON_AddBoolToObject(o, "ok", true);
	cJSON_AddStringToObject(o, "mode", mode);
	cJSON_AddBoolToObject(o, "trusted_returns", !have_sig);
	cJSON_AddStringToObject(o, "equity_basis", have_sig ? "bar" : "trade");
	add_totals(o, in, r);
	if (have_sig && have_log) {
		rp_reconcile(in->log, r, &rec);
		add_reconcile(o, &rec);
	}
	if (!have_sig)
		add_set_aside(o, "signals_error", in->signals_err);
	if (!have_log)
		add_set_aside(o, "tradelog_error", in->log_err);
	if (!in->data)
		add_set_aside(o, "data_error", in->data_err);
	cJSON_AddStringToObject(o, "note", have_sig ?
		"Signals filled at the next bar's open; fees, slippage and funding charged per "
		"the cost model; positions open at the end closed at the last close." :
		"Returns are the trade log's claims, trusted as given: costs cannot be verified "
		"because no code was replayed, so every figure is only as honest as the log.");
out:
	return o;
}

/* A number cell: empty when unknown. */
static void put_num(FILE *fp, double x)
{
	if (isfinite(x))
		fprintf(fp, "%.*g", RP_DIGITS, x == 0 ? 0.0 : x);
}

static void put_time(FILE *fp, int64_t t)
{
	char buf[21];

	sa_csv_write_text(fp, sa_time_format(t, buf));
}

static void put_trade(FILE *fp, const struct rp_trade *t)
{
	put_time(fp, t->entry);
	fputc(',', fp);
	put_time(fp, t->exit);
	fputc(',', fp);
	sa_csv_write_text(fp, t->side > 0 ? "long" : "short");
	fputc(',', fp);
	put_num(fp, t->entry_px);
	fputc(',', fp);
	put_num(fp, t->exit_px);
	fputc(',', fp);
	if (t->bars_held >= 0)
		fprintf(fp, "%ld", t->bars_held);
	const double v[] = { t->gross, t->fees, t->slippage, t->funding, t->net };
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		fputc(',', fp);
		put_num(fp, v[i]);
	}
	fprintf(fp, ",%d\n", t->open_at_end ? 1 : 0);
}

int rp_write_trades(const char *path, const struct rp_result *r)
{
	struct sa_atomic a = { 0 };
	int rc = -1;

	if (sa_atomic_open(&a, path) < 0)
		goto out;
	fputs("entry_time,exit_time,side,entry_px,exit_px,bars_held,gross_return,fees,slippage,"
	      "funding,net_return,open_at_end\n", a.fp);
	for (size_t i = 0; i < r->n_trades; i++)
		put_trade(a.fp, &r->trades[i]);
	rc = sa_atomic_commit(&a);
out:
	sa_atomic_abort(&a);
	return rc;
}

int rp_write_equity(const char *path, const struct rp_result *r)
{
	struct sa_atomic a = { 0 };
	int rc = -1;

	if (sa_atomic_open(&a, path) < 0)
		goto out;
	fputs("time,position,gross_equity,net_equity\n", a.fp);
	for (size_t i = 0; i < r->n_eq; i++) {
		put_time(a.fp, r->eq_time[i]);
		fprintf(a.fp, ",%d,", r->eq_pos[i]);
		put_num(a.fp, r->eq_gross[i]);
		fputc(',', a.fp);
		put_num(a.fp, r->eq_net[i]);
		fputc('\n', a.fp);
	}
	rc = sa_atomic_commit(&a);
out:
	sa_atomic_abort(&a);
	return rc;
}
