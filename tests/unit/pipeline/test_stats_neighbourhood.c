/* test_stats_neighbourhood.c - the stats stage's neighbourhood (stats_neighbourhood): the
 * family of nearby parameter sets measured by hand, released or held back, and its trials. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stats_neighbourhood.h"

/* The neighbourhood by hand: a centre and four neighbours, columns of known mean and sd. */
static void nb_case(const char *statuses[5], double keep_min, struct sts_nb *nb, double **m)
{
	static const double scale[5] = { 1.0, 0.2, 0.3, 0.9, 1.0 };
	char text[1024];
	size_t at = 0, ran = 0;
	cJSON *insp, *res;

	/* each column alternates mean + sd, mean - sd: a Sharpe ratio of mean / sd * sqrt(...) */
	*m = calloc(5 * 100, sizeof **m);
	for (int j = 0; j < 5; j++) {
		if (strcmp(statuses[j], "ok"))
			continue;
		for (int t = 0; t < 100; t++)
			(*m)[ran * 100 + (size_t)t] = 0.001 * scale[j] + (t % 2 ? 0.01 : -0.01);
		ran++;
	}
	insp = cJSON_Parse("{\"strategy\": {\"neighbourhood\": {\"declared\": true, \"parameters\": ["
			   "{\"name\": \"n\", \"moved\": true, \"value\": 10}], \"grid\": false, \"sets\": ["
			   "{\"steps\": {}}, {\"steps\": {\"n\": -0.2}}, {\"steps\": {\"n\": -0.1}},"
			   "{\"steps\": {\"n\": 0.1}}, {\"steps\": {\"n\": 0.2}}]}}}");
	at += (size_t)snprintf(text + at, sizeof text - at, "{\"ok\": true, \"ran\": %zu, \"variants\": [", ran);
	for (int j = 0; j < 5; j++)
		at += (size_t)snprintf(text + at, sizeof text - at, "%s{\"status\": \"%s\", \"params\": {}}",
				       j ? "," : "", statuses[j]);
	snprintf(text + at, sizeof text - at, "]}");
	res = cJSON_Parse(text);
	assert_int_equal(sts_nb_measure(insp, res, "", *m, 100, ran, "", keep_min, 8, nb), 0);
	cJSON_Delete(insp);
	cJSON_Delete(res);
}

/* The family by hand: a centre n = 10 and its neighbours n = 8, 9, 11, 12 (each moving n alone),
 * their columns the centre's (correlation 1) or orthogonal to it (correlation 0, floored). */
static void nb_family_case(bool orthogonal, struct sts_nb *nb, double **m)
{
	static const int vals[4] = { 8, 9, 11, 12 };
	char text[1024];
	size_t at = 0;
	cJSON *insp, *res;

	*m = calloc(5 * 100, sizeof **m);
	for (int t = 0; t < 100; t++) {
		(*m)[t] = 0.001 + (t % 2 ? 0.01 : -0.01);
		for (int j = 1; j < 5; j++)
			(*m)[j * 100 + t] = orthogonal ? 0.001 + (t % 4 < 2 ? 0.01 : -0.01) : (*m)[t];
	}
	insp = cJSON_Parse("{\"strategy\": {\"neighbourhood\": {\"declared\": true, \"parameters\": ["
			   "{\"name\": \"n\", \"moved\": true, \"value\": 10}], \"grid\": false, \"sets\": ["
			   "{\"steps\": {}}, {\"steps\": {\"n\": -0.2}}, {\"steps\": {\"n\": -0.1}},"
			   "{\"steps\": {\"n\": 0.1}}, {\"steps\": {\"n\": 0.2}}]}}}");
	at += (size_t)snprintf(text, sizeof text, "{\"ok\": true, \"ran\": 5, \"variants\": ["
			       "{\"status\": \"ok\", \"params\": {}}");
	for (int j = 0; j < 4; j++)
		at += (size_t)snprintf(text + at, sizeof text - at,
				       ",{\"status\": \"ok\", \"params\": {\"n\": %d}}", vals[j]);
	snprintf(text + at, sizeof text - at, "]}");
	res = cJSON_Parse(text);
	assert_int_equal(sts_nb_measure(insp, res, "", *m, 100, 5, "", 0.5, 8, nb), 0);
	cJSON_Delete(insp);
	cJSON_Delete(res);
}

static void test_neighbourhood_family(void **state)
{
	struct sts_nb nb;
	struct sts_trials t = { .trials = 1, .trials_source = "declared" };
	double *m, num = 0, den = 0, decay;
	static const double vals[4] = { 8, 9, 11, 12 };

	(void)state;
	/* neighbours that trade the same bars: one rule, no trial added */
	nb_family_case(false, &nb, &m);
	assert_true(nb.measured && !nb.peak);
	assert_true(fabs(nb.decay[0]) < 1e-12 && nb.family == 1.0);
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == 1.0 && !strcmp(t.trials_source, "declared"));
	sts_nb_release(&nb);
	free(m);
	/* neighbours orthogonal to it: each at the floor 0.01, decay sum(d ln 100) / sum(d^2) */
	for (int j = 0; j < 4; j++) {
		double d = fabs(log(vals[j] / 10.0));

		num += d * log(100.0);
		den += d * d;
	}
	decay = num / den;
	nb_family_case(true, &nb, &m);
	assert_true(nb.measured);
	assert_true(fabs(nb.decay[0] - decay) < 1e-9);
	assert_true(nb.family == floor(1 + decay * log(8.0)));
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == nb.family && !strcmp(t.trials_source, "neighbourhood_family"));
	sts_nb_release(&nb);
	free(m);
}

static void test_neighbourhood_by_hand(void **state)
{
	const char *all_ok[5] = { "ok", "ok", "ok", "ok", "ok" };
	const char *failing[5] = { "ok", "error", "ok", "not_run", "ok" };
	const char *no_centre[5] = { "error", "ok", "ok", "ok", "ok" };
	struct sts_nb nb;
	struct sts_trials t = { .trials = 1, .trials_source = "declared" };
	double *m, sr0;

	(void)state;
	nb_case(all_ok, 0.5, &nb, &m);
	/* a column of +-0.01 around a mean mu: sd (ddof 1) 0.01 * sqrt(100 / 99) */
	sr0 = 0.001 / (0.01 * sqrt(100.0 / 99.0));
	assert_true(nb.measured);
	assert_true(fabs(nb.centre - sr0) < 1e-12);
	/* the neighbours 0.2, 0.3, 0.9, 1.0 of it: median 0.6 */
	assert_true(fabs(nb.keep - 0.6) < 1e-9);
	assert_false(nb.peak);
	sts_nb_release(&nb);
	free(m);
	nb_case(all_ok, 0.61, &nb, &m);
	assert_true(nb.peak);
	assert_true(nb.implied == 5.0);
	sts_nb_trials(&nb, &t);
	assert_true(t.trials == 5.0 && !strcmp(t.trials_source, "neighbourhood"));
	sts_nb_release(&nb);
	free(m);
	/* a failed neighbour keeps nothing (0), one not run is left out: median of 0, 0.3, 1.0 */
	nb_case(failing, 0.5, &nb, &m);
	assert_true(nb.measured && nb.failed == 1 && nb.not_run == 1 && nb.ran == 2);
	assert_true(fabs(nb.keep - 0.3) < 1e-9);
	assert_true(nb.peak);
	sts_nb_release(&nb);
	free(m);
	nb_case(no_centre, 0.5, &nb, &m);
	assert_false(nb.measured);
	assert_non_null(strstr(nb.why, "centre"));
	sts_nb_release(&nb);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_neighbourhood_by_hand),
		cmocka_unit_test(test_neighbourhood_family),
	};

	return cmocka_run_group_tests_name("stats_neighbourhood", tests, NULL, NULL);
}
