/* report.c - renders an audit directory as report.html, PNG charts and report.xlsx. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "signals.h"
#include "report_calibration.h"
#include "report_chart.h"
#include "report_input.h"
#include "report_live.h"
#include "report_model.h"
#include "report_neighbourhood.h"
#include "report_reconcile.h"
#include "report_pdf.h"
#include "report_tearsheet.h"
#include "report_tmpl.h"
#include "report_checks.h"
#include "report_trials.h"
#include "report_xlsx.h"

#define TEMPLATE_CAP ((size_t)1024 * 1024)

static const char usage[] =
	"usage: report --dir out/NAME --name NAME --templates DIR [--data OHLCV.csv]\n"
	"\n"
	"Renders the audit in DIR as report.html (from TEMPLATES/report.html), the charts\n"
	"equity.png, underwater.png, rolling.png, rolling_vol.png, returns.png, costs.png, delay.png,\n"
	"signals.png, permutation.png and warmup.png (and reconcile.png when a trade log was\n"
	"reconciled with the code, live.png when the replay says what it scored: a strategy's\n"
	"live decisions against its backtest), report.pdf and report.xlsx, all inside DIR. It runs no\n"
	"replay or statistics: the curves come from the stages' benchmark.csv, rolling.csv, walkforward.csv,\n"
	"montecarlo_fan.csv, reconcile.csv, equity.csv and backtest_equity.csv, the figures from their JSON.\n"
	"Missing or failed stage files are reported in the page, never fatal; a field missing or\n"
	"of another type in a present file (the stage-file table) is: the report names the file\n"
	"and the field and exits 3, never showing a default in its place. --data gives the\n"
	"price series the signals chart is drawn on. DIR/calibration.json, when present, gives the\n"
	"auditor's own error rates the Honest limitations quote (make calibrate measures them).\n"
	"\n"
	"exit codes: 0 report written (whatever the verdict), 2 bad command line,\n"
	"            3 the report could not be written\n";

struct args {
	const char *dir, *name, *templates, *data;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "name", required_argument, NULL, 'n' },
		{ "templates", required_argument, NULL, 't' },
		{ "data", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ 0, 0, 0, 0 },
	};
	int c;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd': a->dir = optarg; break;
		case 'n': a->name = optarg; break;
		case 't': a->templates = optarg; break;
		case 'D': a->data = optarg; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!a->dir || !a->name || !a->templates)
		sa_usage_die("--dir, --name and --templates are required");
	if (!a->name[0] || strchr(a->name, '/'))
		sa_usage_die("the name must be a plain file name, '%s'", a->name);
}

/* reconcile.png, only when a trade log was reconciled with a replay. */
static void draw_reconcile(const struct args *a, const struct rpt_input *in)
{
	struct rpt_series claimed, replayed;
	char path[4096], err[512], why[512];

	if (rpt_reconcile_curves(in, &claimed, &replayed, why, sizeof why) == 0 &&
	    rpt_chart_reconcile(sa_fmt(path, sizeof path, "%s/reconcile.png", a->dir), &claimed,
				&replayed, err, sizeof err))
		sa_die("%s", err);
	rpt_series_release(&claimed);
	rpt_series_release(&replayed);
}

/* live.png, when the replay says what it scored (a strategy's audit): the backtest's curve
 * (backtest_equity.csv) and the live decisions' (equity.csv), or why they are not both there. */
static void draw_live(const struct args *a, const struct rpt_input *in, const struct rpt_extra *x)
{
	char path[4096], err[512];

	if (rpt_live_present(in) &&
	    rpt_chart_live(sa_fmt(path, sizeof path, "%s/live.png", a->dir), &x->backtest, &in->equity,
			   x->live_why, err, sizeof err))
		sa_die("%s", err);
}

static void draw_robust_charts(const struct args *a, const struct rpt_input *in)
{
	char path[4096], err[512];
	const cJSON *rb = rpt_stage_ok(in, RPT_ROBUST);
	const char *why = in->stage[RPT_ROBUST].reason;

	if (rpt_chart_permutation(sa_fmt(path, sizeof path, "%s/permutation.png", a->dir),
				  cJSON_GetObjectItemCaseSensitive(rb, "permutation"), why, err, sizeof err) ||
	    rpt_chart_warmup(sa_fmt(path, sizeof path, "%s/warmup.png", a->dir),
			     cJSON_GetObjectItemCaseSensitive(rb, "warmup"), why, err, sizeof err))
		sa_die("%s", err);
}

static void draw_charts(const struct args *a, const struct rpt_input *in, const struct rpt_extra *x)
{
	char path[4096], err[512];
	const cJSON *stats = rpt_stage_ok(in, RPT_STATS), *run = rpt_stage_ok(in, RPT_RUN);
	const cJSON *la = in->stage[RPT_LOOKAHEAD].json;
	const char *why_eq = in->equity_reason[0] ? in->equity_reason : "equity.csv is empty";
	char why_sig[256] = "the strategy run did not succeed";
	int8_t *sig = NULL;

	/* The same check the replay made: a bad array is refused, never rounded into a chart. */
	if (run)
		da_run_signals(run, in->data.n, 0, &sig, why_sig, sizeof why_sig);
	const cJSON *delay = stats ? cJSON_GetObjectItemCaseSensitive(stats, "delay_sensitivity") : NULL;
	const char *why_delay = stats ? sa_json_str(stats, "delay_note", "") : "stats.json is missing or failed";

	if (rpt_chart_equity(sa_fmt(path, sizeof path, "%s/equity.png", a->dir), &in->equity, &x->bench, why_eq,
			     err, sizeof err) ||
	    rpt_chart_underwater(sa_fmt(path, sizeof path, "%s/underwater.png", a->dir), &in->equity,
				 stats ? cJSON_GetObjectItemCaseSensitive(stats, "drawdowns") : NULL, why_eq,
				 err, sizeof err) ||
	    rpt_chart_rolling(sa_fmt(path, sizeof path, "%s/rolling.png", a->dir), in->equity.t, x->rolling,
			      in->equity.n, x->window, x->sharpe_annualised, x->rolling_why, err, sizeof err) ||
	    rpt_chart_rolling_vol(sa_fmt(path, sizeof path, "%s/rolling_vol.png", a->dir), in->equity.t,
				  x->rolling_vol, in->equity.n, x->window, x->volatility_annualised,
				  x->rolling_why, err, sizeof err) ||
	    rpt_chart_delay(sa_fmt(path, sizeof path, "%s/delay.png", a->dir), delay, why_delay, err, sizeof err) ||
	    rpt_chart_returns(sa_fmt(path, sizeof path, "%s/returns.png", a->dir), &in->returns, in->trades_reason, err, sizeof err) ||
	    rpt_chart_costs(sa_fmt(path, sizeof path, "%s/costs.png", a->dir),
			   stats ? cJSON_GetObjectItemCaseSensitive(stats, "cost_sensitivity") : NULL, x->breakeven,
			   err, sizeof err) ||
	    rpt_chart_signals(sa_fmt(path, sizeof path, "%s/signals.png", a->dir), &in->data,
			     sig, why_sig, cJSON_IsObject(la) ? cJSON_GetObjectItemCaseSensitive(la, "mismatches") : NULL,
			     in->data_reason, err, sizeof err))
		sa_die("%s", err);
	free(sig);
	draw_live(a, in, x);
	draw_reconcile(a, in);
	draw_robust_charts(a, in);
	if (rpt_trials_charts(a->dir, in, err, sizeof err) || rpt_nb_chart(a->dir, in, err, sizeof err))
		sa_die("%s", err);
	if (rpt_checks_charts(a->dir, in, err, sizeof err))
		sa_die("%s", err);
}

static void write_html(const struct args *a, const cJSON *model)
{
	char path[4096], err[512], msg[512];
	char *tmpl = NULL;
	size_t len;
	struct sa_atomic out = { 0 };
	sa_fmt(path, sizeof path, "%s/report.html", a->templates);
	enum sa_read_status st = sa_read_file(path, TEMPLATE_CAP, &tmpl, &len);
	if (st != SA_READ_OK)
		sa_die("%s", sa_read_strerror(st, path, TEMPLATE_CAP, msg, sizeof msg));
	if (sa_atomic_open(&out, sa_fmt(path, sizeof path, "%s/report.html", a->dir), err, sizeof err))
		sa_die("cannot write the report: %s", err);
	if (rpt_tmpl_render(out.fp, tmpl, model, err, sizeof err)) {
		sa_atomic_abort(&out);
		sa_die("template %s/report.html: %s", a->templates, err);
	}
	if (sa_atomic_commit(&out, err, sizeof err))
		sa_die("cannot write the report: %s", err);
	free(tmpl);
}

/* A present stage file that breaks the table is no audit to show: its first break, named. */
static void check_contract(const struct rpt_input *in)
{
	const char *broken = rpt_input_broken(in);

	if (broken)
		sa_die("a stage file does not hold what its stage writes: %s", broken);
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct rpt_input in;
	struct rpt_extra x;
	char path[4096], err[512];
	sa_set_prog("report");
	parse_args(argc, argv, &a);
	if (rpt_input_load(&in, a.dir, a.data))
		sa_die("out of memory reading '%s'", a.dir);
	if (rpt_extra_build(&x, &in))
		sa_die("out of memory reading '%s'", a.dir);
	draw_charts(&a, &in, &x);
	cJSON *model = rpt_model_build(&in, a.name);
	if (model)
		cJSON_AddBoolToObject(model, "equity_log", rpt_equity_log_axis(&in.equity, x.bench.n >= 2 ? &x.bench : NULL));
	if (!model || rpt_trials_model(model, &in) || rpt_nb_model(model, &in) || rpt_forward_model(model, &in) || rpt_checks_model(model, &in) ||
	    rpt_calibration_model(model, a.dir))
		sa_die("out of memory");
	check_contract(&in);
	write_html(&a, model);
	if (rpt_pdf_write(sa_fmt(path, sizeof path, "%s/report.pdf", a.dir), &in, &x, model, err, sizeof err))
		sa_die("%s", err);
	rpt_chart_cleanup();
	if (rpt_xlsx_write(sa_fmt(path, sizeof path, "%s/report.xlsx", a.dir), &in, a.name, err, sizeof err))
		sa_die("%s", err);
	check_contract(&in);
	cJSON_Delete(model);
	rpt_extra_release(&x);
	rpt_input_release(&in);
	return SA_EXIT_OK;
}
