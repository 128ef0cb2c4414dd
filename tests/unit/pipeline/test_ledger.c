/* test_ledger.c - the trial ledger's lineage rule on a real SQLite file: the same version under
 * another name, a retune of the same file, a renamed copy with new constants, an unrelated
 * strategy, each version's declared variants, and a damaged history refused. The sealed sets'
 * budgets and keys in the same history, and the reusable holdout's answers. The key read from
 * inspect.json and fingerprint.json through the stage-file table: a field missing or mistyped is
 * an error naming the file and the field, never a key made of defaults. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <math.h>

#include "ledger.h"
#include "sealed_budget.h"
#include "sealed_core.h"

static char dbpath[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(dbpath, sizeof dbpath, "/tmp/test_ledger.XXXXXX");
	fd = mkstemp(dbpath);
	if (fd < 0)
		return -1;
	close(fd);
	unlink(dbpath);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(dbpath);
	return 0;
}

static struct da_ledger_key key(char v, char s, long variants, const char *last)
{
	struct da_ledger_key k;

	memset(k.version, v, 64);
	k.version[64] = '\0';
	memset(k.structure, s, 64);
	k.structure[64] = '\0';
	k.variants = variants;
	snprintf(k.data_last, sizeof k.data_last, "%s", last);
	return k;
}

/* Records name with k on night and checks lineage, version, versions and trials. */
static void record(sqlite3 *db, const char *name, const char *night, struct da_ledger_key k,
		   const char *lineage, long version, long versions, long trials)
{
	struct da_ledger_view v;
	char err[512];

	assert_int_equal(da_ledger_record(db, name, night, &k, &v, err, sizeof err), 0);
	assert_string_equal(v.lineage, lineage);
	assert_int_equal(v.version, version);
	assert_int_equal(v.versions, versions);
	assert_int_equal(v.trials, trials);
}

static void test_lineages(void **state)
{
	sqlite3 *db = NULL, *ro = NULL;
	struct da_ledger_view v;
	struct da_ledger_key k;
	char err[1024];

	(void)state;
	assert_int_equal(da_ledger_open(dbpath, false, &ro, err, sizeof err), 0);
	assert_null(ro);  /* no history yet: nothing to read, nothing created */
	assert_int_equal(access(dbpath, F_OK), -1);
	assert_int_equal(da_ledger_open(dbpath, true, &db, err, sizeof err), 0);
	/* night 1: two strategies of different structure, two lineages */
	record(db, "trend", "2099-03-01", key('a', 'A', 0, "2024-01-10T00:00:00Z"), "trend", 1, 1, 1);
	record(db, "other", "2099-03-01", key('o', 'O', 0, "2024-01-10T00:00:00Z"), "other", 1, 1, 1);
	/* night 2: trend retuned (new constants), and a renamed copy with constants of its own
	 * declaring 3 variants: both versions of trend's lineage */
	record(db, "trend", "2099-03-02", key('b', 'A', 0, "2024-01-11T00:00:00Z"), "trend", 2, 2, 2);
	record(db, "trend_copy", "2099-03-02", key('c', 'A', 3, "2024-01-11T00:00:00Z"), "trend", 3, 3, 5);
	/* night 3: a comment-only edit is the same version; so is the same code under a new name */
	record(db, "trend", "2099-03-03", key('b', 'A', 0, "2024-01-12T00:00:00Z"), "trend", 2, 3, 5);
	record(db, "trend_again", "2099-03-03", key('c', 'A', 3, "2024-01-12T00:00:00Z"), "trend", 3, 3, 5);
	/* the same file with a different structure continues its lineage */
	record(db, "other", "2099-03-03", key('p', 'P', 0, "2024-01-12T00:00:00Z"), "other", 2, 2, 2);
	/* a new file of a new structure starts one, first seen on its night */
	record(db, "fresh", "2099-03-03", key('f', 'F', 0, "2024-01-12T00:00:00Z"), "fresh", 1, 1, 1);
	sqlite3_close(db);

	/* read-only views: a known version keeps its first audit's last bar as since */
	assert_int_equal(da_ledger_open(dbpath, false, &ro, err, sizeof err), 0);
	assert_non_null(ro);
	k = key('b', 'A', 0, "2024-02-01T00:00:00Z");
	assert_int_equal(da_ledger_view(ro, "trend", &k, "2099-03-04", &v, err, sizeof err), 0);
	assert_true(v.known);
	assert_string_equal(v.since, "2024-01-11T00:00:00Z");
	assert_string_equal(v.first_seen, "2099-03-01");
	assert_int_equal(v.versions, 3);
	/* a version not yet recorded is counted as the next one, with no since */
	k = key('d', 'A', 0, "2024-02-01T00:00:00Z");
	assert_int_equal(da_ledger_view(ro, "elsewhere", &k, "2099-03-04", &v, err, sizeof err), 0);
	assert_false(v.known);
	assert_string_equal(v.lineage, "trend");
	assert_int_equal(v.version, 4);
	assert_int_equal(v.trials, 6);
	assert_string_equal(v.since, "");
	sqlite3_close(ro);
}

static void test_damaged(void **state)
{
	sqlite3 *db = NULL;
	char err[1024];
	FILE *fp = fopen(dbpath, "wb");

	(void)state;
	assert_non_null(fp);
	fputs("this is not a database, but it is someone's history file\n", fp);
	fclose(fp);
	assert_int_equal(da_ledger_open(dbpath, true, &db, err, sizeof err), -1);
	assert_null(db);
	assert_non_null(strstr(err, dbpath));
	assert_non_null(strstr(err, "damaged"));
	assert_non_null(strstr(err, "move it aside"));
	assert_int_equal(da_ledger_open(dbpath, false, &db, err, sizeof err), -1);
	/* never recreated: the file is as it was */
	fp = fopen(dbpath, "rb");
	assert_non_null(fp);
	assert_int_equal(fgetc(fp), 't');
	fclose(fp);
}

static struct sl_audit sealed_audit(char set, char id, char lineage)
{
	struct sl_audit a;

	memset(a.set, set, 64);
	a.set[64] = '\0';
	memset(a.id, id, 64);
	a.id[64] = '\0';
	memset(a.lineage, lineage, 64);
	a.lineage[64] = '\0';
	return a;
}

/* Takes a's place with budget and checks used, lineage_used and spent. */
static void take(sqlite3 *db, char set, char id, char lineage, long budget, long used,
		 long lineage_used, bool spent, struct sl_budget *b)
{
	struct sl_audit a = sealed_audit(set, id, lineage);
	char err[512];

	assert_int_equal(sl_budget_take(db, &a, budget, b, err, sizeof err), 0);
	assert_int_equal(b->used, used);
	assert_int_equal(b->lineage_used, lineage_used);
	assert_int_equal(b->spent, spent);
}

static void test_sealed_budget(void **state)
{
	sqlite3 *db = NULL, *again = NULL;
	struct sl_budget b1, b, other;
	struct sl_audit a1 = sealed_audit('S', '1', 'L'), a2 = sealed_audit('S', '2', 'L');
	struct sl_draws d1, d1b, d2;
	struct sbx_rule_count rules[1] = { { .rule = "writes stay in scratch", .count = 7 } };
	char err[512];
	sqlite3_stmt *st;

	(void)state;
	assert_int_equal(sl_budget_open(dbpath, &db, err, sizeof err), 0);
	take(db, 'S', '1', 'L', 2, 1, 1, false, &b1);
	take(db, 'S', '1', 'L', 2, 1, 1, false, &b);           /* the same audit keeps its place */
	assert_memory_equal(b.key, b1.key, SL_KEY_BYTES);
	take(db, 'S', '2', 'L', 2, 2, 2, false, &b);           /* a retune: the lineage's second */
	take(db, 'S', '3', 'M', 2, 2, 0, true, &b);            /* past the budget: spent, not placed */
	take(db, 'S', '3', 'M', 2, 2, 0, true, &b);            /* and stays spent */
	take(db, 'S', '1', 'L', 2, 1, 1, false, &b);           /* an earlier audit keeps its answer */
	take(db, 'T', '3', 'M', 2, 1, 1, false, &other);       /* another set: its own count and key */
	assert_memory_not_equal(other.key, b1.key, SL_KEY_BYTES);
	/* the key outlives the process: a reopened history gives the same noise */
	sqlite3_close(db);
	assert_int_equal(sl_budget_open(dbpath, &again, err, sizeof err), 0);
	take(again, 'S', '1', 'L', 2, 1, 1, false, &b);
	assert_memory_equal(b.key, b1.key, SL_KEY_BYTES);
	assert_int_equal(sl_budget_draws(&b1, &a1, &d1), 0);
	assert_int_equal(sl_budget_draws(&b, &a1, &d1b), 0);
	assert_int_equal(sl_budget_draws(&b1, &a2, &d2), 0);
	assert_memory_equal(&d1, &d1b, sizeof d1);
	assert_true(d1.gamma != d2.gamma && d1.eta != d2.eta && d1.xi != d2.xi);
	assert_true(d1.gamma > 0 && d1.gamma < 1 && d1.eta > 0 && d1.eta < 1 && d1.xi > 0 && d1.xi < 1);
	/* the outcome and the refusals counted per rule, for the operator */
	assert_int_equal(sl_budget_record(again, &a1, SL_REFUSED, rules, 1, err, sizeof err), 0);
	assert_int_equal(sqlite3_prepare_v2(again, "SELECT a.outcome, r.rule, r.count FROM sealed_audits a "
		"JOIN sealed_refusals r USING (set_sha256, audit)", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_string_equal((const char *)sqlite3_column_text(st, 0), "refused");
	assert_string_equal((const char *)sqlite3_column_text(st, 1), "writes stay in scratch");
	assert_int_equal(sqlite3_column_int(st, 2), 7);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(again);
}

/* A sealed run kept in the history: its signals back as they were put, a run made again
 * replacing its row, a failed run without signals, an unknown key not found; the run key follows
 * the knobs the run reads, never a cost. */
static void test_sealed_runs(void **state)
{
	sqlite3 *db = NULL;
	const int8_t sig[5] = { 0, 1, 1, -1, 0 }, again[5] = { 1, 1, 0, 0, -1 };
	struct sbx_rule_count rules[1] = { { .rule = "writes stay in scratch", .count = 3 } };
	char err[512], status[16], k1[65], k2[65], k3[65];
	int8_t *got = NULL;
	size_t n = 0;
	cJSON *cfg = cJSON_Parse("{\"costs\": {\"fee_bps\": 10}, \"budget\": {\"audit_s\": 600}}");
	const char *up = __FILE__;

	(void)state;
	assert_int_equal(sl_budget_open(dbpath, &db, err, sizeof err), 0);
	assert_int_equal(sl_runs_put(db, "S", "R", "ran", sig, 5, NULL, 0, err, sizeof err), 0);
	assert_int_equal(sl_runs_get(db, "S", "R", status, &got, &n, err, sizeof err), 1);
	assert_string_equal(status, "ran");
	assert_int_equal(n, 5);
	assert_memory_equal(got, sig, 5);
	free(got);
	assert_int_equal(sl_runs_put(db, "S", "R", "ran", again, 5, NULL, 0, err, sizeof err), 0);
	assert_int_equal(sl_runs_get(db, "S", "R", status, &got, &n, err, sizeof err), 1);
	assert_memory_equal(got, again, 5);
	free(got);
	assert_int_equal(sl_runs_put(db, "S", "F", "refused", NULL, 5, rules, 1, err, sizeof err), 0);
	assert_int_equal(sl_runs_get(db, "S", "F", status, &got, &n, err, sizeof err), 1);
	assert_string_equal(status, "refused");
	assert_null(got);
	assert_int_equal(n, 0);
	assert_int_equal(sl_runs_get(db, "T", "R", status, &got, &n, err, sizeof err), 0);
	assert_int_equal(sl_runs_get(db, "S", "X", status, &got, &n, err, sizeof err), 0);
	/* a cost is the scoring's knob: the same run; the time budget is the run's: another */
	assert_int_equal(sl_run_key(up, cfg, k1, err, sizeof err), 0);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cfg, "costs"), "fee_bps", cJSON_CreateNumber(25));
	assert_int_equal(sl_run_key(up, cfg, k2, err, sizeof err), 0);
	cJSON_ReplaceItemInObject(cJSON_GetObjectItem(cfg, "budget"), "audit_s", cJSON_CreateNumber(601));
	assert_int_equal(sl_run_key(up, cfg, k3, err, sizeof err), 0);
	assert_string_equal(k1, k2);
	assert_string_not_equal(k1, k3);
	cJSON_Delete(cfg);
	sqlite3_close(db);
}

/* Every draw on a grid of uniforms gives the outcome want for the query q. */
static void always(double q, bool open_holds, enum sl_outcome want)
{
	static const double u[] = { 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99 };

	for (size_t i = 0; i < 7; i++)
		for (size_t j = 0; j < 7; j++)
			for (size_t k = 0; k < 7; k++) {
				struct sl_draws d = { u[i], u[j], u[k] };

				assert_int_equal(sl_release(q, open_holds, &d), want);
			}
}

static void test_sealed_holdout(void **state)
{
	struct sl_score none = { .bars = 100 }, sc = { .bars = 100, .trades = 10, .net_return = 0.05,
						      .mean_net = 0.002, .edge_holds = true };
	struct sl_draws mid = { 0.5, 0.5, 0.5 };

	(void)state;
	/* the query: the sealed edge in units of the open one, -1 where it does not hold */
	assert_true(sl_query(&none, 0.001) == -1);
	assert_true(fabs(sl_query(&sc, 0.001) - 2) < 1e-12);
	assert_true(sl_query(&sc, 0.0001) == 3);                          /* clamped */
	assert_true(fabs(sl_query(&sc, -0.01) - 0.002 / SL_FLOOR) > 0);  /* no open edge: the floor's unit */
	assert_true(sl_query(&sc, -0.01) == 3);
	/* no edge on the sealed bars fails, whatever the noise; an edge like the open one holds as
	 * the open one, whatever the noise */
	always(-1, true, SL_FAILS);
	always(1, true, SL_AS_OPEN);
	always(-1, false, SL_FAILS);
	/* within the threshold the open answer is told, not the sealed value */
	assert_int_equal(sl_release(1.3, true, &mid), SL_AS_OPEN);
	assert_int_equal(sl_release(0.7, true, &mid), SL_AS_OPEN);
	/* beyond it, the sealed value's bucket */
	assert_int_equal(sl_release(0.3, true, &mid), SL_WEAKER);
	assert_int_equal(sl_release(2.5, true, &mid), SL_STRONGER);
	assert_int_equal(sl_release(-0.2, true, &mid), SL_FAILS);
	/* the bound: seven outcomes a run can steer */
	assert_true(fabs(sl_bound_bits() - log2(7)) < 1e-12);
	assert_string_equal(sl_outcome_name(SL_AS_OPEN), "as_open");
	assert_true(sl_outcome_holds(SL_WEAKER) && !sl_outcome_holds(SL_SPENT) && !sl_outcome_holds(SL_REFUSED));
}

/* key_of(inspect, fingerprint): da_ledger_key_read over two texts held to the table. */
static int key_of(const char *inspect, const char *fingerprint, struct da_ledger_key *k, char *err,
		  size_t errlen)
{
	cJSON *in = cJSON_Parse(inspect), *fp = cJSON_Parse(fingerprint);
	struct sa_sf fin, ffp;
	int rc;

	assert_non_null(in);
	assert_non_null(fp);
	sa_sf_view(&fin, in, SA_SF_INSPECT);
	sa_sf_view(&ffp, fp, SA_SF_FINGERPRINT);
	rc = da_ledger_key_read(&fin, &ffp, k, err, errlen);
	sa_sf_close(&fin);
	sa_sf_close(&ffp);
	cJSON_Delete(in);
	cJSON_Delete(fp);
	return rc;
}

#define INSPECT_HEAD "{\"stage\": \"inspect\", \"schema\": 1, \"ok\": true, \"strategy\": {"
#define FP_OK "{\"stage\": \"fingerprint\", \"schema\": 1, \"ok\": true, " \
	"\"data_last\": \"2099-03-01T00:00:00Z\"}"

static void test_key_through_table(void **state)
{
	struct da_ledger_key k;
	char err[600];

	(void)state;
	assert_int_equal(key_of(INSPECT_HEAD "\"normalised\": {\"version_sha256\": \"v1\", "
				"\"structure_sha256\": \"s1\"}, \"variants\": {\"declared\": true, "
				"\"count\": 4}}}", FP_OK, &k, err, sizeof err), 0);
	assert_string_equal(k.version, "v1");
	assert_string_equal(k.structure, "s1");
	assert_string_equal(k.data_last, "2099-03-01T00:00:00Z");
	assert_int_equal(k.variants, 4);
	/* a hash missing: named, not an empty key that would count as a version of its own */
	assert_int_equal(key_of(INSPECT_HEAD "\"normalised\": {\"version_sha256\": \"v1\"}}}",
				FP_OK, &k, err, sizeof err), -1);
	assert_non_null(strstr(err, "inspect.json: the field \"strategy.normalised.structure_sha256\" "
				   "is missing"));
	/* the variants' count mistyped: named, not read as no variants */
	assert_int_equal(key_of(INSPECT_HEAD "\"normalised\": {\"version_sha256\": \"v1\", "
				"\"structure_sha256\": \"s1\"}, \"variants\": {\"declared\": true, "
				"\"count\": \"4\"}}}", FP_OK, &k, err, sizeof err), -1);
	assert_non_null(strstr(err, "inspect.json: the field \"strategy.variants.count\" is not a number"));
	/* the data's last bar a number: fingerprint.json named */
	assert_int_equal(key_of(INSPECT_HEAD "\"normalised\": {\"version_sha256\": \"v1\", "
				"\"structure_sha256\": \"s1\"}}}",
				"{\"stage\": \"fingerprint\", \"schema\": 1, \"ok\": true, \"data_last\": 5}",
				&k, err, sizeof err), -1);
	assert_non_null(strstr(err, "fingerprint.json: the field \"data_last\" is not a string"));
	/* no parsed code (normalised null): the ledger does not apply, as before */
	assert_int_equal(key_of(INSPECT_HEAD "\"normalised\": null}}", FP_OK, &k, err, sizeof err), -1);
	assert_non_null(strstr(err, "no strategy code was parsed"));
	/* a file of another stage is not read at all */
	assert_int_equal(key_of("{\"stage\": \"stats\", \"schema\": 1, \"ok\": true}", FP_OK, &k,
				err, sizeof err), -1);
	assert_non_null(strstr(err, "inspect.json: the field \"stage\" is not \"inspect\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lineages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sealed_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sealed_runs, setup, teardown),
		cmocka_unit_test(test_sealed_holdout),
		cmocka_unit_test(test_key_through_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
