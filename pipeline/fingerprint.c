/* fingerprint.c - writes config.json from the make knobs, and fingerprint.json: the sha256 of
 * the code, the data and the configuration, and the tool version, so two runs can be shown to be
 * the same run. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv.h"
#include "timeutil.h"

#define SCHEMA 1

static const char usage[] =
	"usage: fingerprint config [--if-changed] --trials N --fee-bps X --slippage-bps X\n"
	"           --funding-bps-8h X --wall-s N --cpu-s N --mem-mb N --scratch-mb N --nofile N\n"
	"           --lookahead-max N --lookahead-seed N --min-trades N --min-psr P --min-dsr P\n"
	"           --max-dd F -o config.json\n"
	"       fingerprint [--strategy FILE] [--trades FILE] --data OHLCV.csv --config config.json\n"
	"           -o fingerprint.json\n"
	"\n"
	"The first form checks the knobs and writes config.json (with --if-changed, only when its\n"
	"content would change, so make re-runs only what a changed knob affects). The second writes\n"
	"the sha256 of every input and the tool version.\n"
	"\n"
	"exit: 0 written; 2 bad command line or knob; 3 cannot write\n";

/* One knob: its option, where it goes in config.json, and its allowed range. */
struct knob {
	const char *opt;
	const char *group;  /* NULL: top level */
	const char *key;
	double lo, hi;
	bool integer;
	const char *val;
};

static struct knob knobs[] = {
	{ "trials", NULL, "trials", 1, 1e6, true, NULL },
	{ "fee-bps", "costs", "fee_bps", 0, 1000, false, NULL },
	{ "slippage-bps", "costs", "slippage_bps", 0, 1000, false, NULL },
	{ "funding-bps-8h", "costs", "funding_bps_8h", -1000, 1000, false, NULL },
	{ "wall-s", "limits", "wall_s", 1, 3600, true, NULL },
	{ "cpu-s", "limits", "cpu_s", 1, 3600, true, NULL },
	{ "mem-mb", "limits", "mem_mb", 64, 65536, true, NULL },
	{ "scratch-mb", "limits", "scratch_mb", 1, 4096, true, NULL },
	{ "nofile", "limits", "nofile", 16, 4096, true, NULL },
	{ "lookahead-max", "lookahead", "max", 1, 1e6, true, NULL },
	{ "lookahead-seed", "lookahead", "seed", 0, 4294967295.0, true, NULL },
	{ "min-trades", "gates", "min_trades", 1, 1e9, true, NULL },
	{ "min-psr", "gates", "min_psr", 0, 1, false, NULL },
	{ "min-dsr", "gates", "min_dsr", 0, 1, false, NULL },
	{ "max-dd", "gates", "max_dd", 0, 1, false, NULL },
};
#define NKNOBS (sizeof(knobs) / sizeof(knobs[0]))

/* Parses a knob's text. Returns 0, or -1 with why in err. */
static int knob_value(const struct knob *k, double *x, char *err, size_t errlen)
{
	char *end;

	if (!k->val || !*k->val) {
		sa_fmt(err, errlen, "missing --%s", k->opt);
		return -1;
	}
	errno = 0;
	*x = strtod(k->val, &end);
	/* "nan" parses and fails no comparison, so it must be refused by name before the casts. */
	if (*end || errno || !isfinite(*x) || *x < k->lo || *x > k->hi ||
	    (k->integer && *x != (double)(long long)*x)) {
		sa_fmt(err, errlen, "--%s '%s' should be %s from %g to %g", k->opt, k->val,
		       k->integer ? "a whole number" : "a number", k->lo, k->hi);
		return -1;
	}
	return 0;
}

/* Builds config.json from the knobs. Returns the tree (caller frees) or NULL with err set. */
static cJSON *config_build(char *err, size_t errlen)
{
	cJSON *c = sa_json_stage("config", SCHEMA);

	cJSON_AddBoolToObject(c, "ok", 1);
	for (size_t i = 0; i < NKNOBS; i++) {
		cJSON *into = c;
		double x;

		if (knob_value(&knobs[i], &x, err, errlen)) {
			cJSON_Delete(c);
			return NULL;
		}
		if (knobs[i].group) {
			into = cJSON_GetObjectItemCaseSensitive(c, knobs[i].group);
			if (!into)
				into = cJSON_AddObjectToObject(c, knobs[i].group);
		}
		sa_json_add_num(into, knobs[i].key, x, 12);
	}
	cJSON_AddStringToObject(c, "version", SA_VERSION);
	return c;
}

/* Writes c to path, or leaves path alone when it already holds exactly that text. */
static int write_if_changed(const char *path, const cJSON *c)
{
	char *text = cJSON_Print(c), *old = NULL;
	size_t oldlen = 0;
	int rc = -1;

	if (!text)
		return sa_error("out of memory");
	if (sa_read_file(path, SA_JSON_CAP, &old, &oldlen) == SA_READ_OK &&
	    oldlen == strlen(text) + 1 && !memcmp(old, text, oldlen - 1) && old[oldlen - 1] == '\n') {
		rc = 0;
		goto out;
	}
	rc = sa_json_write(path, c);
out:
	free(old);
	cJSON_free(text);
	return rc;
}

static int cmd_config(int argc, char **argv)
{
	const char *out = NULL;
	bool if_changed = false;
	struct option opts[NKNOBS + 4];
	char err[256];
	cJSON *c;
	int o, rc;

	for (size_t i = 0; i < NKNOBS; i++)
		opts[i] = (struct option){ knobs[i].opt, required_argument, NULL, 1000 + (int)i };
	opts[NKNOBS] = (struct option){ "if-changed", no_argument, NULL, 'c' };
	opts[NKNOBS + 1] = (struct option){ "help", no_argument, NULL, 'h' };
	opts[NKNOBS + 2] = (struct option){ "output", required_argument, NULL, 'o' };
	opts[NKNOBS + 3] = (struct option){ 0 };
	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		if (o >= 1000)
			knobs[o - 1000].val = optarg;
		else if (o == 'c')
			if_changed = true;
		else if (o == 'o')
			out = optarg;
		else if (o == 'h') {
			fputs(usage, stdout);
			return SA_EXIT_OK;
		} else
			sa_usage_die("bad option");
	}
	if (!out)
		sa_usage_die("missing -o config.json");
	c = config_build(err, sizeof(err));
	if (!c)
		sa_usage_die("%s", err);
	rc = if_changed ? write_if_changed(out, c) : sa_json_write(out, c);
	cJSON_Delete(c);
	return rc ? SA_EXIT_BROKEN : SA_EXIT_OK;
}

/* Adds key: sha256 of path, or null when path is NULL. Returns 0, or -1 with err set. */
static int add_sha(cJSON *fp, const char *key, const char *path, char *err, size_t errlen)
{
	char hex[65];

	if (!path) {
		cJSON_AddNullToObject(fp, key);
		return 0;
	}
	if (sa_sha256_file(path, hex)) {
		sa_fmt(err, errlen, "cannot read '%s'", path);
		return -1;
	}
	cJSON_AddStringToObject(fp, key, hex);
	return 0;
}

/* Builds fingerprint.json. Returns the tree (caller frees); on a failure it says why inside. */
static cJSON *fingerprint_build(const char *strategy, const char *trades, const char *data,
				const char *config)
{
	cJSON *fp = sa_json_stage("fingerprint", SCHEMA);
	struct sa_ohlcv s;
	char err[512], t[21];

	if (add_sha(fp, "strategy_sha256", strategy, err, sizeof(err)) ||
	    add_sha(fp, "tradelog_sha256", trades, err, sizeof(err)) ||
	    add_sha(fp, "data_sha256", data, err, sizeof(err)) ||
	    add_sha(fp, "config_sha256", config, err, sizeof(err))) {
		sa_json_fail(fp, err);
		return fp;
	}
	cJSON_AddStringToObject(fp, "tool_version", SA_VERSION);
	if (sa_ohlcv_load(data, &s, err, sizeof(err))) {
		sa_json_fail(fp, err);
		return fp;
	}
	cJSON_AddNumberToObject(fp, "data_bars", (double)s.n);
	cJSON_AddStringToObject(fp, "data_first", sa_time_format(s.t[0], t));
	cJSON_AddStringToObject(fp, "data_last", sa_time_format(s.t[s.n - 1], t));
	sa_ohlcv_release(&s);
	cJSON_AddBoolToObject(fp, "ok", 1);
	return fp;
}

static int cmd_fingerprint(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "strategy", required_argument, NULL, 's' },
		{ "trades", required_argument, NULL, 't' },
		{ "data", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *strategy = NULL, *trades = NULL, *data = NULL, *config = NULL, *out = NULL;
	cJSON *fp;
	int o, rc;

	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 's': strategy = optarg; break;
		case 't': trades = optarg; break;
		case 'd': data = optarg; break;
		case 'c': config = optarg; break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage, stdout); return SA_EXIT_OK;
		default: sa_usage_die("bad option");
		}
	}
	if (!data || !config || !out)
		sa_usage_die("--data, --config and -o are required");
	fp = fingerprint_build(strategy, trades, data, config);
	rc = sa_json_write(out, fp);
	cJSON_Delete(fp);
	return rc ? SA_EXIT_BROKEN : SA_EXIT_OK;
}

int main(int argc, char **argv)
{
	sa_set_prog("fingerprint");
	if (argc > 1 && !strcmp(argv[1], "config"))
		return cmd_config(argc - 1, argv + 1);
	return cmd_fingerprint(argc, argv);
}
