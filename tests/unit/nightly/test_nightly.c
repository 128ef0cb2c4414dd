/* test_nightly.c - the TRIALS header rule, the worst-news-first order, and the mail size cap. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "mail_plan.h"
#include "nightly_decide.h"
#include "nightly_index.h"

static void test_trials_header(void **state)
{
	static const struct {
		const char *src;
		int found;
		long trials;
	} cases[] = {
		{"# trials: 50\ndef signals(df):\n    pass\n", 1, 50},
		{"#!/usr/bin/env python3\n\n#   Trials :7  \nimport numpy\n", 1, 7},
		{"\"\"\"doc\"\"\"\n# trials: 50\n", 0, 0},       /* after code: not the header */
		{"# trials: 0\n", 0, 0},                         /* out of range */
		{"# trials: 5x\n", 0, 0},                        /* trailing garbage */
		{"# trials: 99999999999999999999\n", 0, 0},
		{"# no trials here\nx = 1\n", 0, 0},
		{"", 0, 0},
		{"# trials: 12", 1, 12},                         /* no final newline */
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		long t = -1;
		int got = nightly_trials_from_header(cases[i].src, strlen(cases[i].src), &t);

		assert_int_equal(got, cases[i].found);
		if (got)
			assert_int_equal(t, cases[i].trials);
	}
}

static void test_worst_news_first(void **state)
{
	struct nightly_index ix = {0};
	static const struct {
		const char *name, *verdict;
		enum nightly_news news;
	} rows[] = {
		{"a", "READY_FOR_MICRO_LIVE", NIGHTLY_NEW}, {"b", "WATCH", NIGHTLY_UNCHANGED},
		{"c", "WATCH", NIGHTLY_CHANGED},           {"d", "REJECTED_LOOKAHEAD", NIGHTLY_NEW},
		{"e", "FAILED", NIGHTLY_UNCHANGED},        {"f", "REJECTED_UNSAFE", NIGHTLY_NEW},
		{"g", "INCOMPLETE", NIGHTLY_NEW},          {"h", "NOT_READY", NIGHTLY_NEW},
	};
	static const char *const want = "efgdhcba";
	char summary[256];

	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		struct nightly_row *r = nightly_index_add(&ix);

		assert_non_null(r);
		strcpy(r->name, rows[i].name);
		strcpy(r->verdict, rows[i].verdict);
		r->news = rows[i].news;
	}
	nightly_index_sort(&ix);
	for (size_t i = 0; i < ix.n; i++)
		assert_int_equal(ix.rows[i].name[0], want[i]);
	/* the mail's subject line: INCOMPLETE counted apart from NOT_READY */
	nightly_index_summary(&ix, summary, sizeof summary);
	assert_non_null(strstr(summary, "1 INCOMPLETE, 1 REJECTED_LOOKAHEAD, 1 NOT_READY"));
	nightly_index_release(&ix);
}

static void test_b64_size(void **state)
{
	(void)state;
	assert_int_equal(nightly_mail_b64_size(0), 0);
	assert_int_equal(nightly_mail_b64_size(1), 4 + 2);
	assert_int_equal(nightly_mail_b64_size(57), 76 + 2);   /* one full line */
	assert_int_equal(nightly_mail_b64_size(58), 80 + 4);   /* spills onto a second line */
}

static void test_cap_leaves_bundles_out(void **state)
{
	struct nightly_mail_file b[3] = {{.name = "x.zip", .size = 3000000}, {.name = "y.zip", .size = 3000000},
				 {.name = "z.zip", .size = 1000000}};
	struct nightly_mail_plan p = {.bundles = b, .n = 2, .cap = MAIL_DEFAULT_CAP, .text_size = 1000, .html_size = 4000};
	char text[1024] = "";

	(void)state;
	strcpy(p.index[0].path, "index.xlsx");
	p.index[0].size = 6000;
	nightly_mail_plan_decide(&p);
	assert_false(p.over_cap);
	assert_int_equal(p.attached, 2);
	assert_true(b[0].attach && b[1].attach && p.index[0].attach);
	assert_string_equal(nightly_mail_plan_left_out_text(&p, text, sizeof text), "");

	/* 8 MB raw is about 10.8 MB in base64: the second cannot go beside the first, but the
	 * smaller third after it still fits */
	b[1].size = 5000000;
	p.n = 3;
	nightly_mail_plan_decide(&p);
	assert_true(p.over_cap);
	assert_int_equal(p.attached, 2);
	assert_true(b[0].attach && !b[1].attach && b[2].attach);
	assert_true(p.index[0].attach);
	assert_true(nightly_mail_plan_size(&p) < p.cap);
	nightly_mail_plan_left_out_text(&p, text, sizeof text);
	assert_non_null(strstr(text, "2 of 3 are attached"));
	assert_non_null(strstr(text, "bundles/y.zip (5000000 bytes)"));
	assert_null(strstr(text, "x.zip"));
	assert_null(strstr(text, "z.zip"));

	/* nothing fits beside the index: the index alone goes, every bundle named */
	p.cap = 100000;
	text[0] = '\0';
	nightly_mail_plan_decide(&p);
	assert_int_equal(p.attached, 0);
	assert_false(b[0].attach || b[1].attach || b[2].attach);
	assert_true(p.index[0].attach);
	nightly_mail_plan_left_out_text(&p, text, sizeof text);
	assert_non_null(strstr(text, "bundles/x.zip (3000000 bytes)"));
	assert_non_null(strstr(text, "bundles/z.zip (1000000 bytes)"));
}

/* A "# data: PATH" header line: relative to the upload's folder, absolute as given. */
static void test_data_header(void **state)
{
	static const char hdr[] = "# a strategy\n# trials: 4\n#  Data:  prices/eth.csv \r\nimport x\n# data: no.csv\n";
	static const char bad[] = "# data: a\001b.csv\n";
	char path[256];

	(void)state;
	assert_int_equal(nightly_data_from_header(hdr, strlen(hdr), "dir/s.py", path, sizeof path), 1);
	assert_string_equal(path, "dir/prices/eth.csv");
	assert_int_equal(nightly_data_from_header(hdr, strlen(hdr), "s.py", path, sizeof path), 1);
	assert_string_equal(path, "prices/eth.csv");
	assert_int_equal(nightly_data_from_header("# data: /srv/p.csv\n", strlen("# data: /srv/p.csv\n"), "dir/s.py", path, sizeof path), 1);
	assert_string_equal(path, "/srv/p.csv");
	/* after the header, a data line is code, not a header line */
	assert_int_equal(nightly_data_from_header("x = 1\n# data: a.csv\n", strlen("x = 1\n# data: a.csv\n"), "s.py", path, sizeof path), 0);
	assert_int_equal(nightly_data_from_header("# database: a.csv\n", strlen("# database: a.csv\n"), "s.py", path, sizeof path), 0);
	assert_int_equal(nightly_data_from_header(bad, strlen(bad), "s.py", path, sizeof path), -1);
	assert_int_equal(nightly_data_from_header(hdr, strlen(hdr), "dir/s.py", path, 8), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trials_header),
		cmocka_unit_test(test_worst_news_first),
		cmocka_unit_test(test_b64_size),
		cmocka_unit_test(test_cap_leaves_bundles_out),
		cmocka_unit_test(test_data_header),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
