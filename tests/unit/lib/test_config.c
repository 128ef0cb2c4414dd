/* test_config.c - the knob table and its readers: every row well formed, "read by" naming only
 * stages, values read through a row checked against its range, defaults for what is absent. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "config.h"

static const char *const stages[] = { "fingerprint", "inspect", "ledger", "sandbox", "lookahead", "robust",
				      "robust_score", "sealed", "sealed_score", "variants", "variants_score",
				      "replay", "stats", "verdict", "narrate", "report" };

static int is_stage(const char *w, size_t n)
{
	for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++)
		if (strlen(stages[i]) == n && !strncmp(stages[i], w, n))
			return 1;
	return 0;
}

/* A config.json knob has a reader, each a stage; a make-only knob has none; every default
 * parses under its own row; no two rows share a make variable or a path. */
static void test_table_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < SA_K_COUNT; i++) {
		const struct sa_knob *r = &sa_knobs[i];
		const char *p = r->readers;
		double x;
		char err[256];

		assert_non_null(p);
		if (r->path)
			assert_true(*p != '\0');
		else
			assert_string_equal(p, "");
		while (*p) {
			size_t n = strcspn(p, " ");

			assert_true(is_stage(p, n));
			p += n;
			p += *p == ' ';
		}
		if (strcmp(r->def, "cores") != 0)
			assert_int_equal(sa_knob_parse((enum sa_knob_id)i, r->def, &x, err, sizeof err), 0);
		for (size_t j = i + 1; j < SA_K_COUNT; j++) {
			assert_string_not_equal(r->make, sa_knobs[j].make);
			if (r->path && sa_knobs[j].path)
				assert_string_not_equal(r->path, sa_knobs[j].path);
		}
		assert_ptr_equal(sa_knob_by_make(r->make), r);
	}
	assert_null(sa_knob_by_make("NOSUCH"));
}

/* The text of a knob on the command line: plain decimals in range only. */
static void test_knob_parse(void **state)
{
	static const struct { enum sa_knob_id k; const char *text; int rc; double want; } cases[] = {
		{ SA_K_TRIALS, "50", 0, 50 },       { SA_K_TRIALS, "0", -1, 0 },
		{ SA_K_TRIALS, "2.5", -1, 0 },      { SA_K_TRIALS, "0x10", -1, 0 },
		{ SA_K_TRIALS, " 5", -1, 0 },       { SA_K_TRIALS, "inf", -1, 0 },
		{ SA_K_FEE_BPS, "2.5", 0, 2.5 },    { SA_K_FEE_BPS, "-1", -1, 0 },
		{ SA_K_FUNDING_BPS_8H, "-3", 0, -3 }, { SA_K_AUDIT_S, "9", -1, 0 },
		{ SA_K_AUDIT_S, "600", 0, 600 },    { SA_K_LOOKAHEAD_STOP_AFTER, "1", 0, 1 },
	};
	(void)state;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		double x = NAN;
		char err[256] = "";

		assert_int_equal(sa_knob_parse(cases[c].k, cases[c].text, &x, err, sizeof err), cases[c].rc);
		if (cases[c].rc == 0)
			assert_true(x == cases[c].want);
		else
			assert_non_null(strstr(err, sa_knobs[cases[c].k].make));
	}
	/* a string knob is held to its length */
	{
		char err[256];
		double x;
		char longer[600];

		memset(longer, 'a', sizeof longer - 1);
		longer[sizeof longer - 1] = '\0';
		assert_int_equal(sa_knob_parse(SA_K_TRADES_COLUMNS, longer, &x, err, sizeof err), -1);
		assert_int_equal(sa_knob_parse(SA_K_TRADES_COLUMNS, "entry=a", &x, err, sizeof err), 0);
	}
}

/* Reading config.json: the value at its path, checked against the row; the default when the
 * path or its group is absent; a value of the wrong type or out of range refused with the path. */
static void test_config_readers(void **state)
{
	cJSON *cfg = cJSON_Parse("{\"trials\": 7, \"costs\": {\"fee_bps\": 3.5, \"slippage_bps\": -1},"
				 " \"limits\": {\"wall_s\": \"20\"}, \"lookahead\": {\"max\": 1.5},"
				 " \"robust\": {\"warmup_offsets\": \"10,20\"}, \"narration\": {\"model\": 3}}");
	double x;
	long long n;
	const char *s;
	char err[256];

	(void)state;
	assert_non_null(cfg);
	assert_int_equal(sa_config_int(cfg, SA_K_TRIALS, &n, err, sizeof err), 0);
	assert_int_equal(n, 7);
	assert_int_equal(sa_config_num(cfg, SA_K_FEE_BPS, &x, err, sizeof err), 0);
	assert_true(x == 3.5);
	/* absent in a present group, and a whole group absent: the row's default */
	assert_int_equal(sa_config_num(cfg, SA_K_FUNDING_BPS_8H, &x, err, sizeof err), 0);
	assert_true(x == 1);
	assert_int_equal(sa_config_int(cfg, SA_K_AUDIT_S, &n, err, sizeof err), 0);
	assert_int_equal(n, 600);
	/* out of range, the wrong type, a fraction for a whole number: refused, naming the path */
	assert_int_equal(sa_config_num(cfg, SA_K_SLIPPAGE_BPS, &x, err, sizeof err), -1);
	assert_non_null(strstr(err, "costs.slippage_bps"));
	assert_int_equal(sa_config_int(cfg, SA_K_WALL_S, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "limits.wall_s"));
	assert_int_equal(sa_config_int(cfg, SA_K_LOOKAHEAD_MAX, &n, err, sizeof err), -1);
	assert_non_null(strstr(err, "whole number"));
	assert_int_equal(sa_config_str(cfg, SA_K_WARMUP_OFFSETS, &s, err, sizeof err), 0);
	assert_string_equal(s, "10,20");
	assert_int_equal(sa_config_str(cfg, SA_K_NARRATE_MODEL, &s, err, sizeof err), -1);
	assert_non_null(strstr(err, "narration.model"));
	assert_int_equal(sa_config_str(cfg, SA_K_NARRATE_URL, &s, err, sizeof err), 0);
	assert_string_equal(s, "");
	/* no config at all: every default */
	assert_int_equal(sa_config_int(NULL, SA_K_PERMUTATIONS, &n, err, sizeof err), 0);
	assert_int_equal(n, 100);
	cJSON_Delete(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_rows),
		cmocka_unit_test(test_knob_parse),
		cmocka_unit_test(test_config_readers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
