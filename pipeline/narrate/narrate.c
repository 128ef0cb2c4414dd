/* narrate.c - the narration stage: an OpenAI-compatible chat endpoint rewords the verdict's
 * summary into narration.json, beside the bundle. verdict.json and every hashed file are made
 * without it, so the network never touches what the audit decided. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "config.h"
#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "narrate_llm.h"
#include "stagefile.h"

#define TEXT_MAX 4096

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: narrate --dir out/NAME -o narration.json\n"
		"\n"
		"With narration.url in config.json (NARRATE_URL) and LLM_API_KEY in the environment,\n"
		"asks an OpenAI-compatible chat endpoint (model narration.model, NARRATE_MODEL) to\n"
		"reword verdict.json's summary from its numbers (the verdict, the gates, the vetoes,\n"
		"the summary; never the upload), and writes narration.json: \"text\", a language\n"
		"model's wording, labelled as such, beside the verdict it rewords. An answer that does\n"
		"not name the verdict as decided, holds markup or is of another length is refused.\n"
		"Without an endpoint or a key, or on any failure, narration.json says \"ok\": false and\n"
		"why. verdict.json is never changed: narration.json lies beside the bundle, unhashed.\n"
		"\n"
		"exit codes: 0 written, 2 usage, 3 could not write\n");
}

/* The numbers the narrator may see, from verdict.json through the table: the decision, the
 * gates, the vetoes and the summary from the numbers. NULL (why in err) when it cannot be read. */
static cJSON *facts_of(struct sa_sf *v, char *err, size_t errlen)
{
	static const enum sa_field_id rows[] = {
		SA_FD_VD_VERDICT, SA_FD_VD_GATE_VERDICT, SA_FD_VD_GATES, SA_FD_VD_VETOES,
		SA_FD_VD_BLOCKED, SA_FD_VD_MISMATCHES, SA_FD_VD_TRADES, SA_FD_VD_TRIALS,
		SA_FD_VD_SUMMARY,
	};
	cJSON *facts = cJSON_CreateObject();

	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const cJSON *it = NULL;

		if (sa_sf_item(v, NULL, rows[i], &it) == 1)
			cJSON_AddItemToObject(facts, sa_fields[rows[i]].key, cJSON_Duplicate(it, true));
	}
	if (!v->ok || v->broken[0]) {
		sa_fmt(err, errlen, "verdict.json cannot be narrated: %s", v->broken[0] ? v->broken : v->status);
		cJSON_Delete(facts);
		return NULL;
	}
	return facts;
}

/* Asks for the narration; fills text, or says why not in err. */
static int narrate(const char *dir, struct sa_sf *v, char *text, size_t len, char *err,
		   size_t errlen)
{
	char path[4096];
	struct nr_llm llm;
	cJSON *config, *facts;
	int rc = -1;

	snprintf(path, sizeof path, "%s/config.json", dir);
	config = sa_json_read(path, SA_JSON_CAP, err, errlen);
	facts = facts_of(v, err, errlen);
	if (!config || !facts)
		goto out;
	if (nr_llm_from_config(config, &llm) < 0) {
		sa_fmt(err, errlen, "narration is off: it needs NARRATE_URL and LLM_API_KEY");
		goto out;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	rc = nr_llm_narrate(&llm, facts, sa_sf_str_or(v, NULL, SA_FD_VD_VERDICT, ""), text, len);
	curl_global_cleanup();
	if (rc < 0)
		sa_fmt(err, errlen, "the narrator gave no acceptable answer (the endpoint failed, or its "
		       "text did not name the verdict, held markup or was of another length)");
out:
	cJSON_Delete(facts);
	cJSON_Delete(config);
	return rc;
}

static int write_narration(const char *dir, const char *out, char *err, size_t errlen)
{
	static char text[TEXT_MAX];
	char why[512] = "";
	struct sa_sf v;
	cJSON *o = sa_sf_new(SA_SF_NARRATION);
	int rc;

	sa_sf_open(&v, dir, SA_SF_VERDICT);
	if (narrate(dir, &v, text, sizeof text, why, sizeof why) == 0) {
		cJSON_AddBoolToObject(o, "ok", true);
		cJSON_AddStringToObject(o, "verdict", sa_sf_str_or(&v, NULL, SA_FD_VD_VERDICT, ""));
		cJSON_AddStringToObject(o, "source", "narration");
		cJSON_AddStringToObject(o, "text", text);
	} else {
		sa_json_fail(o, why);
	}
	sa_sf_close(&v);
	rc = sa_json_write(out, o, err, errlen);
	cJSON_Delete(o);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *out = NULL;
	char err[1024];
	int c;

	sa_set_prog("narrate");
	while ((c = getopt_long(argc, argv, "d:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'o': out = optarg; break;
		case 'h': usage(stdout); return SA_EXIT_OK;
		default: usage(stderr); return SA_EXIT_USAGE;
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (!dir || !out)
		sa_usage_die("give --dir and -o");
	if (write_narration(dir, out, err, sizeof err) < 0)
		sa_die("%s", err);
	return SA_EXIT_OK;
}
