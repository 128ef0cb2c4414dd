/* fingerprint.c - writes fingerprint.json: the sha256 of the code, the data and the
 * configuration, the tool version, and whether the data is the bundled synthetic series, so two
 * runs can be shown to be the same run. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "fingerprint_libs.h"
#include "config.h"
#include "jsonio.h"
#include "stagefile.h"
#include "msg.h"
#include "ohlcv.h"
#include "ohlcv_checks.h"
#include "ohlcv_json.h"
#include "timeutil.h"

static const char usage[] =
	"usage: fingerprint [--strategy FILE] [--trades FILE] --data OHLCV.csv --config config.json\n"
	"           [--synthetic SUMS] [--name NAME] [--given KIND=PATH]... -o fingerprint.json\n"
	"\n"
	"Writes the sha256 of every input and the tool version. SUMS is a sha256sum line naming the\n"
	"bundled synthetic series (data/ohlcv.csv.sha256): data_synthetic says whether the data is\n"
	"exactly that series, whatever its path. NAME is the audit's name; each --given is an upload\n"
	"as the user named it (KIND strategy, tradelog or data; only the file name is kept), so the\n"
	"report can say under which safe name it was audited. data_format says what the loader\n"
	"found in the data; libraries, the versions of the modules a strategy may import.\n"
	"\n"
	"exit: 0 written; 2 bad command line; 3 cannot write\n";

/* Adds key: sha256 of path, or null when path is NULL. Returns 0, or -1 with err set. */
static int add_sha(cJSON *fp, const char *key, const char *path, char *err, size_t errlen)
{
	char hex[65];

	if (!path) {
		cJSON_AddNullToObject(fp, key);
		return 0;
	}
	if (sa_sha256_file(path, hex, err, errlen))
		return -1;
	cJSON_AddStringToObject(fp, key, hex);
	return 0;
}

/* Builds fingerprint.json. Returns the tree (caller frees); on a failure it says why inside. */
/* Whether the data's sha256 (hex) is the one the sums file names first. False when the file
 * cannot be read: an unknown series is not called synthetic. */
static bool is_synthetic(const char *sums, const char *hex)
{
	char *text = NULL;
	size_t len = 0;
	bool yes;

	if (!sums || sa_read_file(sums, 4096, &text, &len) != SA_READ_OK)
		return false;
	yes = len >= 64 && !memcmp(text, hex, 64) && (len == 64 || text[64] == ' ');
	free(text);
	return yes;
}

/* data_format, with the series' checks: its price step and the warnings it earns. */
static void add_data_format(cJSON *fp, const struct da_ohlcv *s, const cJSON *cfg)
{
	cJSON *f = da_ohlcv_format_json(s);
	struct da_ohlcv_checks c;
	double n_sigmas = 15;
	char err[256];

	if (!f)
		return;
	(void)sa_config_num(cfg, SA_K_JUMP_SIGMAS, &n_sigmas, err, sizeof err);
	da_ohlcv_check(s, n_sigmas, &c);
	sa_json_add_num(f, "price_step", c.price_step, 10);
	sa_json_add_num(f, "price_step_bps", c.price_step_bps, 6);
	cJSON_AddItemToObject(f, "warnings", da_ohlcv_warnings_json(s, &c, n_sigmas));
	cJSON_AddItemToObject(fp, "data_format", f);
}

/* uploads: the audit's name and each upload's file name as given (no folder). */
static void add_uploads(cJSON *fp, const char *name, char **given, int n_given)
{
	static const char *const kinds[] = { "strategy", "tradelog", "data" };
	cJSON *u = cJSON_AddObjectToObject(fp, "uploads");

	if (name)
		cJSON_AddStringToObject(u, "name", name);
	else
		cJSON_AddNullToObject(u, "name");
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
		const char *as = NULL;
		size_t klen = strlen(kinds[k]);

		for (int g = 0; g < n_given; g++)
			if (!strncmp(given[g], kinds[k], klen) && given[g][klen] == '=' && given[g][klen + 1])
				as = given[g] + klen + 1;
		if (as && strrchr(as, '/'))
			as = strrchr(as, '/') + 1;
		if (as && *as)
			cJSON_AddStringToObject(u, kinds[k], as);
		else
			cJSON_AddNullToObject(u, kinds[k]);
	}
}

static cJSON *fingerprint_build(const char *strategy, const char *trades, const char *data,
				const char *config, const char *synthetic)
{
	cJSON *fp = sa_sf_new(SA_SF_FINGERPRINT), *cfg = NULL;
	struct da_ohlcv s;
	char err[512], t[21];

	if (add_sha(fp, "strategy_sha256", strategy, err, sizeof(err)) ||
	    add_sha(fp, "tradelog_sha256", trades, err, sizeof(err)) ||
	    add_sha(fp, "data_sha256", data, err, sizeof(err)) ||
	    add_sha(fp, "config_sha256", config, err, sizeof(err))) {
		sa_json_fail(fp, err);
		return fp;
	}
	cJSON_AddBoolToObject(fp, "data_synthetic",
			      is_synthetic(synthetic,
					   cJSON_GetObjectItemCaseSensitive(fp, "data_sha256")->valuestring));
	cJSON_AddStringToObject(fp, "tool_version", SA_VERSION);
	if (!(cfg = sa_json_read(config, SA_JSON_CAP, err, sizeof(err))) ||
	    da_ohlcv_load_config(data, cfg, &s, err, sizeof(err))) {
		sa_json_fail(fp, err);
		goto out;
	}
	cJSON_AddNumberToObject(fp, "data_bars", (double)s.n);
	cJSON_AddStringToObject(fp, "data_first", sa_time_format(s.t[0], t));
	cJSON_AddStringToObject(fp, "data_last", sa_time_format(s.t[s.n - 1], t));
	add_data_format(fp, &s, cfg);
	da_ohlcv_release(&s);
	cJSON_AddBoolToObject(fp, "ok", 1);
out:
	cJSON_Delete(cfg);
	return fp;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "strategy", required_argument, NULL, 's' },
		{ "trades", required_argument, NULL, 't' },
		{ "data", required_argument, NULL, 'd' },
		{ "config", required_argument, NULL, 'c' },
		{ "synthetic", required_argument, NULL, 'y' },
		{ "name", required_argument, NULL, 'n' },
		{ "given", required_argument, NULL, 'g' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *strategy = NULL, *trades = NULL, *data = NULL, *config = NULL, *out = NULL,
		   *synthetic = NULL, *name = NULL;
	char *given[8];
	int n_given = 0;
	char err[1024];
	cJSON *fp;
	int o, rc;

	sa_set_prog("fingerprint");
	while ((o = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (o) {
		case 's': strategy = optarg; break;
		case 't': trades = optarg; break;
		case 'd': data = optarg; break;
		case 'c': config = optarg; break;
		case 'y': synthetic = optarg; break;
		case 'n': name = optarg; break;
		case 'g':
			if (n_given == (int)(sizeof given / sizeof given[0]) || !strchr(optarg, '='))
				sa_usage_die("--given takes KIND=PATH, at most 8 times");
			given[n_given++] = optarg;
			break;
		case 'o': out = optarg; break;
		case 'h': fputs(usage, stdout); return SA_EXIT_OK;
		default: sa_usage_die("bad option");
		}
	}
	if (!data || !config || !out)
		sa_usage_die("--data, --config and -o are required");
	fp = fingerprint_build(strategy, trades, data, config, synthetic);
	add_uploads(fp, name, given, n_given);
	if (!cJSON_AddItemToObject(fp, "libraries", fp_libraries()))
		cJSON_AddNullToObject(fp, "libraries");
	rc = sa_json_write(out, fp, err, sizeof err);
	cJSON_Delete(fp);
	if (rc)
		sa_die("%s", err);
	return SA_EXIT_OK;
}
