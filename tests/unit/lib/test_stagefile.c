/* test_stagefile.c - the stage-file table (stagefile): its rows, and reads that hold a present
 * file to it, on real files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "fileio.h"
#include "stagefile.h"

/* Writes text to a fresh directory's name; returns the directory (static). */
static const char *stage_dir(const char *name, const char *text)
{
	static char dir[64];
	char path[128], err[256];

	strcpy(dir, "/tmp/sa-test-sf-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/%s", dir, name);
	assert_int_equal(sa_write_file(path, text, strlen(text), err, sizeof err), 0);
	return dir;
}

static void stage_dir_rm(const char *dir, const char *name)
{
	char path[128];

	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	rmdir(dir);
}

/* The stage-file table: each row's file is a row of the files' table, no key twice in a file,
 * and the reads hold a present file to it: a field missing or mistyped is an error naming the
 * file and the field (never the default), null where a row allows it and a row that may be
 * absent are not, and a failed or missing file holds nothing to check. */
static void test_stage_file_table(void **state)
{
	struct sa_sf f;
	const char *dir, *str = "unset";
	const cJSON *o = NULL;
	double x = 42;
	bool b = true;

	(void)state;
	for (size_t i = 0; i < SA_FD_COUNT; i++) {
		assert_true((unsigned)sa_fields[i].file < SA_SF_COUNT);
		assert_true(sa_fields[i].help[0] != '\0');
		for (size_t j = 0; j < i; j++)
			assert_false(sa_fields[i].file == sa_fields[j].file &&
				     !strcmp(sa_fields[i].key, sa_fields[j].key));
	}
	for (size_t i = 0; i < SA_SF_COUNT; i++)
		assert_true(sa_sfiles[i].schema >= 1 && sa_sfiles[i].readers[0] != '\0');

	dir = stage_dir("stats.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true,\"trades\":\"12\","
			"\"psr\":null,\"ruin_time\":null,\"pbo\":null,\"concentration\":{}}");
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_PSR, &x), 0);       /* null: unknown */
	assert_true(x == 42);
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_PBO_VALUE, &x), 0); /* under a null object */
	assert_int_equal(sa_sf_obj(&f, NULL, SA_FD_ST_TAIL, &o), 0);     /* may be absent */
	assert_null(o);
	assert_string_equal(f.broken, "");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRIALS, &x), -1);
	assert_true(x == 42);
	assert_string_equal(f.broken, "stats.json: the field \"trials\" is missing");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRADES, &x), -1);    /* the first break stays */
	assert_string_equal(f.broken, "stats.json: the field \"trials\" is missing");
	sa_sf_close(&f);
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_TRADES, &x), -1);
	assert_string_equal(f.broken, "stats.json: the field \"trades\" is not a number");
	sa_sf_close(&f);
	assert_true(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_ST_CONC_WITHOUT, &x), -1);
	assert_string_equal(f.broken, "stats.json: the field \"concentration.mean_net_return_without\" is missing");
	sa_sf_close(&f);
	stage_dir_rm(dir, "stats.json");

	/* another schema, another writer: the file is refused whole */
	dir = stage_dir("stats.json", "{\"stage\":\"stats\",\"schema\":2,\"ok\":true,\"trials\":3}");
	assert_false(sa_sf_open(&f, dir, SA_SF_STATS));
	assert_string_equal(f.status, "stats.json: schema 2, where this reader knows schema 1");
	sa_sf_close(&f);
	stage_dir_rm(dir, "stats.json");
	dir = stage_dir("run.json", "{\"stage\":\"stats\",\"schema\":1,\"ok\":true}");
	assert_false(sa_sf_open(&f, dir, SA_SF_RUN));
	assert_string_equal(f.broken, "run.json: the field \"stage\" is not \"sandbox\"");
	sa_sf_close(&f);
	stage_dir_rm(dir, "run.json");

	/* a failed stage says why, and only what it holds is checked */
	dir = stage_dir("run.json", "{\"stage\":\"sandbox\",\"schema\":1,\"ok\":false,\"reason\":\"killed\","
			"\"status\":\"killed_wall_clock\",\"refusals\":[{\"rule\":7}]}");
	assert_false(sa_sf_open(&f, dir, SA_SF_RUN));
	assert_true(sa_sf_present(&f));
	assert_string_equal(f.status, "killed");
	assert_int_equal(sa_sf_str(&f, NULL, SA_FD_RUN_STATUS, &str), 1);
	assert_string_equal(str, "killed_wall_clock");
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_RUN_BLOCKED, &x), 0);
	assert_int_equal(sa_sf_str(&f, cJSON_GetArrayItem(cJSON_GetObjectItem(f.root, "refusals"), 0),
				   SA_FD_RUN_REFUSALS_RULE, &str), -1);
	assert_string_equal(f.broken, "run.json: the field \"refusals[].rule\" is not a string");
	sa_sf_close(&f);
	stage_dir_rm(dir, "run.json");

	/* a missing file: nothing read, nothing broken */
	assert_false(sa_sf_open(&f, "/nonexistent", SA_SF_VARIANTS));
	assert_false(sa_sf_present(&f));
	assert_int_equal(sa_sf_bool(&f, NULL, SA_FD_VR_COMPLETE, &b), 0);
	assert_true(b);
	assert_string_equal(f.broken, "");
	sa_sf_close(&f);
	/* a row read as another type is the reader's error, named */
	dir = stage_dir("variants.json", "{\"stage\":\"variants\",\"schema\":1,\"ok\":true,\"complete\":true}");
	assert_true(sa_sf_open(&f, dir, SA_SF_VARIANTS));
	assert_int_equal(sa_sf_num(&f, NULL, SA_FD_VR_COMPLETE, &x), -1);
	assert_non_null(strstr(f.broken, "read as a number, where the table says a boolean"));
	sa_sf_close(&f);
	stage_dir_rm(dir, "variants.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stage_file_table),
	};

	return cmocka_run_group_tests_name("stagefile", tests, NULL, NULL);
}
