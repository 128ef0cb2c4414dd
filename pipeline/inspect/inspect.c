/* inspect.c - the inspect stage: what the uploads are (size, encoding, shape, red flags), found
 * without executing any of them, written to inspect.json. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include <cjson/cJSON.h>

#include "inspect_core.h"
#include "jsonio.h"
#include "msg.h"

static const char usage[] =
	"usage: inspect [--strategy FILE.py] [--trades FILE.csv] -o inspect.json\n"
	"\n"
	"Reads the strategy and/or trade log (each at most 256 KB) and writes inspect.json: size,\n"
	"UTF-8, lines; a parse with the embedded CPython parser in a child under CPU and memory\n"
	"limits (the upload is never imported or run); whether it defines signals(df); red flags\n"
	"with stable codes (pipeline/inspect/INSPECT.md); for a trade log, columns, rows and errors.\n"
	"\n"
	"  --strategy FILE   strategy source defining signals(df)\n"
	"  --trades FILE     trade log: entry_time,exit_time,side,return\n"
	"  -o FILE           where to write inspect.json\n"
	"  -h, --help        this text\n"
	"\n"
	"Exit status: 0 inspect.json written (even when it says \"ok\": false); 2 bad command line;\n"
	"3 the tool could not work (cannot write, no interpreter, out of memory).\n";

struct args {
	const char *strategy;
	const char *trades;
	const char *out;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{"strategy", required_argument, NULL, 's'},
		{"trades", required_argument, NULL, 't'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': a->strategy = optarg; break;
		case 't': a->trades = optarg; break;
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
	cJSON *strategy, *tradelog, *doc;

	sa_set_prog(argv[0]);
	parse_args(argc, argv, &a);
	strategy = a.strategy ? inspect_strategy_file(a.strategy, &lim, sreason, sizeof(sreason), &broken)
			      : inspect_strategy_absent();
	tradelog = a.trades ? inspect_tradelog_file(a.trades, treason, sizeof(treason))
			    : inspect_tradelog_absent();
	doc = inspect_report(strategy, sreason, tradelog, treason);
	if (sa_json_write(a.out, doc) != 0)
		sa_die("cannot write '%s'", a.out);
	cJSON_Delete(doc);
	if (broken)
		sa_die("%s", sreason);
	return SA_EXIT_OK;
}
