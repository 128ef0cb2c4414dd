/* stats.c - the stats stage: Sharpe, PSR, DSR, MinTRL, drawdown and cost sensitivity. */
#include <getopt.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calls.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "config.h"
#include "ohlcv.h"
#include "ohlcv_json.h"
#include "signals.h"
#include "stagefile.h"
#include "stats_curves.h"
#include "stats_io.h"
#include "stats_pbo.h"
#include "stats_tearsheet.h"
#include "stats_timing.h"
#include "vmatrix.h"

static const char usage[] =
	"usage: stats --replay replay.json --config config.json -o stats.json\n"
	"             [--trades trades.csv] [--equity equity.csv] [--data ohlcv.csv --run run.json]\n"
	"             [--lookahead lookahead.json]\n"
	"             [--variants variants.json] [--ledger ledger.json] [--inspect inspect.json]\n"
	"             [--neighbourhood neighbourhood.json]\n"
	"             [--benchmark-out benchmark.csv] [--rolling-out rolling.csv]\n"
	"             [--walkforward-out walkforward.csv] [--fan-out montecarlo_fan.csv]\n"
	"       stats --time-pbo BARSxVARIANTS [--config config.json]\n"
	"       stats --time-spa BARSxVARIANTS|variant_returns.bin | --time-mc TRADES\n"
	"\n"
	"Computes the statistics of the replay's per-trade net returns: Sharpe, skew, kurtosis,\n"
	"PSR, DSR (deflated for config trials), MinTRL, drawdown and cost sensitivity. trades.csv\n"
	"and equity.csv are found beside replay.json unless given. With --data (and --run for the\n"
	"signals) it adds the tearsheet: a buy and hold benchmark and fills one to four bars late,\n"
	"and replays the signals at 0, 2 and 3 times the costs and to the cost break-even.\n"
	"The signals are those the replay scored: run.json's, or, when replay.json says \"scored\":\n"
	"\"live\", the live decisions in --lookahead (lookahead.json live.signals); without them\n"
	"the signals are not replayed again, and stats.json says why.\n"
	"With --variants, trials and the variance of their Sharpe ratios come from the declared\n"
	"variants, and PBO by CSCV from their return matrix (the file variants.json names, beside\n"
	"it). With --ledger, trials are at least the trial ledger's count for the strategy's lineage,\n"
	"and a version audited before on shorter data has the bars since scored apart (forward).\n"
	"With --inspect, trials are at least the search the file declares: a freqtrade hyperopt\n"
	"space (inspect.json strategy.hyperopt_space, at most HYPEROPT_EPOCHS of its points), and\n"
	"the grid an optimize() call searched (run.json declared_search).\n"
	"With --neighbourhood (and --inspect), the audited parameters' neighbours are set against\n"
	"the centre (stats.json neighbourhood): a peak, whose neighbours keep at their median less\n"
	"than NEIGHBOUR_KEEP of its per-bar Sharpe ratio, counts as a search of 5^parameters trials;\n"
	"whatever its shape, an edge counts at least its family's independent rules: how fast the\n"
	"neighbours' returns decorrelate as a parameter moves, over a search of NEIGHBOUR_SPAN.\n"
	"The --*-out files hold the curves the report draws: buy and hold, the rolling Sharpe ratio\n"
	"and volatility, the walk-forward's equity and the Monte Carlo's fan (a header alone when\n"
	"there is none; stats.json says why).\n"
	"See pipeline/README.md.\n"
	"--time-pbo times PBO by CSCV (PBO_BLOCKS from --config, else its default) over a seeded\n"
	"matrix of Gaussian returns of that shape and prints the wall time; it writes no file.\n"
	"--time-spa and --time-mc time SPA (over that matrix or seeded noise of that shape) and the\n"
	"Monte Carlo of that many seeded trades the same way.\n"
	"\n"
	"exit: 0 output written (even with \"ok\": false), 2 usage, 3 broken (cannot write)\n";

struct args {
	const char *replay, *config, *out, *trades, *equity, *data, *run, *variants, *time_pbo, *ledger;
	const char *time_spa, *time_mc, *lookahead, *inspect, *neighbourhood;
	struct sts_curve_paths curves;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "replay", required_argument, NULL, 'r' },
		{ "config", required_argument, NULL, 'c' },
		{ "trades", required_argument, NULL, 't' },
		{ "equity", required_argument, NULL, 'e' },
		{ "data", required_argument, NULL, 'd' },
		{ "run", required_argument, NULL, 'u' },
		{ "variants", required_argument, NULL, 'v' },
		{ "neighbourhood", required_argument, NULL, 'N' },
		{ "ledger", required_argument, NULL, 'l' },
		{ "lookahead", required_argument, NULL, 'L' },
		{ "inspect", required_argument, NULL, 'I' },
		{ "time-pbo", required_argument, NULL, 'T' },
		{ "time-spa", required_argument, NULL, 'S' },
		{ "time-mc", required_argument, NULL, 'M' },
		{ "benchmark-out", required_argument, NULL, 'B' },
		{ "rolling-out", required_argument, NULL, 'R' },
		{ "walkforward-out", required_argument, NULL, 'W' },
		{ "fan-out", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': a->replay = optarg; break;
		case 'c': a->config = optarg; break;
		case 't': a->trades = optarg; break;
		case 'e': a->equity = optarg; break;
		case 'd': a->data = optarg; break;
		case 'u': a->run = optarg; break;
		case 'v': a->variants = optarg; break;
		case 'N': a->neighbourhood = optarg; break;
		case 'l': a->ledger = optarg; break;
		case 'L': a->lookahead = optarg; break;
		case 'I': a->inspect = optarg; break;
		case 'T': a->time_pbo = optarg; break;
		case 'S': a->time_spa = optarg; break;
		case 'M': a->time_mc = optarg; break;
		case 'B': a->curves.benchmark = optarg; break;
		case 'R': a->curves.rolling = optarg; break;
		case 'W': a->curves.walkforward = optarg; break;
		case 'F': a->curves.fan = optarg; break;
		case 'o': a->out = optarg; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (a->time_pbo || a->time_spa || a->time_mc)
		return;
	if (!a->replay || !a->config || !a->out)
		sa_usage_die("--replay, --config and -o are required");
}

/* path of name in the directory of file, into buf. */
static const char *beside(const char *file, const char *name, char *buf, size_t len)
{
	char *copy = strdup(file);

	if (!copy)
		sa_die("out of memory");
	sa_fmt(buf, len, "%s/%s", dirname(copy), name);
	free(copy);
	return buf;
}

/* Everything main reads, released in one place. */
struct loaded {
	cJSON *replay, *config, *run, *variants, *ledger, *lookahead, *inspect, *nb;
	double *matrix, *nb_matrix;
	char variants_err[512], matrix_err[512], nb_err[512], nb_matrix_err[512];
	char *trades_buf, *equity_buf;
	struct rp_trade *trades;
	struct da_tags entry_tags, exit_tags;
	struct rp_calls_read calls;
	double *eq;
	int64_t *eq_time;
	struct da_ohlcv data, span;  /* span: a view of data over a trade log's own span */
	int8_t *signals;
	char replay_err[512], config_err[512], trades_err[512], equity_err[512];
	char data_err[512], signals_err[512];
	char broken[512];  /* the first field an input file held against the table broke, or "" */
	bool scored_live, tradelog;  /* replay.json's "scored" is "live"; its "mode" "tradelog" */
	struct sts_stage_in in;
};

/* path through the stage-file table as file id (sa_sf_keep): the tree when it is present and its
 * head is the table's (a failed stage's record too, *ok false), else NULL; why in err. */
static cJSON *open_stage(const char *path, enum sa_sfile_id id, bool *ok, char *err, size_t errlen)
{
	struct sa_sf f;
	cJSON *root = sa_sf_keep(&f, path, id);

	*ok = f.ok;
	if (!f.ok)
		sa_fmt(err, errlen, "%s", f.status);
	return root;
}

/* A view of tree (file id) to read its fields by their rows; sa_sf_close is not needed. */
static struct sa_sf *view(struct sa_sf *f, const cJSON *tree, enum sa_sfile_id id)
{
	sa_sf_view(f, tree, id);
	return f;
}

/* The first break of the table a view f recorded, kept for stats.json's reason. */
static void keep_break(struct loaded *L, const struct sa_sf *f)
{
	if (f->broken[0] && !L->broken[0])
		sa_fmt(L->broken, sizeof(L->broken), "%s", f->broken);
}

/* Reads a capped file and hands it to parse; failures become err. */
static char *read_capped(const char *path, const char *what, size_t *len, char *err, size_t errlen)
{
	char *buf = NULL, msg[400];
	enum sa_read_status st = sa_read_file(path, SA_DATA_CAP, &buf, len);

	if (st != SA_READ_OK)
		sa_fmt(err, errlen, "%s: %s", what, sa_read_strerror(st, path, SA_DATA_CAP, msg, sizeof(msg)));
	return buf;
}

static void load_csvs(struct loaded *L, const char *trades_path, const char *equity_path)
{
	size_t len;

	L->trades_buf = read_capped(trades_path, "trades.csv", &len, L->trades_err, sizeof(L->trades_err));
	if (L->trades_buf)
		sts_parse_trades(L->trades_buf, len, &L->trades, &L->in.n_trades, &L->entry_tags,
				 &L->exit_tags, L->trades_err, sizeof(L->trades_err));
	L->equity_buf = read_capped(equity_path, "equity.csv", &len, L->equity_err, sizeof(L->equity_err));
	if (L->equity_buf && sts_parse_equity(L->equity_buf, len, &L->eq, &L->in.n_eq, L->equity_err,
					      sizeof(L->equity_err)) == 0)
		sts_parse_equity_times(L->equity_buf, len, L->in.n_eq, &L->eq_time, L->equity_err,
				      sizeof(L->equity_err));
	L->in.eq_time = L->eq_time;
	L->in.trades = L->trades;
	L->in.entry_tags = &L->entry_tags;
	L->in.exit_tags = &L->exit_tags;
	L->in.eq_net = L->eq;
	L->in.trades_err = L->trades_err;
	L->in.equity_err = L->equity_err;
}

/* The signals the replay scored: the live decisions when replay.json says "scored": "live"
 * (lookahead.json's, read the replay's way), in place of run.json's; without them none. */
static void scored_signals(struct loaded *L, const char *lookahead)
{
	char err[480];
	int8_t *live = NULL;
	bool ok;
	int rc;

	if (!L->scored_live)
		return;
	if (!lookahead) {
		sa_fmt(L->signals_err, sizeof(L->signals_err), "replay.json scored the live decisions, "
		       "and no lookahead.json was given to replay them again");
		rc = DA_LIVE_ERROR;
	} else if (!(L->lookahead = open_stage(lookahead, SA_SF_LOOKAHEAD, &ok, err, sizeof(err)))) {
		sa_fmt(L->signals_err, sizeof(L->signals_err), "lookahead.json: %s", err);
		rc = DA_LIVE_ERROR;
	} else {
		rc = da_live_signals(L->lookahead, L->data.n, DA_RUN_ENTRIES, &live, err, sizeof(err));
		if (rc != DA_LIVE_OK)
			sa_fmt(L->signals_err, sizeof(L->signals_err), "replay.json scored the live "
			       "decisions, but %s", err);
		else if (rp_read_calls(L->lookahead, L->data.n, &L->calls, err, sizeof(err)) < 0) {
			sa_fmt(L->signals_err, sizeof(L->signals_err), "%s", err);
			free(live);
			live = NULL;
			rc = DA_LIVE_ERROR;
		} else if (L->calls.stop)
			L->in.calls = &L->calls.rc;
	}
	free(L->signals);
	L->signals = rc == DA_LIVE_OK ? live : NULL;
	L->in.signals = L->signals;
}

/* The price series and the signals, for the benchmark and the late fills; each optional. */
static void load_tearsheet(struct loaded *L, const char *data, const char *run, const char *lookahead)
{
	char err[480];
	bool ok;

	L->in.data_err = L->data_err;
	L->in.signals_err = L->signals_err;
	sa_fmt(L->signals_err, sizeof(L->signals_err), "no signals were given to the statistics");
	if (!data) {
		sa_fmt(L->data_err, sizeof(L->data_err), "no price data was given to the statistics");
		return;
	}
	if (da_ohlcv_load_config(data, L->config, &L->data, err, sizeof(err)) < 0) {
		sa_fmt(L->data_err, sizeof(L->data_err), "the price data: %s", err);
		return;
	}
	L->in.data = &L->data;
	if (!run)
		return;
	L->run = open_stage(run, SA_SF_RUN, &ok, err, sizeof(err));
	if (!L->run)
		sa_fmt(L->signals_err, sizeof(L->signals_err), "run.json: %s", err);
	else if (da_run_signals(L->run, L->data.n, DA_RUN_ENTRIES, &L->signals, L->signals_err,
				sizeof(L->signals_err)) == 0) {
		L->in.signals = L->signals;
		scored_signals(L, lookahead);
	}
}

static void load_variants(struct loaded *L, const char *path);
static void load_neighbourhood(struct loaded *L, const char *path);

/* ledger.json, when it was used; an unusable one is as none (ledger.json's own stage stops
 * the audit on a damaged history, so this is a file from before the ledger). */
static void load_ledger(struct loaded *L, const char *path)
{
	char err[512];
	struct sa_sf f;
	bool ok;

	L->ledger = open_stage(path, SA_SF_LEDGER, &ok, err, sizeof(err));
	view(&f, L->ledger, SA_SF_LEDGER);
	if (L->ledger && ok && sa_sf_bool_or(&f, NULL, SA_FD_LG_USED, false))
		L->in.ledger = L->ledger;
	keep_break(L, &f);
}

/* The searches the upload declares: inspect.json's hyperopt space and run.json's
 * declared_search (read here too when --data was not given). A file that cannot be read
 * declares nothing; stats.json says which were read. */
static void load_search(struct loaded *L, const char *inspect, const char *run)
{
	char err[512];
	bool ok;

	L->inspect = open_stage(inspect, SA_SF_INSPECT, &ok, err, sizeof(err));
	L->in.inspect = L->inspect && ok ? L->inspect : NULL;
	if (!L->run && run)
		L->run = open_stage(run, SA_SF_RUN, &ok, err, sizeof(err));
	L->in.run = L->run;
}

/* A trade log scored on data: the benchmark holds over the log's own span, from its first
 * entry to its last exit (the bars at or after the entry, before the exit), not the data's. */
static void log_span(struct loaded *L)
{
	int64_t first = INT64_MAX, last = INT64_MIN;
	size_t a = 0, b;

	if (!L->in.data || !L->trades || !L->in.n_trades)
		return;
	for (size_t i = 0; i < L->in.n_trades; i++) {
		first = L->trades[i].entry < first ? L->trades[i].entry : first;
		last = L->trades[i].exit > last ? L->trades[i].exit : last;
	}
	while (a < L->data.n && L->data.t[a] < first)
		a++;
	for (b = a; b < L->data.n && L->data.t[b] <= last; b++)
		;
	if (b - a < 2)
		return;
	L->span = L->data;
	L->span.n = b - a;
	L->span.t += a;
	L->span.open += a;
	L->span.high += a;
	L->span.low += a;
	L->span.close += a;
	L->span.volume += a;
	L->in.data = &L->span;
}

static void load_all(struct loaded *L, const struct args *a)
{
	char tp[4096], ep[4096];
	struct sa_sf f;
	bool ok;

	L->replay = open_stage(a->replay, SA_SF_REPLAY, &ok, L->replay_err, sizeof(L->replay_err));
	view(&f, L->replay, SA_SF_REPLAY);
	L->scored_live = !strcmp(sa_sf_str_or(&f, NULL, SA_FD_RP_SCORED, ""), "live");
	L->tradelog = !strcmp(sa_sf_str_or(&f, NULL, SA_FD_RP_MODE, ""), "tradelog");
	keep_break(L, &f);
	L->config = sa_json_read(a->config, SA_JSON_CAP, L->config_err, sizeof(L->config_err));
	L->in.replay = L->replay;
	L->in.replay_err = L->replay_err;
	L->in.config = L->config;
	L->in.config_err = L->config_err;
	load_tearsheet(L, a->data, a->run, a->lookahead);
	if (L->replay && ok)
		load_csvs(L, a->trades ? a->trades : beside(a->replay, "trades.csv", tp, sizeof(tp)),
			  a->equity ? a->equity : beside(a->replay, "equity.csv", ep, sizeof(ep)));
	if (L->tradelog)
		log_span(L);
	if (a->variants)
		load_variants(L, a->variants);
	if (a->neighbourhood)
		load_neighbourhood(L, a->neighbourhood);
	if (a->ledger)
		load_ledger(L, a->ledger);
	if (a->inspect)
		load_search(L, a->inspect, a->run);
}

/* The return matrix a family's file (j, file id, read from path; "declared" true) names,
 * beside it, into *m (caller frees) of *cols columns of *bars. Returns 0, or -1 with err (none
 * declared, or a field breaking the table, kept in L->broken: err left empty). */
static int read_matrix(struct loaded *L, const char *path, const cJSON *j, enum sa_sfile_id id,
		       double **m, size_t *bars, size_t *cols, char *err, size_t errlen)
{
	bool nb = id == SA_SF_NEIGHBOURHOOD;
	struct sa_sf f;
	const char *name = sa_sf_str_or(view(&f, j, id), NULL, nb ? SA_FD_NB_MATRIX : SA_FD_VR_MATRIX, "");
	bool declared = sa_sf_bool_or(&f, NULL, nb ? SA_FD_NB_DECLARED : SA_FD_VR_DECLARED, false);
	char mp[4096];

	keep_break(L, &f);
	if (!declared || f.broken[0])
		return -1;
	if (!*name || strchr(name, '/') || name[0] == '.') {
		sa_fmt(err, errlen, "%s names no matrix file", strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
		return -1;
	}
	return da_vmatrix_read(beside(path, name, mp, sizeof(mp)), m, bars, cols, err, errlen);
}

/* variants.json and the return matrix it names, beside it. */
static void load_variants(struct loaded *L, const char *path)
{
	bool ok;

	L->variants = open_stage(path, SA_SF_VARIANTS, &ok, L->variants_err, sizeof(L->variants_err));
	L->in.variants = L->variants;
	L->in.variants_err = L->variants_err;
	L->in.matrix_err = L->matrix_err;
	if (L->variants && ok && read_matrix(L, path, L->variants, SA_SF_VARIANTS, &L->matrix,
					     &L->in.m_bars, &L->in.m_cols, L->matrix_err,
					     sizeof(L->matrix_err)) == 0)
		L->in.matrix = L->matrix;
}

/* neighbourhood.json and the return matrix it names, beside it. */
static void load_neighbourhood(struct loaded *L, const char *path)
{
	bool ok;

	L->nb = open_stage(path, SA_SF_NEIGHBOURHOOD, &ok, L->nb_err, sizeof(L->nb_err));
	L->in.neighbourhood = L->nb && ok ? L->nb : NULL;
	L->in.neighbourhood_err = L->nb_err;
	L->in.nb_matrix_err = L->nb_matrix_err;
	if (L->in.neighbourhood && read_matrix(L, path, L->nb, SA_SF_NEIGHBOURHOOD, &L->nb_matrix,
					       &L->in.nb_bars, &L->in.nb_cols, L->nb_matrix_err,
					       sizeof(L->nb_matrix_err)) == 0)
		L->in.nb_matrix = L->nb_matrix;
}

static void release_all(struct loaded *L)
{
	cJSON_Delete(L->nb);
	free(L->nb_matrix);
	cJSON_Delete(L->variants);
	cJSON_Delete(L->ledger);
	cJSON_Delete(L->inspect);
	free(L->matrix);
	cJSON_Delete(L->replay);
	cJSON_Delete(L->config);
	cJSON_Delete(L->run);
	rp_calls_read_release(&L->calls);
	cJSON_Delete(L->lookahead);
	da_ohlcv_release(&L->data);
	free(L->signals);
	free(L->eq_time);
	free(L->trades_buf);
	free(L->equity_buf);
	free(L->trades);
	da_tags_release(&L->entry_tags);
	da_tags_release(&L->exit_tags);
	free(L->eq);
}

/* --time-pbo: CSCV over seeded noise of the given shape, timed on the monotonic clock (the
 * figure goes to stdout only, never into a file). */
static int time_pbo(const struct args *a)
{
	unsigned long long bars = 0, cols = 0;
	long long blocks = 16;
	char tail = 0, err[512];
	cJSON *cfg = a->config ? sa_json_read(a->config, SA_JSON_CAP, err, sizeof(err)) : NULL;
	struct sts_pbo p;
	struct timespec t0, t1, c0, c1;
	gsl_rng *r;
	double *m;

	if (sscanf(a->time_pbo, "%llux%llu%c", &bars, &cols, &tail) != 2 || bars < 1 || cols < 1 ||
	    bars > (1ull << 26) / cols)
		sa_usage_die("--time-pbo wants BARSxVARIANTS, at most 64 M values, '%s'", a->time_pbo);
	if (sa_config_int(cfg, SA_K_PBO_BLOCKS, &blocks, err, sizeof(err)) < 0)
		sa_usage_die("%s", err);
	m = malloc((size_t)(bars * cols) * sizeof(*m));
	r = gsl_rng_alloc(gsl_rng_mt19937);
	if (!m || !r)
		sa_die("out of memory");
	gsl_rng_set(r, 1);
	for (size_t i = 0; i < (size_t)(bars * cols); i++)
		m[i] = gsl_ran_gaussian(r, 0.01);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	if (sts_pbo_cscv(m, (size_t)bars, (size_t)cols, (int)blocks, &p, err, sizeof(err)) < 0)
		sa_die("%s", err);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("cscv: %llu bars x %llu variants, %lld blocks, %zu splits: %.1f ms wall, %.1f ms cpu "
	       "(pbo %.3f)\n", bars, cols, blocks, p.combinations,
	       (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6,
	       (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6, p.value);
	gsl_rng_free(r);
	free(m);
	cJSON_Delete(cfg);
	return SA_EXIT_OK;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct loaded L = { 0 };
	static struct sts_curves curves;
	char err[512];
	cJSON *out = NULL;
	int rc = SA_EXIT_BROKEN;

	sa_set_prog("stats");
	parse_args(argc, argv, &a);
	if (a.time_pbo)
		return time_pbo(&a);
	if (a.time_spa)
		return sts_time_spa(a.time_spa);
	if (a.time_mc)
		return sts_time_mc(a.time_mc);
	load_all(&L, &a);
	L.in.curves = &curves;
	out = sts_stage(&L.in);
	/* an input file breaking the table is no input: the statistics say so, naming the field */
	if (L.broken[0])
		sa_json_fail(out, L.broken);
	/* the buy and hold over the whole series, as the equity chart sets it beside the strategy */
	if (sts_write_curves(&a.curves, &L.in, L.in.data ? &L.data : NULL, out, err, sizeof err) < 0)
		sa_die("%s", err);
	if (sa_json_write(a.out, out, err, sizeof err) < 0)
		goto out;
	rc = SA_EXIT_OK;
out:
	cJSON_Delete(out);
	release_all(&L);
	if (rc != SA_EXIT_OK)
		sa_die("cannot write the statistics: %s", err);
	return rc;
}
