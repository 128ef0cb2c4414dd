/* ledger.c - writes ledger.json: where this version of the strategy stands in the trial ledger
 * of the nightly's history (LEDGER), read-only, so the stats stage can deflate for every
 * version of its lineage and score the bars since its first audit apart. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "ledger.h"
#include "msg.h"
#include "stagefile.h"

static const char usage[] =
	"usage: ledger --config config.json --inspect inspect.json --fingerprint fingerprint.json\n"
	"              --name NAME [--night YYYY-MM-DD] [--if-changed] -o ledger.json\n"
	"\n"
	"Looks the strategy's normalised code (inspect.json strategy.normalised) up in the trial\n"
	"ledger of the history config.json's LEDGER names, and writes its lineage, its version, the\n"
	"lineage's versions and trials so far, the night the lineage was first seen and, for a\n"
	"version audited before, the data's last bar at its first audit (since). A lineage new\n"
	"tonight is first seen on NIGHT, else on the data's last bar. Only reads the history;\n"
	"`make nightly` records each night. No LEDGER, no history yet, or no strategy code: used\n"
	"is false, with the reason. --if-changed leaves the file alone when it would not change.\n"
	"\n"
	"exit: 0 written; 2 bad command line; 3 cannot write, or the history is damaged\n";

struct args {
	const char *config, *inspect, *fingerprint, *name, *night, *out;
	bool if_changed;
};

static void parse_args(int argc, char **argv, struct args *a)
{
	static const struct option opts[] = {
		{ "config", required_argument, NULL, 'c' }, { "inspect", required_argument, NULL, 'i' },
		{ "fingerprint", required_argument, NULL, 'f' }, { "name", required_argument, NULL, 'n' },
		{ "night", required_argument, NULL, 'N' }, { "if-changed", no_argument, NULL, 'C' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': a->config = optarg; break;
		case 'i': a->inspect = optarg; break;
		case 'f': a->fingerprint = optarg; break;
		case 'n': a->name = optarg; break;
		case 'N': a->night = *optarg ? optarg : NULL; break;
		case 'C': a->if_changed = true; break;
		case 'o': a->out = optarg; break;
		case 'h': fputs(usage, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option (see --help)");
		}
	}
	if (!a->config || !a->inspect || !a->fingerprint || !a->name || !a->out)
		sa_usage_die("give --config, --inspect, --fingerprint, --name and -o (see --help)");
	if (a->night && (strlen(a->night) != 10 || strspn(a->night, "0123456789-") != 10))
		sa_usage_die("--night must be YYYY-MM-DD, '%s'", a->night);
}

/* The key of this version from inspect.json and fingerprint.json. Returns NULL, or why the
 * ledger does not apply. */
static const char *read_key(const struct args *a, struct da_ledger_key *k, char *why, size_t len)
{
	struct sa_sf in, fp;
	const char *reason;

	sa_sf_open_path(&in, a->inspect, SA_SF_INSPECT);
	sa_sf_open_path(&fp, a->fingerprint, SA_SF_FINGERPRINT);
	reason = da_ledger_key_read(&in, &fp, k, why, len) ? why : NULL;
	sa_sf_close(&in);
	sa_sf_close(&fp);
	return reason;
}

static void add_view(cJSON *o, const struct da_ledger_key *k, const struct da_ledger_view *v)
{
	cJSON *key = cJSON_AddObjectToObject(o, "key");

	cJSON_AddStringToObject(key, "version_sha256", k->version);
	cJSON_AddStringToObject(key, "structure_sha256", k->structure);
	cJSON_AddNumberToObject(key, "variants", (double)k->variants);
	cJSON_AddStringToObject(key, "data_last", k->data_last);
	cJSON_AddStringToObject(o, "lineage", v->lineage);
	cJSON_AddNumberToObject(o, "version", (double)v->version);
	cJSON_AddNumberToObject(o, "versions", (double)v->versions);
	cJSON_AddStringToObject(o, "first_seen", v->first_seen);
	cJSON_AddNumberToObject(o, "trials", (double)v->trials);
	cJSON_AddBoolToObject(o, "recorded", v->known);
	if (v->since[0])
		cJSON_AddStringToObject(o, "since", v->since);
	else
		cJSON_AddNullToObject(o, "since");
}

/* Builds ledger.json into o. Returns 0, or -1 with err when the history is damaged or
 * unreadable (the operator's to fix, so the audit stops). */
static int build(cJSON *o, const struct args *a, char *err, size_t errlen)
{
	char cerr[512], why[512], today[16];
	cJSON *cfg = sa_json_read(a->config, SA_JSON_CAP, cerr, sizeof cerr);
	const char *path = NULL, *skip = NULL;
	struct da_ledger_key k;
	struct da_ledger_view v;
	sqlite3 *db = NULL;
	int rc = -1;

	if (!cfg || sa_config_str(cfg, SA_K_LEDGER, &path, cerr, sizeof cerr) < 0) {
		snprintf(err, errlen, "config.json: %s", cerr);
		goto out;
	}
	cJSON_AddStringToObject(o, "db", path);
	if (!*path)
		skip = "LEDGER is empty: no trial ledger is read";
	else if ((skip = read_key(a, &k, why, sizeof why)) == NULL) {
		if (da_ledger_open(path, false, &db, err, errlen) != 0)
			goto out;
		if (!db)
			skip = sa_fmt(why, sizeof why, "no history at '%s' yet", path);
	}
	cJSON_AddBoolToObject(o, "used", skip == NULL);
	if (skip) {
		cJSON_AddStringToObject(o, "reason", skip);
		rc = 0;
		goto out;
	}
	/* a lineage new tonight is first seen tonight, or on the data's last day: never the clock */
	snprintf(today, sizeof today, "%.10s", a->night ? a->night : k.data_last);
	if (da_ledger_view(db, a->name, &k, today, &v, err, errlen) != 0)
		goto out;
	cJSON_AddNullToObject(o, "reason");
	add_view(o, &k, &v);
	rc = 0;
out:
	sqlite3_close(db);
	cJSON_Delete(cfg);
	return rc;
}

/* Writes o unless --if-changed and the file already holds it. Returns 0, or -1 with a message
 * printed. */
static int write_out(const struct args *a, const cJSON *o)
{
	char *text = cJSON_Print(o), *old = NULL, err[1024];
	size_t n = text ? strlen(text) : 0, oldlen = 0;
	int rc = -1;

	if (!text)
		return sa_error("out of memory");
	if (a->if_changed && sa_read_file(a->out, SA_JSON_CAP, &old, &oldlen) == SA_READ_OK &&
	    oldlen == n + 1 && memcmp(old, text, n) == 0 && old[n] == '\n')
		rc = 0;
	else if ((rc = sa_json_write(a->out, o, err, sizeof err)) != 0)
		sa_error("%s", err);
	free(old);
	cJSON_free(text);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = { 0 };
	char err[1024];
	cJSON *o;
	int rc = SA_EXIT_BROKEN;

	sa_set_prog("ledger");
	parse_args(argc, argv, &a);
	o = sa_sf_new(SA_SF_LEDGER);
	cJSON_AddBoolToObject(o, "ok", true);
	if (build(o, &a, err, sizeof err) != 0) {
		sa_error("%s", err);
		goto out;
	}
	if (write_out(&a, o) == 0)
		rc = SA_EXIT_OK;
out:
	cJSON_Delete(o);
	return rc;
}
