/* test_driver.c - the sandbox driver's bookkeeping of a finished run: results judged, events
 * recorded, and an allocation that fails while recording one. The driver's helpers are static,
 * so this file includes sbx_flight.c itself, with realloc routed through a switch that can make
 * the next calls fail; the linker then takes the driver from here, not from libmodules.a. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sbx.h"
#include "sbx_launch_int.h"
#include "sbx_proto.h"
#include "fileio.h"
#include "msg.h"

static int reallocs_to_fail;  /* the next this many reallocs of the driver return NULL */

static void *injected_realloc(void *p, size_t n)
{
	void *q = NULL;

	if (reallocs_to_fail > 0)
		reallocs_to_fail--;
	else
		q = realloc(p, n);
	return q;
}

#define realloc injected_realloc
#include "sbx_flight.c"
#undef realloc

static const struct sbx_limits lim = { .wall_s = 20, .cpu_s = 20, .mem_mb = 1024,
				       .scratch_mb = 16, .nofile = 64 };

/* A run of n bars that exited 0 and sent what on its result pipe. */
static void ended(struct sbx_flight *f, struct sbx_result *r, size_t n, const char *what, size_t len)
{
	memset(f, 0, sizeof *f);
	memset(r, 0, sizeof *r);
	f->used = f->exited = true;
	f->n = r->n = n;
	f->r = r;
	f->out_r = f->err_r = f->res_r = f->ev_r = f->data_w = f->pidfd = -1;
	f->res.cap = len;
	f->res.p = malloc(f->res.cap + 1);
	assert_non_null(f->res.p);
	memcpy(f->res.p, what, len);
	f->res.len = len;
}

static void test_signals_taken(void **state)
{
	static const char res[] = { SBX_TAG_RESULT, -1, 0, 1 };
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 3, res, sizeof res);
	assert_int_equal(sbx_flight_judge(&f, &lim), 0);
	assert_int_equal(r.status, SBX_OK);
	assert_memory_equal(r.signals, res + 1, 3);
	assert_int_equal(r.n_events, 0);
	assert_false(f.used);
	sbx_result_release(&r);
}

static void test_bad_value_refused(void **state)
{
	static const char res[] = { SBX_TAG_RESULT, 0, 2, 0 };
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 3, res, sizeof res);
	assert_int_equal(sbx_flight_judge(&f, &lim), 0);
	assert_int_equal(r.status, SBX_BAD_OUTPUT);
	assert_null(r.signals);
	assert_string_equal(r.error, "value 2 at bar 1 is not -1, 0 or 1");
	sbx_result_release(&r);
}

static void test_memory_event(void **state)
{
	static const char res[] = "MMemoryError";
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 3, res, sizeof res - 1);
	assert_int_equal(sbx_flight_judge(&f, &lim), 0);
	assert_int_equal(r.status, SBX_KILLED_MEMORY);
	assert_string_equal(r.error, "MemoryError");
	assert_int_equal(r.n_events, 1);
	assert_string_equal(r.events[0].action, "memory");
	assert_string_equal(r.events[0].rule, "runs stay within the memory limit");
	assert_string_equal(r.events[0].detail, "allocation refused at the 1024 MB limit");
	sbx_result_release(&r);
}

/* The bug this file was written for: the first event's allocation failed, and the driver wrote
 * the detail to r->events[n_events - 1] all the same (NULL minus one element). */
static void test_memory_event_without_memory(void **state)
{
	static const char res[] = "MMemoryError";
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 3, res, sizeof res - 1);
	reallocs_to_fail = 1;
	assert_int_equal(sbx_flight_judge(&f, &lim), -1);
	assert_int_equal(reallocs_to_fail, 0);
	assert_int_equal(r.status, SBX_KILLED_MEMORY);
	assert_null(r.events);
	assert_int_equal(r.n_events, 0);
	assert_false(f.used);
	sbx_result_release(&r);
}

static void test_wall_clock_event_without_memory(void **state)
{
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 3, "", 0);
	f.killed_wall = true;
	reallocs_to_fail = 1;
	assert_int_equal(sbx_flight_judge(&f, &lim), -1);
	assert_int_equal(r.status, SBX_KILLED_WALL_CLOCK);
	assert_int_equal(r.n_events, 0);
	sbx_result_release(&r);
}

static void test_events_parsed_and_capped(void **state)
{
	static const char ok[] = "os.system\x1fno process spawning\x1f" "echo \x1b[31m";
	static const char last[] = "os.system\x1fno process spawning\x1fthe real one";
	static const char net[] = "socket.__new__\x1fno network\x1f(2, 1)";
	static const char invented[] = "os.system\x1fno reason at all\x1fx";
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 0, "", 0);
	assert_int_equal(take_event(&f, ok, sizeof ok - 1), 0);
	assert_string_equal(r.events[0].action, "os.system");
	assert_string_equal(r.events[0].rule, "no process spawning");
	assert_string_equal(r.events[0].detail, "echo ?[31m");
	assert_int_equal(take_event(&f, "", 0), 0);
	assert_string_equal(r.events[1].action, "forged_event");
	/* a rule the sandbox does not have is a forgery, named in the detail */
	assert_int_equal(take_event(&f, invented, sizeof invented - 1), 0);
	assert_string_equal(r.events[2].action, "forged_event");
	assert_string_equal(r.events[2].rule, "the event channel carries sandbox records only");
	assert_non_null(strstr(r.events[2].detail, "'no reason at all'"));
	/* a flood of one rule: counted in full, kept up to the cap, its latest in the last place */
	for (int i = 1; i < 500; i++)
		assert_int_equal(take_event(&f, ok, sizeof ok - 1), 0);
	assert_int_equal(take_event(&f, last, sizeof last - 1), 0);
	assert_int_equal(take_event(&f, net, sizeof net - 1), 0);
	assert_int_equal(r.n_refusals, 504);
	assert_int_equal(r.n_events, 2 + SBX_EVENTS_PER_RULE + 1);
	assert_string_equal(r.events[r.n_events - 2].detail, "the real one");
	assert_string_equal(r.events[r.n_events - 1].action, "socket.__new__");
	assert_int_equal(r.n_rules, 3);
	assert_string_equal(r.rules[0].rule, "no process spawning");
	assert_int_equal(r.rules[0].count, 501);
	assert_string_equal(r.rules[0].first.detail, "echo ?[31m");
	assert_string_equal(r.rules[0].last.detail, "the real one");
	assert_int_equal(r.rules[1].count, 2);
	assert_int_equal(r.rules[2].count, 1);
	free(f.res.p);
	sbx_result_release(&r);
}

/* Two runs' counts add up per rule; the first stays the earliest, the last becomes the later's. */
static void test_rules_merged(void **state)
{
	static const char a[] = "open\x1fwrites stay in scratch\x1f/etc/a";
	static const char b[] = "open\x1fwrites stay in scratch\x1f/etc/b";
	static const char n[] = "socket.__new__\x1fno network\x1f()";
	struct sbx_flight f;
	struct sbx_result r1, r2;
	struct sbx_rule_count *acc = NULL;
	size_t n_acc = 0;

	(void)state;
	ended(&f, &r1, 0, "", 0);
	assert_int_equal(take_event(&f, a, sizeof a - 1), 0);
	free(f.res.p);
	ended(&f, &r2, 0, "", 0);
	assert_int_equal(take_event(&f, n, sizeof n - 1), 0);
	assert_int_equal(take_event(&f, b, sizeof b - 1), 0);
	assert_int_equal(sbx_rules_merge(&acc, &n_acc, &r1), 0);
	assert_int_equal(sbx_rules_merge(&acc, &n_acc, &r2), 0);
	assert_int_equal(n_acc, 2);
	assert_string_equal(acc[0].rule, "writes stay in scratch");
	assert_int_equal(acc[0].count, 2);
	assert_string_equal(acc[0].first.detail, "/etc/a");
	assert_string_equal(acc[0].last.detail, "/etc/b");
	assert_int_equal(acc[1].count, 1);
	free(acc);
	free(f.res.p);
	sbx_result_release(&r1);
	sbx_result_release(&r2);
}

/* Growing the list fails at the ninth event: the eight already recorded stay as they were. */
static void test_event_growth_without_memory(void **state)
{
	static const char ok[] = "open\x1fwrites stay in scratch\x1f/etc/x";
	struct sbx_flight f;
	struct sbx_result r;

	(void)state;
	ended(&f, &r, 0, "", 0);
	for (int i = 0; i < EVENTS_FIRST_CAP; i++)
		assert_int_equal(take_event(&f, ok, sizeof ok - 1), 0);
	reallocs_to_fail = 1;
	assert_int_equal(take_event(&f, ok, sizeof ok - 1), -1);
	assert_int_equal(r.n_events, EVENTS_FIRST_CAP);
	assert_string_equal(r.events[EVENTS_FIRST_CAP - 1].detail, "/etc/x");
	free(f.res.p);
	sbx_result_release(&r);
}

/* The run sent an empty message, then a refusal, and exited before the driver read either:
 * both are on record, and only then is the channel closed. */
static void test_empty_message_before_exit(void **state)
{
	static const char sys[] = "os.system\x1fno process spawning\x1ftouch x";
	struct sbx_flight f;
	struct sbx_result r;
	int ev[2];

	(void)state;
	ended(&f, &r, 0, "", 0);
	assert_int_equal(sbx_flight_channel(ev), 0);
	assert_int_equal(write(ev[1], "", 0), 0);
	assert_int_equal(write(ev[1], sys, sizeof sys - 1), (ssize_t)(sizeof sys - 1));
	assert_int_equal(write(ev[1], "", 0), 0);
	close(ev[1]);
	f.ev_r = ev[0];
	assert_int_equal(sbx_flight_read_events(&f), 0);
	assert_int_equal(f.ev_r, -1);
	assert_int_equal(r.n_events, 3);
	assert_string_equal(r.events[0].action, "forged_event");
	assert_string_equal(r.events[1].action, "os.system");
	assert_string_equal(r.events[1].detail, "touch x");
	assert_string_equal(r.events[2].action, "forged_event");
	free(f.res.p);
	sbx_result_release(&r);
}

/* A run still alive: its empty message is taken and the channel stays open for the next. */
static void test_empty_message_keeps_channel(void **state)
{
	struct sbx_flight f;
	struct sbx_result r;
	int ev[2];

	(void)state;
	ended(&f, &r, 0, "", 0);
	assert_int_equal(sbx_flight_channel(ev), 0);
	assert_int_equal(write(ev[1], "", 0), 0);
	f.ev_r = ev[0];
	assert_int_equal(sbx_flight_read_events(&f), 0);
	assert_int_equal(f.ev_r, ev[0]);
	assert_int_equal(r.n_events, 1);
	close(ev[1]);
	assert_int_equal(sbx_flight_read_events(&f), 0);
	assert_int_equal(f.ev_r, -1);
	assert_int_equal(r.n_events, 1);
	free(f.res.p);
	sbx_result_release(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signals_taken),
		cmocka_unit_test(test_bad_value_refused),
		cmocka_unit_test(test_memory_event),
		cmocka_unit_test(test_memory_event_without_memory),
		cmocka_unit_test(test_wall_clock_event_without_memory),
		cmocka_unit_test(test_events_parsed_and_capped),
		cmocka_unit_test(test_rules_merged),
		cmocka_unit_test(test_event_growth_without_memory),
		cmocka_unit_test(test_empty_message_before_exit),
		cmocka_unit_test(test_empty_message_keeps_channel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
