/* verdict.c - the verdict stage: the readiness gates (enum vd_gate), two vetoes and a plain-English summary, into verdict.json. */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "stagefile.h"
#include "verdict_io.h"
#include "verdict_rules.h"
#include "verdict_sealed.h"
#include "verdict_text.h"

#define SUMMARY_MAX 4096

static void usage(FILE *fp)
{
	fprintf(fp,
		"usage: verdict --dir out/NAME [--sealed sealed.json] -o verdict.json\n"
		"       verdict --print verdict.json\n"
		"       verdict --fields\n"
		"\n"
		"Reads config.json, fingerprint.json, inspect.json, run.json, events.jsonl,\n"
		"lookahead.json, robustness.json, variants.json, replay.json and stats.json from the\n"
		"directory through the stage-file table (any may be missing or failed), scores the\n"
		"gates (%d; %d when the strategy declares VARIANTS), applies the unsafe and look-ahead\n"
		"vetoes and writes verdict.json. --print\n"
		"shows a written verdict for people. With --sealed (SEALED bars were given), the\n"
		"sealed gate counts: the net edge must hold on them too (a mean net return per trade\n"
		"and a total net return above 0), or the verdict cannot pass. When fingerprint.json\n"
		"says the data is the bundled synthetic series, the summary says a result on it\n"
		"demonstrates the method only.\n"
		"\n"
		"The summary is generated from the numbers alone: nothing here reaches the network (a\n"
		"language model's rewording, when asked for, is the narrate stage's narration.json).\n"
		"\n"
		"A stage file that is present but lacks a field the verdict reads, or holds it with\n"
		"another type, makes the verdict INCOMPLETE, naming the file and the field. --fields\n"
		"prints those fields, one a line: file, key, type, whether it may be absent (never,\n"
		"null, may), unit, meaning (the stage-file table, lib/base/stagefile.h).\n"
		"\n"
		"exit codes: 0 written (or printed), 2 usage, 3 could not write or read\n",
		VD_NGATES - 1, VD_NGATES);
}

/* Decides and writes verdict.json to out. Returns 0, or -1 with the reason in err. */
static int write_verdict(const char *dir, const char *sealed, const char *out, char *err,
			 size_t errlen)
{
	struct vd_facts f;
	struct vd_inputs in;
	struct vd_result r;
	struct vd_sealed sl = { 0 };
	static char summary[SUMMARY_MAX];
	cJSON *v;
	int rc;

	vd_load_dir(dir, &f, &in);
	if (sealed) {
		vd_sealed_load(sealed, &sl, &f.num);
		if (sl.broken[0] && !f.contract[0])
			snprintf(f.contract, sizeof f.contract, "%s", sl.broken);
	}
	vd_decide(&f.num, &f.th, &r);
	vd_summary(&f, &r, summary, sizeof summary);
	vd_sealed_say(&sl, &r, summary, sizeof summary);
	v = vd_to_json(&f, &r, &in, sealed ? &sl : NULL, summary, "numbers");
	rc = sa_json_write(out, v, err, errlen);
	cJSON_Delete(v);
	return rc;
}

/* The stage-file table's fields, one a line, tab-separated. */
static void print_fields(void)
{
	static const char *const absent[] = { [SA_FA_NEVER] = "never", [SA_FA_NULL] = "null",
					      [SA_FA_MAY] = "may" };

	for (size_t k = 0; k < SA_FD_COUNT; k++)
		printf("%s\t%s\t%s\t%s\t%s\t%s\n", sa_sfiles[sa_fields[k].file].name, sa_fields[k].key,
		       sa_ftype_name(sa_fields[k].type), absent[sa_fields[k].absent],
		       sa_fields[k].unit[0] ? sa_fields[k].unit : "-", sa_fields[k].help);
}

static int print_verdict(const char *path)
{
	struct sa_sf v;
	int rc = -1;

	sa_sf_open_path(&v, path, SA_SF_VERDICT);
	if (!sa_sf_present(&v))
		sa_error("%s", v.status);
	else if (vd_print(&v, stdout) < 0)
		sa_error("not a verdict file, '%s'%s%s", path, v.broken[0] ? ": " : "", v.broken);
	else
		rc = 0;
	sa_sf_close(&v);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "sealed", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "print", required_argument, NULL, 'p' },
		{ "fields", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *dir = NULL, *out = NULL, *print = NULL, *sealed = NULL;
	char err[1024];
	int c;

	sa_set_prog("verdict");
	while ((c = getopt_long(argc, argv, "d:o:s:h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 's': sealed = optarg; break;
		case 'o': out = optarg; break;
		case 'p': print = optarg; break;
		case 'f': print_fields(); return SA_EXIT_OK;
		case 'h': usage(stdout); return SA_EXIT_OK;
		default: usage(stderr); return SA_EXIT_USAGE;
		}
	}
	if (optind < argc)
		sa_usage_die("unexpected argument, '%s'", argv[optind]);
	if (print) {
		if (dir || out)
			sa_usage_die("--print takes no --dir or -o");
		return print_verdict(print) == 0 ? SA_EXIT_OK : SA_EXIT_BROKEN;
	}
	if (!dir || !out)
		sa_usage_die("give --dir and -o");
	if (write_verdict(dir, sealed, out, err, sizeof err) < 0)
		sa_die("%s", err);
	return SA_EXIT_OK;
}
