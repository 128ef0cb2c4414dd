/* test_driver.c - the sandbox driver's bookkeeping of a finished run: results judged, events
 * recorded, and an allocation that fails while recording one. The driver's helpers are static,
 * so this file includes sbx_flight.c itself, with realloc routed through a switch that can make
 * the next calls fail; the linker then takes the driver from here, not from libmodules.a. */
#include <math.h>
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

/* One answer to the per-trade callbacks (sbx_proto.h, SBX_LIVE_CALL_BYTES) built from its fields. */
static void call_answer(char *q, unsigned flags, double stop, const char *name)
{
	size_t len = name ? strlen(name) : 0;

	memset(q, 0, SBX_LIVE_CALL_BYTES);
	q[0] = (char)flags;
	if (flags & SBX_CALL_STOP)
		memcpy(q + 1, &stop, sizeof stop);
	q[9] = (char)len;
	if (len)
		memcpy(q + 10, name, len);
}

/* The host's check of the callbacks' answer: what freqtrade's answers may be passes with its
 * fields; each broken field is refused with its sentence. */
static void test_call_answer_checked(void **state)
{
	char q[SBX_LIVE_CALL_BYTES], err[256];
	struct sbx_call c;
	unsigned both = SBX_ASK_STOP | SBX_ASK_EXIT;
	static const struct {
		unsigned ask, flags;
		double stop;
		const char *name, *why;
	} bad[] = {
		{ 7, 8, 0, NULL, "unknown flags" },
		{ SBX_ASK_EXIT, SBX_CALL_REFUSED, 0, NULL, "refusal came where no entry was asked" },
		{ 7, SBX_CALL_REFUSED | SBX_CALL_EXIT, 0, NULL, "with another answer" },
		{ 7, SBX_CALL_REFUSED | SBX_CALL_STOP, -0.05, NULL, "with another answer" },
		{ SBX_ASK_EXIT, SBX_CALL_STOP, -0.05, NULL, "custom_stoploss was answered where it was not asked" },
		{ SBX_ASK_STOP, SBX_CALL_EXIT, 0, NULL, "custom_exit was answered where it was not asked" },
		{ 0, SBX_CALL_EXIT, 0, "x", "custom_exit was answered where it was not asked" },
		{ 3, SBX_CALL_STOP, NAN, NULL, "not a ratio" },
		{ 3, SBX_CALL_STOP, INFINITY, NULL, "not a ratio" },
		{ 3, SBX_CALL_STOP, 1.5, NULL, "not a ratio" },
		{ 3, SBX_CALL_STOP, 0.0, NULL, "not a ratio" },
		{ 3, 0, 0, "x", "without an exit" },
		{ 3, SBX_CALL_EXIT, 0, "bad\ttab", "not printable ASCII" },
	};

	(void)state;
	call_answer(q, SBX_CALL_STOP | SBX_CALL_EXIT, -0.02, "psar_flip");
	assert_int_equal(sbx_flight_call_check(q, both, &c, err, sizeof err), 0);
	assert_true(c.stop == -0.02);
	assert_true(c.exit);
	assert_string_equal(c.name, "psar_flip");
	call_answer(q, 0, 0, NULL);
	assert_int_equal(sbx_flight_call_check(q, 0, &c, err, sizeof err), 0);
	assert_true(isnan(c.stop));
	assert_false(c.exit);
	assert_false(c.refused);
	call_answer(q, SBX_CALL_REFUSED, 0, NULL);  /* confirm_trade_entry's refusal, alone */
	assert_int_equal(sbx_flight_call_check(q, both | SBX_ASK_ENTRY, &c, err, sizeof err), 0);
	assert_true(c.refused);
	assert_false(c.exit);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		call_answer(q, bad[i].flags, bad[i].stop, bad[i].name);
		err[0] = 0;
		assert_int_equal(sbx_flight_call_check(q, bad[i].ask, &c, err, sizeof err), -1);
		if (!strstr(err, bad[i].why))
			fail_msg("case %zu: '%s' does not say '%s'", i, err, bad[i].why);
	}
	/* a stop ratio's bytes without its flag, a name past its length, a length past the field */
	call_answer(q, 0, 0, NULL);
	q[3] = 1;
	assert_int_equal(sbx_flight_call_check(q, both, &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "without its flag"));
	call_answer(q, SBX_CALL_EXIT, 0, "ab");
	q[10 + 5] = 'z';
	assert_int_equal(sbx_flight_call_check(q, both, &c, err, sizeof err), -1);
	assert_non_null(strstr(err, "after custom_exit's name"));
	call_answer(q, SBX_CALL_EXIT, 0, NULL);
	q[9] = SBX_CALL_NAME_MAX + 1;
	assert_int_equal(sbx_flight_call_check(q, both, &c, err, sizeof err), -1);
}

/* Random answers: never more than the check lets through, whatever the bytes. */
static void test_call_answer_fuzzed(void **state)
{
	char q[SBX_LIVE_CALL_BYTES], err[256];
	struct sbx_call c;
	uint64_t x = 0x9e3779b97f4a7c15u;
	int passed = 0, refused = 0;

	(void)state;
	for (int i = 0; i < 200000; i++) {
		unsigned ask = (unsigned)(x >> 60) & 7;

		for (size_t k = 0; k < sizeof q; k++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* mostly zero bytes, so that some answers pass and their fields are checked */
			q[k] = (char)((x & 7) ? 0 : x >> 8);
		}
		if (sbx_flight_call_check(q, ask, &c, err, sizeof err) < 0) {
			refused++;
			continue;
		}
		passed++;
		assert_true(isnan(c.stop) || (ask & SBX_ASK_STOP && fabs(c.stop) <= 1 && c.stop != 0));
		assert_true(!c.exit || ask & SBX_ASK_EXIT);
		assert_true(!c.refused || (ask & SBX_ASK_ENTRY && !c.exit && isnan(c.stop) && !*c.name));
		assert_true(strlen(c.name) <= SBX_CALL_NAME_MAX);
		for (const char *p = c.name; *p; p++)
			assert_true(*p >= 0x20 && *p <= 0x7e);
	}
	/* both sides of the check were reached */
	assert_true(passed > 100);
	assert_true(refused > 100);
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
		cmocka_unit_test(test_call_answer_checked),
		cmocka_unit_test(test_call_answer_fuzzed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
