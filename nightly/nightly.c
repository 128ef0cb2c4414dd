/* nightly.c - the steps of a night that need more than shell: the TRIALS header rule, the
 * skip-if-unchanged decision, per-strategy progress, and the index with its history. */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"
#include "jsonio.h"
#include "msg.h"
#include "nightly_decide.h"
#include "nightly_history.h"
#include "nightly_html.h"
#include "nightly_index.h"
#include "nightly_xlsx.h"

static const char usage_text[] =
	"usage: nightly trials FILE [--default N]\n"
	"       nightly data FILE [--default-data PATH]\n"
	"       nightly decide --db DB --name NAME --dir OUT [--strategy PY] [--trades CSV]\n"
	"                      --data CSV --config JSON --bin DIR -o WORK.json\n"
	"       nightly done --work WORK.json --rc N --dir OUT --total N\n"
	"       nightly index --db DB --night YYYY-MM-DD --night-dir DIR --out-root DIR\n"
	"                     --template HTML\n"
	"       nightly row --dir OUT [--name NAME]\n"
	"\n"
	"trials   prints N from a '# trials: N' line in FILE's header, else the default (1).\n"
	"data     prints PATH from a '# data: PATH' line in FILE's header (relative to FILE's\n"
	"         folder unless absolute), else the default; exit 1 when the line is unusable.\n"
	"decide   prints 'audit' or 'skip' and writes WORK.json: skip when the latest recorded\n"
	"         audit of NAME had the same code, trade log, data, config and tool, its results\n"
	"         are still in OUT, and the trial ledger places it as its ledger.json says.\n"
	"done     records the audit's exit status in WORK.json and prints one progress line\n"
	"         ('[done/total] name: VERDICT' on a terminal, a plain log line otherwise).\n"
	"index    reads DIR/work/*.json, copies each bundle to DIR/bundles and its report.html\n"
	"         with its charts to DIR/reports/NAME, records the night and each version's place\n"
	"         in the trial ledger in DB (one transaction) and writes DIR/index.json, index.txt,\n"
	"         index.html and index.xlsx, each row saying why.\n"
	"row      prints the row index.json would hold of the audit in OUT: its verdict and\n"
	"         figures, read through the stage-file table, a file breaking it named in the\n"
	"         row's note with the field.\n"
	"\n"
	"exit: 0 done (a strategy without a verdict is a row, not a failure); 1 an unusable\n"
	"      '# data:' line; 2 usage; 3 broken\n";

enum { OPT_DB = 256, OPT_NAME, OPT_DIR, OPT_STRATEGY, OPT_TRADES, OPT_DATA, OPT_CONFIG, OPT_BIN,
       OPT_WORK, OPT_RC, OPT_TOTAL, OPT_NIGHT, OPT_NIGHT_DIR, OPT_OUT_ROOT, OPT_TEMPLATE,
       OPT_DEFAULT, OPT_DEFAULT_DATA };

static const struct option long_opts[] = {
	{"db", required_argument, NULL, OPT_DB}, {"name", required_argument, NULL, OPT_NAME},
	{"dir", required_argument, NULL, OPT_DIR}, {"strategy", required_argument, NULL, OPT_STRATEGY},
	{"trades", required_argument, NULL, OPT_TRADES}, {"data", required_argument, NULL, OPT_DATA},
	{"config", required_argument, NULL, OPT_CONFIG}, {"bin", required_argument, NULL, OPT_BIN},
	{"work", required_argument, NULL, OPT_WORK}, {"rc", required_argument, NULL, OPT_RC},
	{"total", required_argument, NULL, OPT_TOTAL}, {"night", required_argument, NULL, OPT_NIGHT},
	{"night-dir", required_argument, NULL, OPT_NIGHT_DIR},
	{"out-root", required_argument, NULL, OPT_OUT_ROOT},
	{"template", required_argument, NULL, OPT_TEMPLATE},
	{"default", required_argument, NULL, OPT_DEFAULT},
	{"default-data", required_argument, NULL, OPT_DEFAULT_DATA},
	{"help", no_argument, NULL, 'h'}, {"output", required_argument, NULL, 'o'},
	{NULL, 0, NULL, 0},
};

struct args {
	const char *db, *name, *dir, *strategy, *trades, *data, *config, *bin, *work, *night,
		*night_dir, *out_root, *tpl, *out, *def_data;
	long rc, total, def;
};

static long parse_long(const char *s, const char *what)
{
	char *end = NULL;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v < 0)
		sa_usage_die("%s must be a whole number, '%s'", what, s);
	return v;
}

static void parse_args(int argc, char **argv, struct args *a)
{
	int c;

	a->def = 1;
	a->rc = -1;
	while ((c = getopt_long(argc, argv, "ho:", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_DB: a->db = optarg; break;
		case OPT_NAME: a->name = optarg; break;
		case OPT_DIR: a->dir = optarg; break;
		case OPT_STRATEGY: a->strategy = *optarg ? optarg : NULL; break;
		case OPT_TRADES: a->trades = *optarg ? optarg : NULL; break;
		case OPT_DATA: a->data = optarg; break;
		case OPT_CONFIG: a->config = optarg; break;
		case OPT_BIN: a->bin = optarg; break;
		case OPT_WORK: a->work = optarg; break;
		case OPT_RC: a->rc = parse_long(optarg, "--rc"); break;
		case OPT_TOTAL: a->total = parse_long(optarg, "--total"); break;
		case OPT_NIGHT: a->night = optarg; break;
		case OPT_NIGHT_DIR: a->night_dir = optarg; break;
		case OPT_OUT_ROOT: a->out_root = optarg; break;
		case OPT_TEMPLATE: a->tpl = optarg; break;
		case OPT_DEFAULT: a->def = parse_long(optarg, "--default"); break;
		case OPT_DEFAULT_DATA: a->def_data = optarg; break;
		case 'o': a->out = optarg; break;
		case 'h': fputs(usage_text, stdout); exit(SA_EXIT_OK);
		default: sa_usage_die("unknown option");
		}
	}
}

static void need(const char *v, const char *opt)
{
	if (!v)
		sa_usage_die("missing %s", opt);
}

/* A strategy name becomes a path component and a make variable: keep it to a safe alphabet. */
static int name_ok(const char *s)
{
	if (!*s || *s == '.' || strlen(s) > 100)
		return 0;
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") == strlen(s);
}

static int cmd_trials(int argc, char **argv, const struct args *a)
{
	char *buf = NULL;
	size_t len = 0;
	long n = a->def > 0 ? a->def : 1;
	enum sa_read_status st;

	if (optind + 1 >= argc)
		sa_usage_die("trials needs a FILE");
	st = sa_read_file(argv[optind + 1], SA_STRATEGY_CAP, &buf, &len);
	if (st == SA_READ_OK)
		nightly_trials_from_header(buf, len, &n);
	/* an unreadable upload is the audit's finding to report, not this step's */
	printf("%ld\n", n);
	free(buf);
	return SA_EXIT_OK;
}

static int cmd_data(int argc, char **argv, const struct args *a)
{
	char *buf = NULL, path[4096];
	size_t len = 0;
	int found = 0;

	if (optind + 1 >= argc)
		sa_usage_die("data needs a FILE");
	if (sa_read_file(argv[optind + 1], SA_STRATEGY_CAP, &buf, &len) == SA_READ_OK)
		found = nightly_data_from_header(buf, len, argv[optind + 1], path, sizeof path);
	free(buf);
	if (found < 0) {
		sa_error("'%s': its '# data:' line is no usable path (a control character, or too long)",
			 argv[optind + 1]);
		return 1;  /* the usage text's exit 1 */
	}
	printf("%s\n", found ? path : a->def_data ? a->def_data : "");
	return SA_EXIT_OK;
}

/* Whether OUT still holds complete results made from the key's code and data. */
static int results_present(const char *dir, const char *name, const struct nightly_key *k)
{
	char path[4096];

	sa_fmt(path, sizeof path, "%s/%s.zip", dir, name);
	if (access(path, R_OK) != 0)
		return 0;
	sa_fmt(path, sizeof path, "%s/verdict.json", dir);
	if (access(path, R_OK) != 0)
		return 0;
	return nightly_row_fingerprint_matches(dir, k);
}

static cJSON *key_json(const struct nightly_key *k)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "code_sha256", k->code);
	cJSON_AddStringToObject(o, "tradelog_sha256", k->tradelog);
	cJSON_AddStringToObject(o, "data_sha256", k->data);
	cJSON_AddStringToObject(o, "config_sha256", k->config);
	cJSON_AddStringToObject(o, "tool", k->tool);
	return o;
}

static int cmd_decide(const struct args *a)
{
	struct nightly_key k;
	char tool[96], err[1024];
	sqlite3 *db = NULL;
	bool seen = false, moved = false, data_ok;
	int skip, rc = SA_EXIT_BROKEN;
	cJSON *w = NULL;

	need(a->db, "--db"), need(a->name, "--name"), need(a->dir, "--dir"), need(a->data, "--data");
	need(a->config, "--config"), need(a->bin, "--bin"), need(a->out, "-o");
	if (!name_ok(a->name))
		sa_usage_die("a strategy name may hold only letters, digits, '.', '_' and '-', '%s'", a->name);
	/* a missing data file is the audit's to refuse, with its reason, and the night's row says so */
	data_ok = access(a->data, R_OK) == 0;
	if (nightly_tool_key(a->bin, SA_VERSION, tool) != 0 ||
	    nightly_key_compute(&k, a->strategy, a->trades, data_ok ? a->data : NULL, a->config, tool) != 0)
		goto out;
	db = nightly_history_open(a->db);
	if (!db || nightly_history_has_key(db, a->name, &k, &seen) != 0)
		goto out;
	skip = data_ok && seen && results_present(a->dir, a->name, &k);
	if (skip && nightly_history_ledger_moved(db, a->dir, a->name, &moved) != 0)
		goto out;
	skip = skip && !moved;
	w = sa_json_stage("nightly_plan", 1);
	cJSON_AddBoolToObject(w, "ok", 1);
	cJSON_AddStringToObject(w, "name", a->name);
	cJSON_AddStringToObject(w, "dir", a->dir);
	cJSON_AddItemToObject(w, "key", key_json(&k));
	cJSON_AddStringToObject(w, "data", a->data);
	cJSON_AddStringToObject(w, "action", skip ? "skip" : "audit");
	cJSON_AddStringToObject(w, "why", skip ? "code, trade log, data, config and tool are as last audited"
					       : moved ? "the trial ledger has moved since: its lineage has more versions"
					       : !data_ok ? "the data file cannot be read"
					       : seen ? "the earlier results are no longer in place"
						      : "first audit under this code, data, config and tool");
	if (sa_json_write(a->out, w, err, sizeof err) != 0) {
		sa_error("%s", err);
		goto out;
	}
	puts(skip ? "skip" : "audit");
	rc = SA_EXIT_OK;
out:
	cJSON_Delete(w);
	nightly_history_close(db);
	return rc;
}

/* Counts work files in the folder holding work that already carry an audit_rc. */
static long count_done(const char *work)
{
	char dirpath[4096], path[4200], err[256];
	const char *slash = strrchr(work, '/');
	DIR *d;
	struct dirent *e;
	long n = 0;

	sa_fmt(dirpath, sizeof dirpath, "%.*s", slash ? (int)(slash - work) : 1, slash ? work : ".");
	d = opendir(dirpath);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		cJSON *w;

		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		sa_fmt(path, sizeof path, "%s/%s", dirpath, e->d_name);
		w = sa_json_read(path, SA_JSON_CAP, err, sizeof err);
		n += cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(w, "audit_rc"));
		cJSON_Delete(w);
	}
	closedir(d);
	return n;
}

static int cmd_done(const struct args *a)
{
	char err[512];
	cJSON *w = NULL;
	struct nightly_row r;
	const char *action;
	int rc = SA_EXIT_BROKEN;

	need(a->work, "--work"), need(a->dir, "--dir");
	if (a->rc < 0)
		sa_usage_die("missing --rc");
	w = sa_json_read(a->work, SA_JSON_CAP, err, sizeof err);
	if (!w) {
		sa_error("%s", err);
		goto out;
	}
	cJSON_DeleteItemFromObjectCaseSensitive(w, "audit_rc");
	cJSON_AddNumberToObject(w, "audit_rc", (double)a->rc);
	if (sa_json_write(a->work, w, err, sizeof err) != 0) {
		sa_error("%s", err);
		goto out;
	}
	memset(&r, 0, sizeof r);
	nightly_row_load_results(&r, a->dir);
	if (a->rc != 0)
		snprintf(r.verdict, sizeof r.verdict, "FAILED");
	action = strcmp(sa_json_str(w, "action", ""), "skip") == 0 ? "reused" : "audited";
	if (isatty(STDOUT_FILENO))
		printf("[%ld/%ld] %s: %s (%s)\n", count_done(a->work), a->total, sa_json_str(w, "name", "?"),
		       r.verdict, action);
	else
		printf("nightly: %s %s %s\n", sa_json_str(w, "name", "?"), r.verdict, action);
	rc = SA_EXIT_OK;
out:
	cJSON_Delete(w);
	return rc;
}

/* Copies the audit's bundle into the night's folder, so the night keeps what it mailed even
 * after a later night re-audits the strategy. A bundle that is there but cannot be copied is
 * warned about. */
static void take_bundle(struct nightly_row *r, const char *dir, const char *night_dir)
{
	char src[4096], dst[4096], err[1024];
	bool taken;
	FILE *fp;

	sa_fmt(src, sizeof src, "%s/%s.zip", dir, r->name);
	sa_fmt(dst, sizeof dst, "%s/bundles/%s.zip", night_dir, r->name);
	taken = access(src, R_OK) == 0;
	if (taken && (sa_copy_file(src, dst, (size_t)1 << 31, err, sizeof err) != 0 ||
		      sa_sha256_file(dst, r->bundle_sha, err, sizeof err) != 0)) {
		sa_warn("%s: the night keeps no bundle of it: %s", r->name, err);
		taken = false;
	}
	if (!taken) {
		if (!r->note[0])
			sa_fmt(r->note, sizeof r->note, "no bundle");
		return;
	}
	fp = fopen(dst, "rb");
	if (fp && fseek(fp, 0, SEEK_END) == 0)
		r->bundle_size = ftell(fp);
	if (fp)
		fclose(fp);
	sa_fmt(r->bundle, sizeof r->bundle, "bundles/%s.zip", r->name);
}

/* Unpacks the page of the bundle into the night's folder, reports/NAME/: report.html and the
 * charts sha256sums.txt lists beside it, so the index links to a page that opens as it is. A
 * page that cannot be copied is warned about, and the index links to none. */
static void take_report(struct nightly_row *r, const char *dir, const char *night_dir)
{
	char src[4096], dst[4096], line[512], file[256], err[1024];
	FILE *sums;
	size_t cap = (size_t)64 << 20;
	bool ok;

	sa_fmt(dst, sizeof dst, "%s/reports/%s", night_dir, r->name);
	sa_fmt(src, sizeof src, "%s/sha256sums.txt", dir);
	if (!r->bundle[0])
		return;
	if (sa_mkdirs(dst, 0755, err, sizeof err) != 0) {
		sa_warn("%s: the index links to no page of it: %s", r->name, err);
		return;
	}
	if (!(sums = fopen(src, "r")))
		return;
	ok = true;
	while (ok && fgets(line, sizeof line, sums)) {
		/* "<64 hex>  name": only the page and its PNGs, plain names */
		if (sscanf(line, "%*64s %255s", file) != 1 || strchr(file, '/') ||
		    (strcmp(file, "report.html") && !(strlen(file) > 4 && !strcmp(file + strlen(file) - 4, ".png"))))
			continue;
		ok = sa_copy_file(sa_fmt(src, sizeof src, "%s/%s", dir, file),
				  sa_fmt(dst, sizeof dst, "%s/reports/%s/%s", night_dir, r->name, file), cap,
				  err, sizeof err) == 0;
	}
	fclose(sums);
	if (!ok)
		sa_warn("%s: the index links to no page of it: %s", r->name, err);
	sa_fmt(src, sizeof src, "%s/reports/%s/report.html", night_dir, r->name);
	if (ok && access(src, R_OK) == 0)
		sa_fmt(r->report, sizeof r->report, "reports/%s/report.html", r->name);
}

/* Builds one row from a work file. Returns 0, or -1 when the file is unusable. */
static int row_from_work(struct nightly_row *r, const char *path, const struct args *a)
{
	char err[512], dir[4096];
	cJSON *w = sa_json_read(path, SA_JSON_CAP, err, sizeof err), *k;
	double rc;
	int ret = -1;

	if (!w || !name_ok(sa_json_str(w, "name", ""))) {
		sa_warn("skipping a broken work file, '%s'", path);
		goto out;
	}
	snprintf(r->name, sizeof r->name, "%s", sa_json_str(w, "name", ""));
	k = cJSON_GetObjectItemCaseSensitive(w, "key");
	snprintf(r->key.code, sizeof r->key.code, "%s", sa_json_str(k, "code_sha256", ""));
	snprintf(r->key.tradelog, sizeof r->key.tradelog, "%s", sa_json_str(k, "tradelog_sha256", ""));
	snprintf(r->key.data, sizeof r->key.data, "%s", sa_json_str(k, "data_sha256", ""));
	snprintf(r->key.config, sizeof r->key.config, "%s", sa_json_str(k, "config_sha256", ""));
	snprintf(r->key.tool, sizeof r->key.tool, "%s", sa_json_str(k, "tool", ""));
	snprintf(r->data, sizeof r->data, "%s", sa_json_str(w, "data", ""));
	r->audited = strcmp(sa_json_str(w, "action", ""), "audit") == 0;
	rc = sa_json_num(w, "audit_rc", -1);
	r->audit_rc = (int)rc;
	sa_fmt(dir, sizeof dir, "%s/%s", a->out_root, r->name);
	nightly_row_load_results(r, dir);
	if (rc != 0) {
		snprintf(r->verdict, sizeof r->verdict, "FAILED");
		if (rc < 0)
			sa_fmt(r->note, sizeof r->note, "the audit did not finish");
		else if (r->data[0] && access(r->data, R_OK) != 0)
			sa_fmt(r->note, sizeof r->note, "no such data file, '%s'; see logs/%s.log", r->data, r->name);
		else
			sa_fmt(r->note, sizeof r->note, "the audit exited %d; see logs/%s.log", (int)rc, r->name);
	}
	/* a row without a verdict says why in the same place as every other row */
	if (!strcmp(r->verdict, "FAILED") && !r->reason[0])
		snprintf(r->reason, sizeof r->reason, "%s", r->note[0] ? r->note : "no verdict");
	take_bundle(r, dir, a->night_dir);
	take_report(r, dir, a->night_dir);
	ret = 0;
out:
	cJSON_Delete(w);
	return ret;
}

static int filter_json(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return e->d_name[0] != '.' && len > 5 && strcmp(e->d_name + len - 5, ".json") == 0;
}

/* Reads every work file into ix. Returns 0 or -1 with a message printed. */
static int load_rows(struct nightly_index *ix, const struct args *a)
{
	char dir[4096], path[4400];
	struct dirent **names = NULL;
	int n, rc = -1;

	sa_fmt(dir, sizeof dir, "%s/work", a->night_dir);
	n = scandir(dir, &names, filter_json, alphasort);
	if (n < 0) {
		/* an empty folder gives an empty night, not a failure */
		return 0;
	}
	for (int i = 0; i < n; i++) {
		struct nightly_row *r = nightly_index_add(ix);

		if (!r) {
			sa_error("out of memory");
			goto out;
		}
		sa_fmt(path, sizeof path, "%s/%s", dir, names[i]->d_name);
		if (row_from_work(r, path, a) != 0)
			ix->n--;
	}
	rc = 0;
out:
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* Compares with and records into the history, in one transaction. */
static int record_rows(struct nightly_index *ix, const char *night, const char *out_root, sqlite3 *db)
{
	char dir[4096];
	int rc = -1;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return sa_error("cannot lock the history: %s", sqlite3_errmsg(db));
	/* rows in name order, so two new versions of one lineage on one night number alike; the
	 * ledger first, so a change of code names the version it made */
	for (size_t i = 0; i < ix->n; i++)
		if (nightly_history_ledger(db, night, sa_fmt(dir, sizeof dir, "%s/%s", out_root, ix->rows[i].name),
					   &ix->rows[i]) != 0 ||
		    nightly_history_compare(db, night, &ix->rows[i]) != 0 ||
		    nightly_history_record(db, night, &ix->rows[i]) != 0)
			goto out;
	rc = 0;
out:
	if (sqlite3_exec(db, rc == 0 ? "COMMIT" : "ROLLBACK", NULL, NULL, NULL) != SQLITE_OK && rc == 0)
		rc = sa_error("cannot commit the history: %s", sqlite3_errmsg(db));
	return rc;
}

/* Writes index.json, index.txt, index.html and index.xlsx into the night's folder. */
static int write_index(const struct nightly_index *ix, const struct args *a)
{
	char path[4096], *tpl = NULL;
	size_t len = 0;
	enum sa_read_status st = sa_read_file(a->tpl, SA_UPLOAD_CAP, &tpl, &len);
	int rc = -1;

	if (st != SA_READ_OK) {
		sa_error("%s", sa_read_strerror(st, a->tpl, SA_UPLOAD_CAP, path, sizeof path));
		goto out;
	}
	if (nightly_index_write_json(ix, sa_fmt(path, sizeof path, "%s/index.json", a->night_dir)) ||
	    nightly_index_write_text(ix, sa_fmt(path, sizeof path, "%s/index.txt", a->night_dir)) ||
	    nightly_html_write(ix, tpl, len, sa_fmt(path, sizeof path, "%s/index.html", a->night_dir)) ||
	    nightly_xlsx_write(ix, sa_fmt(path, sizeof path, "%s/index.xlsx", a->night_dir)))
		goto out;
	rc = 0;
out:
	free(tpl);
	return rc;
}

static int cmd_index(const struct args *a)
{
	struct nightly_index ix = {0};
	char path[4096], summary[512], err[1024];
	sqlite3 *db = NULL;
	int rc = SA_EXIT_BROKEN;

	need(a->db, "--db"), need(a->night, "--night"), need(a->night_dir, "--night-dir");
	need(a->out_root, "--out-root"), need(a->tpl, "--template");
	snprintf(ix.night, sizeof ix.night, "%s", a->night);
	if (sa_mkdirs(sa_fmt(path, sizeof path, "%s/bundles", a->night_dir), 0755, err, sizeof err) != 0) {
		sa_error("%s", err);
		goto out;
	}
	if (load_rows(&ix, a) != 0)
		goto out;
	db = nightly_history_open(a->db);
	if (!db || record_rows(&ix, a->night, a->out_root, db) != 0)
		goto out;
	nightly_index_sort(&ix);
	if (write_index(&ix, a) != 0)
		goto out;
	printf("nightly: %s, index in '%s/index.html'\n", nightly_index_summary(&ix, summary, sizeof summary),
	       a->night_dir);
	rc = SA_EXIT_OK;
out:
	nightly_history_close(db);
	nightly_index_release(&ix);
	return rc;
}

/* One audit's row, printed as index.json would hold it. */
static int cmd_row(const struct args *a)
{
	struct nightly_index ix = {0};
	struct nightly_row *r;
	cJSON *o = NULL;
	char *text = NULL;
	int rc = SA_EXIT_BROKEN;

	need(a->dir, "--dir");
	if (!(r = nightly_index_add(&ix)))
		goto out;
	snprintf(r->name, sizeof r->name, "%s", a->name ? a->name : "");
	nightly_row_load_results(r, a->dir);
	if (!strcmp(r->verdict, "FAILED") && !r->reason[0])
		snprintf(r->reason, sizeof r->reason, "%s", r->note[0] ? r->note : "no verdict");
	if (!(o = nightly_row_json(r)) || !(text = cJSON_Print(o)))
		goto out;
	printf("%s\n", text);
	rc = SA_EXIT_OK;
out:
	if (rc != SA_EXIT_OK)
		sa_error("out of memory");
	free(text);
	cJSON_Delete(o);
	nightly_index_release(&ix);
	return rc;
}

int main(int argc, char **argv)
{
	struct args a = {0};
	const char *cmd;

	sa_set_prog("nightly");
	parse_args(argc, argv, &a);
	if (optind >= argc)
		sa_usage_die("give a step: trials, data, decide, done, index or row");
	cmd = argv[optind];
	if (strcmp(cmd, "trials") == 0)
		return cmd_trials(argc, argv, &a);
	if (strcmp(cmd, "data") == 0)
		return cmd_data(argc, argv, &a);
	if (strcmp(cmd, "decide") == 0)
		return cmd_decide(&a);
	if (strcmp(cmd, "done") == 0)
		return cmd_done(&a);
	if (strcmp(cmd, "index") == 0)
		return cmd_index(&a);
	if (strcmp(cmd, "row") == 0)
		return cmd_row(&a);
	sa_usage_die("unknown step '%s'", cmd);
}
