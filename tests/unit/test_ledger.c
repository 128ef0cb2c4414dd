/* test_ledger.c - the trial ledger's lineage rule on a real SQLite file: the same version under
 * another name, a retune of the same file, a renamed copy with new constants, an unrelated
 * strategy, each version's declared variants, and a damaged history refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ledger.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_lineages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_damaged, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
