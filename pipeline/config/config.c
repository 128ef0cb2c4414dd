/* config.c - writes config.json from the knobs (NAME=value, checked against the knob table in
 * lib/base/config.h), and one stamp file per knob, so make re-runs only the
 * stages a changed knob affects. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "ohlcv_json.h"
#include "ohlcv.h"
#include "stagefile.h"


static const char usage[] =
	"usage: config [--if-changed] [--stamps DIR] -o config.json [KNOB=value ...]\n"
	"       config --check-data OHLCV.csv [KNOB=value ...]\n"
	"\n"
	"Checks every knob against its row of the knob table (type, range) and writes config.json;\n"
	"a knob not given takes the table's default. --if-changed leaves the file alone when its\n"
	"content would not change. --stamps DIR also writes DIR/.knobs-<KNOB> for each knob\n"
	"config.json holds, each only when that knob changed. `make help` lists the knobs.\n"
	"--check-data loads the operator's OHLCV file with the stages' own loader and says why it\n"
	"cannot be used, with the line and the fix, before any stage runs.\n"
	"\n"
	"exit: 0 written (or the data loads); 2 bad command line, a knob out of range or unusable\n"
	"data; 3 cannot write\n";

/* Adds value under row r's path, creating its group object. */
static void add_knob(cJSON *c, const struct sa_knob *r, const char *text, double num)
{
	const char *dot = strchr(r->path, '.');
	cJSON *into = c;
	char group[64];

	if (dot) {
		snprintf(group, sizeof group, "%.*s", (int)(dot - r->path), r->path);
		into = cJSON_GetObjectItemCaseSensitive(c, group);
		if (!into)
			into = cJSON_AddObjectToObject(c, group);
	}
	if (r->type == SA_KNOB_STR)
		cJSON_AddStringToObject(into, dot ? dot + 1 : r->path, text);
	else
		sa_json_add_num(into, dot ? dot + 1 : r->path, num, 12);
}

/* Builds config.json from vals (NULL: the default). Returns the tree (caller frees) or NULL
 * with err set. */
static cJSON *config_build(const char *const vals[SA_K_COUNT], char *err, size_t errlen)
{
	cJSON *c = sa_sf_new(SA_SF_CONFIG);

	cJSON_AddBoolToObject(c, "ok", 1);
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		const char *text = vals[i] ? vals[i] : sa_knobs[i].def;
		double num = 0;

		if (!sa_knobs[i].path)
			continue;
		if (sa_knob_parse((enum sa_knob_id)i, text, &num, err, errlen) < 0) {
			cJSON_Delete(c);
			return NULL;
		}
		add_knob(c, &sa_knobs[i], text, num);
	}
	cJSON_AddStringToObject(c, "version", SA_VERSION);
	return c;
}

/* Writes text and a newline to path, or leaves path alone when it already holds exactly that.
 * Returns 0, or -1 with a message printed. */
static int write_line_if_changed(const char *path, const char *text)
{
	size_t n = strlen(text), oldlen = 0;
	char *old = NULL, *line = malloc(n + 1), err[1024];
	int rc = 0;

	if (!line)
		return sa_error("out of memory");
	memcpy(line, text, n);
	line[n] = '\n';
	if (sa_read_file(path, SA_JSON_CAP, &old, &oldlen) != SA_READ_OK || oldlen != n + 1 ||
	    memcmp(old, line, n + 1))
		rc = sa_write_file(path, line, n + 1, err, sizeof err);
	if (rc)
		sa_error("%s", err);
	free(old);
	free(line);
	return rc;
}

/* One stamp per knob: .knobs-<MAKE> holding its value as JSON (null when config.json leaves it
 * out), each rewritten only when that knob changed, so a stage that depends on the stamps of
 * the knobs it reads re-runs exactly when one of them does. Returns 0 or -1. */
static int write_stamps(const char *dir, const cJSON *c)
{
	int rc = 0;

	for (size_t i = 0; i < SA_K_COUNT; i++) {
		const struct sa_knob *r = &sa_knobs[i];
		const char *dot = r->path ? strchr(r->path, '.') : NULL;
		const cJSON *it;
		char path[4096], group[64], *text;

		if (!r->path)
			continue;
		if (dot) {
			snprintf(group, sizeof group, "%.*s", (int)(dot - r->path), r->path);
			it = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, group), dot + 1);
		} else {
			it = cJSON_GetObjectItemCaseSensitive(c, r->path);
		}
		text = it ? cJSON_PrintUnformatted(it) : NULL;
		if (it && !text)
			return sa_error("out of memory");
		snprintf(path, sizeof path, "%s/.knobs-%s", dir, r->make);
		if (write_line_if_changed(path, text ? text : "null") < 0)
			rc = -1;
		cJSON_free(text);
	}
	return rc;
}

/* Where the layouts read are listed, for the message when DATA is refused. */
#define DATA_LAYOUTS "README.md, 'Give real data'"

/* Loads the operator's data file as every stage would. Returns SA_EXIT_OK, or SA_EXIT_USAGE
 * with the loader's reason (its line number and the fix) printed, and where the layouts read
 * are listed when the reason does not say it already. */
static int check_data(const char *path, const cJSON *cfg)
{
	struct da_ohlcv s = { 0 };
	char err[512];
	int rc = SA_EXIT_OK;

	if (da_ohlcv_load_config(path, cfg, &s, err, sizeof(err)) < 0) {
		sa_error("DATA '%s' cannot be used: %s%s", path, err,
			 strstr(err, "README") ? "" : " (the layouts read: " DATA_LAYOUTS ")");
		rc = SA_EXIT_USAGE;
	}
	da_ohlcv_release(&s);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "if-changed", no_argument, NULL, 'c' }, { "stamps", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' },
		{ "check-data", required_argument, NULL, 'd' }, { 0 },
	};
	const char *vals[SA_K_COUNT] = { 0 }, *out = NULL, *stamps = NULL, *data = NULL;
	bool if_changed = false;
	char err[512], *text = NULL;
	cJSON *c;
	int o, rc = SA_EXIT_BROKEN;

	sa_set_prog("config");
	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 'c': if_changed = true; break;
		case 's': stamps = optarg; break;
		case 'o': out = optarg; break;
		case 'd': data = optarg; break;
		case 'h': fputs(usage, stdout); return SA_EXIT_OK;
		default: sa_usage_die("bad option");
		}
	}
	if (!out && !data)
		sa_usage_die("missing -o config.json");
	for (int i = optind; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char name[64];
		const struct sa_knob *r;

		snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - argv[i]) : 0, argv[i]);
		r = eq ? sa_knob_by_make(name) : NULL;
		if (!r)
			sa_usage_die("'%s' is not KNOB=value with a knob of `make help`", argv[i]);
		vals[r - sa_knobs] = eq + 1;
	}
	c = config_build(vals, err, sizeof(err));
	if (!c) {
		sa_error("%s (hint: 'make help' lists every knob with its range)", err);
		return SA_EXIT_USAGE;
	}
	if (data) {
		/* the data as the stages will load it, with these knobs (ADJUSTED) */
		rc = check_data(data, c);
		goto out;
	}
	text = cJSON_Print(c);
	if (!text)
		goto out;
	if (if_changed) {
		if (write_line_if_changed(out, text) < 0)
			goto out;
	} else if (sa_json_write(out, c, err, sizeof err) < 0) {
		sa_error("%s", err);
		goto out;
	}
	if (stamps && write_stamps(stamps, c) < 0)
		goto out;
	rc = SA_EXIT_OK;
out:
	cJSON_free(text);
	cJSON_Delete(c);
	return rc;
}
