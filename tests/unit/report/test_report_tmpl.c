/* test_report_tmpl.c - the report template language: values escaped, sections, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report_tmpl.h"

/* Renders tmpl with the JSON context ctx; returns the output (caller frees) or NULL on error. */
static char *render(const char *tmpl, const char *ctx_json, char *err, size_t errlen)
{
	cJSON *ctx = cJSON_Parse(ctx_json);
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	int rc = rpt_tmpl_render(fp, tmpl, ctx, err, errlen);
	fclose(fp);
	cJSON_Delete(ctx);
	if (rc) {
		free(buf);
		return NULL;
	}
	return buf;
}

struct tcase {
	const char *tmpl, *ctx, *want;
};

static void test_renders(void **state)
{
	static const struct tcase cases[] = {
		{ "a{{x}}b", "{\"x\":\"1\"}", "a1b" },
		{ "{{ x }}", "{\"x\":\"<script>&'\\\"\"}", "&lt;script&gt;&amp;&#39;&quot;" },
		{ "{{missing}}|{{n}}|{{t}}", "{\"n\":2.5,\"t\":true}", "|2.5|true" },
		{ "{{a.b.c}}", "{\"a\":{\"b\":{\"c\":\"deep\"}}}", "deep" },
		{ "{{#l}}[{{.}}]{{/l}}", "{\"l\":[\"<\",\"b\"]}", "[&lt;][b]" },
		{ "{{#l}}{{n}}{{name}};{{/l}}", "{\"name\":\"o\",\"l\":[{\"n\":1},{\"n\":2,\"name\":\"i\"}]}", "1o;2i;" },
		{ "{{#e}}x{{/e}}{{^e}}empty{{/e}}", "{\"e\":[]}", "empty" },
		{ "{{#f}}x{{/f}}{{^f}}no{{/f}}{{#s}}{{s}}{{/s}}", "{\"f\":false,\"s\":\"\"}", "no" },
		{ "{{#o}}{{k}}{{/o}}", "{\"o\":{\"k\":\"v\"}}", "v" },
		{ "{{#a}}{{#a}}in{{/a}}{{/a}}", "{\"a\":{\"a\":1}}", "in" },
		{ "x{{! a comment }}y", "{}", "xy" },
		{ "{{x}}", "{\"x\":\"{{y}}\",\"y\":\"no\"}", "{{y}}" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[128];
		char *got = render(cases[i].tmpl, cases[i].ctx, err, sizeof err);
		assert_non_null(got);
		assert_string_equal(got, cases[i].want);
		free(got);
	}
}

static void test_errors(void **state)
{
	static const struct { const char *tmpl, *err; } cases[] = {
		{ "ok {{x", "line 1: unclosed tag" },
		{ "\n{{#s}}never", "line 2: section 's' is never closed" },
		{ "{{/s}}", "line 1: 's' closed but not open" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char err[128] = "";
		assert_null(render(cases[i].tmpl, "{\"s\":true}", err, sizeof err));
		assert_string_equal(err, cases[i].err);
	}
}

static void test_depth_limit(void **state)
{
	char tmpl[2048] = "", ctx[2048] = "", err[128] = "";
	(void)state;
	for (int i = 0; i < 40; i++) {
		strcat(tmpl, "{{#a}}");
		strcat(ctx, "{\"a\":");
	}
	strcat(ctx, "{}");
	for (int i = 0; i < 40; i++) {
		strcat(tmpl, "{{/a}}");
		strcat(ctx, "}");
	}
	assert_null(render(tmpl, ctx, err, sizeof err));
	assert_string_equal(err, "sections nested deeper than 32");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_renders),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_depth_limit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
