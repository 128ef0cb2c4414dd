/* replay.c - the replay stage: signals (or a trade log) to trades, costs and equity. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "exits.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "replay_core.h"
#include "replay_io.h"
#include "replay_curves.h"
#include "replay_live.h"
#include "replay_tags.h"
#include "stats_core.h"
#include "tradelog.h"
#include "tradelog_formats.h"

static const char usage[] =
	"usage: replay --run run.json [--trades tradelog.csv] [--inspect inspect.json] [--data OHLCV.csv]\n"
	"              --config config.json -o replay.json --trades-out trades.csv\n"
	"              --equity-out equity.csv [--reconcile-out reconcile.csv]\n"
	"              [--lookahead lookahead.json --backtest-equity-out backtest_equity.csv] [--timing]\n"
	"\n"
	"Replays the sandbox's signals with next-bar-open fills, fees, slippage and funding, or\n"
	"audits a trade log's claimed returns (trusted as given), or both and reconciles them.\n"
	"Without --data a trade log stands alone: no bars, no benchmark.\n"
	"  --inspect  the strategy's declared exits (stop-loss, take-profit, trailing stop, ROI),\n"
	"             filled inside the bar; a bad declaration sets the signals aside\n"
	"Writes replay.json, trades.csv and equity.csv; see pipeline/README.md.\n"
	"  --reconcile-out  the claimed and the replayed equity curves of a reconciliation (its\n"
	"             header alone when no trade log was reconciled with the signals)\n"
	"  --lookahead  scores the live decisions (lookahead.json live.signals, each bar decided\n"
	"             with only the bars up to it) when live.ok is true, and replays run.json's\n"
	"             full-history signals beside them into --backtest-equity-out (equity.csv's\n"
	"             columns); without a usable live object the backtest is scored and replay.json\n"
	"             says why; a malformed one makes the replay fail (\"ok\": false) naming the field\n"
	"  --timing   print to stderr how long loading (wall and CPU time) and the computation\n"
	"             (replay plus the statistics core) took; never written into any output\n"
	"\n"
	"exit: 0 output written (even with \"ok\": false), 2 usage, 3 broken (cannot write)\n";

struct args {
	const char *run, *trades, *inspect, *data, *config, *out, *trades_out, *equity_out;
	const char *reconcile_out, *lookahead, *backtest_out;
	int timing;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "run", required_argument, NULL, 'r' },
		{ "trades", required_argument, NULL, 't' },
		{ "inspect", required_argument, NULL, 'i' },
		{ "data", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "trades-out", required_argument, NULL, 'T' },
		{ "equity-out", required_argument, NULL, 'E' },
		{ "reconcile-out", required_argument, NULL, 'R' },
		{ "lookahead", required_argument, NULL, 'l' },
		{ "backtest-equity-out", required_argument, NULL, 'B' },
		{ "timing", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': a->run = optarg; break;
		case 't': a->trades = optarg; break;
		case 'i': a->inspect = optarg; break;
		case 'd': a->data = optarg; break;
		case 'c': a->config = optarg; break;
		case 'o': a->out = optarg; break;
		case 'T': a->trades_out = optarg; break;
		case 'E': a->equity_out = optarg; break;
		case 'R': a->reconcile_out = optarg; break;
		case 'l': a->lookahead = optarg; break;
		case 'B': a->backtest_out = optarg; break;
		case 'm': a->timing = 1; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!a->run || !a->config || !a->out || !a->trades_out || !a->equity_out)
		sa_usage_die("--run, --config, -o, --trades-out and --equity-out are required");
	if (!a->data && !a->trades)
		sa_usage_die("--data is required unless a trade log (--trades) is scored alone");
	if (!a->lookahead != !a->backtest_out)
		sa_usage_die("--lookahead and --backtest-equity-out go together");
}

static double clock_ms(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double now_ms(void)
{
	return clock_ms(CLOCK_MONOTONIC);
}

/* The CPU time of every thread of the process (user and system): what a load costs the
 * machine, whatever else runs beside it. */
static double cpu_ms(void)
{
	return clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

/* Everything main loads, so one function can release it. */
struct loaded {
	cJSON *cfg, *run, *inspect, *lookahead;
	struct rp_costs costs;
	struct rp_exits exits;
	struct da_ohlcv data;
	int8_t *signals, *live;
	struct rp_calls_read calls, claimed;
	struct da_tags tags;
	struct da_tradelog log;
	char cfg_err[512], data_err[512], sig_err[512], log_err[512], live_err[512];
	struct rpl_inputs in;
};

static void load_config(struct loaded *L, const char *path)
{
	char err[512];

	L->cfg = sa_json_read(path, SA_JSON_CAP, err, sizeof(err));
	if (!L->cfg)
		sa_fmt(L->cfg_err, sizeof(L->cfg_err), "config.json: %s", err);
	else if (rp_read_costs(L->cfg, &L->costs, L->cfg_err, sizeof(L->cfg_err)) == 0 &&
		 sa_config_num(L->cfg, SA_K_RECONCILE_BPS, &L->in.reconcile_bps, L->cfg_err,
			       sizeof(L->cfg_err)) == 0)
		L->in.costs = &L->costs;
	L->in.config_err = L->cfg_err;
}

static void load_signals(struct loaded *L, const char *path)
{
	char err[512];

	L->in.signals_err = L->sig_err;
	if (!L->in.data) {
		sa_fmt(L->sig_err, sizeof(L->sig_err), "no data to replay the signals on");
		return;
	}
	L->run = sa_json_read(path, SA_JSON_CAP, err, sizeof(err));
	if (!L->run)
		sa_fmt(L->sig_err, sizeof(L->sig_err), "run.json: %s", err);
	else if (rpl_read_signals(L->run, L->data.n, &L->signals, L->sig_err, sizeof(L->sig_err)) == 0 &&
		 da_run_tags(L->run, L->data.n, &L->tags, L->sig_err, sizeof(L->sig_err)) == 0)
		L->in.signals = L->signals;
}

/* The declared exits, attached to the cost model. Exits that cannot be known (inspect.json
 * unusable) or were declared wrong set the signals aside: replayed without them, the trades
 * would not be the strategy's. */
static void load_exits(struct loaded *L, const char *path)
{
	char err[480];

	if (!path || !L->in.signals)
		return;
	L->inspect = sa_json_read(path, SA_JSON_CAP, err, sizeof(err));
	L->in.exits = rp_exits_of_inspect(L->inspect);
	if (!L->inspect)
		sa_fmt(L->sig_err, sizeof(L->sig_err), "inspect.json: %s, so the declared exits are unknown", err);
	else if (rp_exits_from_json(L->in.exits, &L->exits, err, sizeof(err)) < 0)
		sa_fmt(L->sig_err, sizeof(L->sig_err), "the strategy's exits cannot be replayed: %s", err);
	else {
		L->costs.exits = &L->exits;
		return;
	}
	L->in.signals = NULL;
	L->in.exits = NULL;
}

/* The claimed run's callbacks' answers (lookahead.json "live"."claimed_calls", the rows of
 * "calls"), read as "calls" are through a view that names them so, into L->claimed. Returns 0
 * (none, or read), or -1 with L->live_err. */
static int load_claimed(struct loaded *L)
{
	const cJSON *live = cJSON_GetObjectItemCaseSensitive(L->lookahead, "live");
	const cJSON *rows = cJSON_GetObjectItemCaseSensitive(live, "claimed_calls");
	const cJSON *fee = cJSON_GetObjectItemCaseSensitive(live, "calls_fee_bps");
	cJSON *view = cJSON_CreateObject(), *v = cJSON_AddObjectToObject(view, "live");
	int rc = 0;

	if (rows && v && (!cJSON_AddItemReferenceToObject(v, "calls", (cJSON *)rows) ||
			  !cJSON_AddItemReferenceToObject(v, "calls_fee_bps", (cJSON *)fee)))
		rc = -1;
	if (rc == 0 && rows && rp_read_calls(view, L->data.n, &L->claimed, L->live_err, sizeof(L->live_err)) == 1)
		L->in.claimed_calls = &L->claimed.rc;
	else if (rc == 0 && rows)
		rc = -1;
	cJSON_Delete(view);
	if (rc < 0 && !L->live_err[0])
		sa_fmt(L->live_err, sizeof(L->live_err), "out of memory reading lookahead.json live.claimed_calls");
	return rc;
}

/* The live decisions, when lookahead.json was given and there are signals to set them against. */
static void load_live(struct loaded *L, const char *path)
{
	char err[480];

	if (!path || !L->in.signals)
		return;
	L->lookahead = sa_json_read(path, SA_JSON_CAP, err, sizeof(err));
	rpl_read_live(L->lookahead, err, L->data.n, &L->in, &L->live, L->live_err, sizeof(L->live_err));
	if (L->in.live_state != DA_LIVE_OK)
		return;
	switch (rp_read_calls(L->lookahead, L->data.n, &L->calls, L->live_err, sizeof(L->live_err))) {
	case 1:
		L->in.calls = &L->calls.rc;
		L->in.calls_fee_bps = L->calls.fee_bps;
		if (load_claimed(L) < 0)
			L->in.live_state = DA_LIVE_ERROR;
		break;
	case -1:
		L->in.live_state = DA_LIVE_ERROR;
		break;
	}
}

static void load_tradelog(struct loaded *L, const char *path)
{
	char err[480];
	const char *colmap = "";

	L->in.log_err = L->log_err;
	if (!path)
		return;
	if (L->cfg && sa_config_str(L->cfg, SA_K_TRADES_COLUMNS, &colmap, err, sizeof(err)))
		sa_fmt(L->log_err, sizeof(L->log_err), "config.json %s", err);
	else if (da_tradelog_load_any(path, colmap, &L->log, err, sizeof(err)) == 0)
		L->in.log = &L->log;
	else
		sa_fmt(L->log_err, sizeof(L->log_err), "tradelog.csv %s", err);
}

/* Loads every input; what fails is recorded as a reason, never fatal. load_ms: the data's
 * load, wall then CPU time. */
static void load_all(struct loaded *L, const struct args *a, double load_ms[2])
{
	double t0, c0;

	load_config(L, a->config);
	t0 = now_ms();
	c0 = cpu_ms();
	if (!a->data)
		sa_fmt(L->data_err, sizeof(L->data_err), "no price data: the trade log stands alone");
	else if (da_ohlcv_load_config(a->data, L->cfg, &L->data, L->data_err, sizeof(L->data_err)) == 0)
		L->in.data = &L->data;
	/* fills never better than the half spread these bars imply */
	if (L->in.data && L->in.costs)
		rp_costs_floor(&L->costs, L->in.data, NULL);
	load_ms[0] = now_ms() - t0;
	load_ms[1] = cpu_ms() - c0;
	L->in.data_err = L->data_err;
	load_signals(L, a->run);
	load_exits(L, a->inspect);
	load_live(L, a->lookahead);
	load_tradelog(L, a->trades);
}

static void release_all(struct loaded *L)
{
	cJSON_Delete(L->cfg);
	cJSON_Delete(L->run);
	cJSON_Delete(L->inspect);
	cJSON_Delete(L->lookahead);
	da_ohlcv_release(&L->data);
	free(L->signals);
	free(L->live);
	rp_calls_read_release(&L->calls);
	rp_calls_read_release(&L->claimed);
	da_tags_release(&L->tags);
	da_tradelog_release(&L->log);
}

/* The compute half of the benchmark: replay and the statistics core, as the stats stage
 * would run them, timed on the loaded inputs. */
static void report_timing(const struct loaded *L, const double load_ms[2])
{
	struct rp_result r;
	struct st_summary s;
	double t0 = now_ms(), t1;

	if (!L->in.signals || !L->in.costs || rp_replay(L->in.data, L->in.signals, L->in.costs, &r) < 0) {
		fprintf(stderr, "%s: timing: load_ms=%.1f load_cpu_ms=%.1f (no signals replayed)\n",
			sa_prog(), load_ms[0], load_ms[1]);
		return;
	}
	struct st_input si = {
		.trades = r.trades, .n_trades = r.n_trades, .eq_net = r.eq_net, .n_eq = r.n_eq,
		.eq_per_bar = true, .bar_seconds = r.bar_seconds, .trials = 1,
	};
	st_summarise(&si, &s);
	t1 = now_ms();
	fprintf(stderr, "%s: timing: bars=%zu trades=%zu load_ms=%.1f load_cpu_ms=%.1f compute_ms=%.2f "
		"sharpe=%.6f\n", sa_prog(), L->data.n, r.n_trades, load_ms[0], load_ms[1], t1 - t0, s.sharpe);
	rp_result_release(&r);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct loaded L = { 0 };
	struct rp_result r = { 0 }, bt = { 0 };
	cJSON *out = NULL;
	double load_ms[2] = { 0, 0 };
	char err[1024] = "";
	int rc = SA_EXIT_BROKEN;

	sa_set_prog("replay");
	parse_args(argc, argv, &a);
	load_all(&L, &a, load_ms);
	out = rpl_stage(&L.in, &r, &bt);
	if (a.timing)
		report_timing(&L, load_ms);
	if (L.in.signals)
		rpl_tag_trades(&r, L.in.data, &L.tags, rpl_live_scored(&L.in) ? L.in.live : L.in.signals,
			       L.in.signals);
	if (rpl_live_scored(&L.in) &&
	    rpl_tag_custom_exits(&r, L.in.data, &L.tags, L.in.calls ? &L.calls : NULL) < 0)
		sa_json_fail(out, "custom_exit's named reasons and the run's tags are more than the "
			     "255 names trades.csv's exit_tag can tell apart");
	if (rpl_write_trades(a.trades_out, &r, &L.tags, err, sizeof err) < 0 ||
	    rpl_write_equity(a.equity_out, &r, err, sizeof err) < 0 ||
	    (a.backtest_out && rpl_write_equity(a.backtest_out, rpl_live_scored(&L.in) ? &bt : &r,
						err, sizeof err) < 0) ||
	    (a.reconcile_out && rpl_write_reconcile(a.reconcile_out,
			cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(out, "reconcile")), L.in.log, &r,
			err, sizeof err) < 0) ||
	    sa_json_write(a.out, out, err, sizeof err) < 0)
		goto out;
	rc = SA_EXIT_OK;
out:
	cJSON_Delete(out);
	rp_result_release(&r);
	rp_result_release(&bt);
	release_all(&L);
	if (rc != SA_EXIT_OK)
		sa_die("cannot write the replay outputs: %s", err);
	return rc;
}
