/* test_report_model.c - the report's view model: what each row claims matches what was computed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "report_input.h"
#include "report_model.h"

/* The meaning given for the stats row labelled label, or NULL. */
static const char *meaning_of(const cJSON *m, const char *label)
{
	const cJSON *row;

	cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(m, "stats"), "rows"))
		if (strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "label")), label) == 0)
			return cJSON_GetStringValue(cJSON_GetObjectItem(row, "meaning"));
	return NULL;
}

/* The stats stage annualises the per-bar Sharpe ratio of net equity (stats_core.c,
 * per_bar_sharpe), not the per-trade one: the report must not say otherwise. */
static void test_annualised_sharpe_says_per_bar(void **state)
{
	struct rpt_input in;
	cJSON *m;
	const char *meaning;

	(void)state;
	memset(&in, 0, sizeof in);
	m = rpt_model_build(&in, "x");
	assert_non_null(m);
	meaning = meaning_of(m, "Sharpe ratio (annualised)");
	assert_non_null(meaning);
	assert_non_null(strstr(meaning, "bars per year"));
	assert_null(strstr(meaning, "per-trade"));
	cJSON_Delete(m);
}

/* Percentages and numbers round as printed: no "-0.000" for a value that rounds to zero. */
static void test_formats_have_no_negative_zero(void **state)
{
	static const struct { double x; const char *pct, *num; } rows[] = {
		{ -0.0000001, "0.000 %", "0.000" },
		{ 0.0123456, "1.235 %", "0.012" },
		{ -0.25, "-25.000 %", "-0.250" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		cJSON *v = cJSON_CreateNumber(rows[i].x);

		assert_string_equal(rpt_fmt_pct(v, 3, buf, sizeof buf), rows[i].pct);
		assert_string_equal(rpt_fmt_num(v, 3, buf, sizeof buf), rows[i].num);
		cJSON_Delete(v);
	}
	assert_string_equal(rpt_fmt_pct(NULL, 3, buf, sizeof buf), "n/a");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_annualised_sharpe_says_per_bar),
		cmocka_unit_test(test_formats_have_no_negative_zero),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
