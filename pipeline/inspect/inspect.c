/* inspect.c - the inspect stage: what the uploads are (size, encoding, shape, red flags), found
 * without executing any of them, written to inspect.json. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "config.h"
#include "fileio.h"
#include "inspect_core.h"
#include "jsonio.h"
#include "msg.h"

static const char usage[] =
	"usage: inspect [--strategy FILE.py] [--trades FILE] [--config config.json] -o inspect.json\n"
	"\n"
	"Reads the strategy (at most 8 MB) and/or trade log (64 MB) and writes inspect.json: size,\n"
	"UTF-8, lines; a parse with the embedded CPython parser in a child under CPU and memory\n"
	"limits (the upload is never imported or run); whether it defines signals(df); red flags\n"
	"with stable codes (pipeline/inspect/INSPECT.md); for a trade log, columns, rows and errors.\n"
	"\n"
	"  --strategy FILE   strategy source defining signals(df)\n"
	"  --trades FILE     trade log: entry_time,exit_time,side,return, freqtrade (JSON, CSV),\n"
	"                    TradingView's List of trades, or columns mapped by TRADES_COLUMNS\n"
	"  --config FILE     config.json, for data.trades_columns (TRADES_COLUMNS)\n"
	"  -o FILE           where to write inspect.json\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 inspect.json written (even when it says \"ok\": false); 2 bad command line;\n"
	"3 the tool could not work (cannot write, no interpreter, out of memory).\n";

struct args {
	const char *strategy;
	const char *trades;
	const char *config;
	const char *out;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{"strategy", required_argument, NULL, 's'},
		{"trades", required_argument, NULL, 't'},
		{"config", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': a->strategy = optarg; break;
		case 't': a->trades = optarg; break;
		case 'c': a->config = optarg; break;
		case 'o': a->out = optarg; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (a->out == NULL)
		sa_usage_die("no output file; give -o inspect.json");
	if (a->strategy == NULL && a->trades == NULL)
		sa_usage_die("nothing to inspect; give --strategy and/or --trades");
}

int main(int argc, char **argv)
{
	struct args a = {0};
	struct inspect_limits lim = INSPECT_LIMITS_DEFAULT;
	char sreason[600] = "", treason[600] = "";
	bool broken = false;
	cJSON *strategy, *tradelog, *doc, *cfg = NULL;
	const char *colmap = NULL;
	char err[512];

	sa_set_prog(argv[0]);
	parse_args(argc, argv, &a);
	strategy = a.strategy ? inspect_strategy_file(a.strategy, &lim, sreason, sizeof(sreason), &broken)
			      : inspect_strategy_absent();
	if (a.config && !(cfg = sa_json_read(a.config, SA_JSON_CAP, err, sizeof(err))))
		sa_die("config.json: %s", err);
	if (cfg && sa_config_str(cfg, SA_K_TRADES_COLUMNS, &colmap, err, sizeof(err)))
		sa_die("%s", err);
	tradelog = a.trades ? inspect_tradelog_file(a.trades, colmap, treason, sizeof(treason))
			    : inspect_tradelog_absent();
	doc = inspect_report(strategy, sreason, tradelog, treason);
	if (sa_json_write(a.out, doc, err, sizeof err) != 0)
		sa_die("%s", err);
	cJSON_Delete(doc);
	cJSON_Delete(cfg);
	if (broken)
		sa_die("%s", sreason);
	return SA_EXIT_OK;
}
