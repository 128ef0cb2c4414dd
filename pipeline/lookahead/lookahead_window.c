/* lookahead_window.c - the window a truncated run is given: how many of the last bars up to its
 * point, measured from the strategy's own memory, and grown when the whole prefix shows it was
 * too short. */
#include <stdio.h>
#include <string.h>

#include "lookahead_core.h"

size_t la_window_first(const struct la_window *w, size_t t)
{
	return t + 1 > w->bars ? t + 1 - w->bars : 0;
}

bool la_window_agrees(const int8_t *full, size_t t, size_t first, size_t warm, const int8_t *sig,
		      size_t len)
{
	size_t from = 0;

	if (!sig || len != t + 1 - first)
		return false;
	/* A run over the whole prefix is compared on every bar it saw, as it always was; a window
	 * on the bars after its warm-up, which it computes from the bars it was given alone. */
	if (first > 0)
		from = warm < len ? warm : len - 1;
	return memcmp(sig + from, full + first + from, len - from) == 0;
}

size_t la_probe_memory(const int8_t *full, size_t start, const int8_t *sig, size_t len, size_t tail)
{
	for (size_t k = len > tail ? len - tail : 0; k-- > 0;)
		if (sig[k] != full[start + k])
			return k + 1;
	return 0;
}

void la_window_choose(struct la_window *w, size_t knob, size_t startup, size_t memory)
{
	size_t m = memory > startup ? memory : startup;

	w->measured = memory;
	w->startup = startup;
	w->warm = m;
	/* Twice the memory: at least half of each window is compared. */
	w->bars = m > LA_WINDOW_FLOOR / 2 ? 2 * m : LA_WINDOW_FLOOR;
	if (knob > 0) {
		w->bars = knob;
		w->source = "knob";
	} else if (m * 2 < LA_WINDOW_FLOOR) {
		w->source = "floor";
	} else {
		w->source = startup > memory ? "startup_candle_count" : "measured";
	}
	if (w->warm > w->bars / 2)
		w->warm = w->bars / 2;
	w->initial = w->bars;
	w->initial_warm = w->warm;
}

void la_window_grow(struct la_window *w, size_t at)
{
	if (w->bars > SIZE_MAX / 4)
		return;
	if (w->grown++ == 0)
		w->grown_at = at;
	w->bars *= 2;
	w->warm = w->bars / 2;
}

/* Why the window has its first size, in words. */
static void say_source(const struct la_window *w, char *buf, size_t len)
{
	if (strcmp(w->source, "knob") == 0)
		snprintf(buf, len, "as LOOKAHEAD_WINDOW sets");
	else if (strcmp(w->source, "startup_candle_count") == 0)
		snprintf(buf, len, "twice the strategy's startup_candle_count of %zu", w->startup);
	else if (strcmp(w->source, "measured") == 0)
		snprintf(buf, len, "twice the %zu bars a later start needed to agree with the full run",
			 w->measured);
	else
		snprintf(buf, len, "the floor: a later start agreed with the full run within %zu bars",
			 w->measured);
}

char *la_window_note(const struct la_window *w, char *buf, size_t len)
{
	char grew[256] = "", why[128];

	say_source(w, why, sizeof why);
	if (w->grown > 0)
		snprintf(grew, sizeof grew, " The whole prefix agreed where %zu window%s did not, so the "
			 "strategy remembers more than its window: after the first %zu points the "
			 "window grew to %zu bars.", w->memory_mismatches, w->memory_mismatches == 1 ? "" : "s",
			 w->grown_at, w->bars);
	snprintf(buf, len, "Each re-run saw the last %zu bars up to its point (%s). %zu of them "
		 "disagreed or failed there and were run again over the whole prefix, which alone "
		 "decided: %zu a leak, %zu the strategy's memory.%s",
		 w->initial, why, w->confirmations, w->confirmed_leaks, w->memory_mismatches, grew);
	return buf;
}
