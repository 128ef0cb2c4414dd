/* sbx_calls_int.h - inside the sandbox room: the per-trade callbacks of a live run, from the
 * driver's side (sbx_calls.c): the trade state sent before a bar, the callbacks' part of the
 * answer checked and recorded. */
#ifndef SBX_CALLS_INT_H
#define SBX_CALLS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbx_proto.h"

struct sbx_flight;

/* A live run's answer to the per-trade callbacks on one bar (sbx_proto.h, SBX_LIVE_CALL_BYTES),
 * as checked: the stop ratio (NAN: none) and whether to exit, with the exit's name (empty: none
 * given, freqtrade's "custom_exit"). */
struct sbx_call {
	double stop;
	bool exit;
	bool refused;  /* confirm_trade_entry refused the entry */
	char name[SBX_CALL_NAME_MAX + 1];
};

/* Checks the SBX_LIVE_CALL_BYTES at q, the answer to a bar whose trade state asked ask
 * (SBX_ASK_*; 0 when flat: nothing may be answered), into *c. Returns 0, or -1 with err saying
 * which field broke the wire. */
int sbx_flight_call_check(const char *q, unsigned ask, struct sbx_call *c, char *err, size_t errlen);

/* The trade state the host sends a run with callbacks before bar i of its series (sbx_proto.h,
 * SBX_LIVE_TRADE_BYTES) into out, from its replay of the decisions so far (f->calls), and what it
 * asked recorded there. Returns 0, or -1 when memory ran out. */
int sbx_flight_trade_state(struct sbx_flight *f, size_t i, char *out);

/* A run with callbacks: answer k's callbacks' part (the SBX_LIVE_CALL_BYTES at q) checked
 * against what the state sent before its bar asked (none for the first, which no state came
 * before) and recorded in f->calls with its decision v for the host's replay. Returns 0, or -1
 * with f->live_bad set. */
int sbx_flight_take_call(struct sbx_flight *f, size_t k, const char *q, int8_t v);

#endif
