/* sbx_calls.c - the per-trade callbacks of a live run, from the driver's side (sbx_proto.h,
 * SBX_LIVE_CALLS): the trade state sent before each bar, from the host's replay of the run's
 * decisions so far; the callbacks' part of each answer checked field by field against what that
 * state asked; and the checked answer recorded for the host's replay (struct sbx_calls). Never
 * trusts a byte of the answer. */
#include "sbx.h"
#include "sbx_calls_int.h"
#include "sbx_flight_int.h"
#include "sbx_proto.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "msg.h"

/* Whether the n bytes at p are all zero. */
static bool zero_bytes(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

int sbx_flight_call_check(const char *q, unsigned ask, struct sbx_call *c, char *err, size_t errlen)
{
	unsigned flags = (unsigned char)q[0];
	unsigned len = (unsigned char)q[1 + 8];
	const char *name = q + 1 + 8 + 1;

	*c = (struct sbx_call){ .stop = NAN };
	if (flags & ~(unsigned)(SBX_CALL_STOP | SBX_CALL_EXIT | SBX_CALL_REFUSED)) {
		sa_fmt(err, errlen, "the callbacks' answer has unknown flags 0x%02x", flags);
		return -1;
	}
	if ((flags & SBX_CALL_STOP) && !(ask & SBX_ASK_STOP)) {
		sa_fmt(err, errlen, "custom_stoploss was answered where it was not asked");
		return -1;
	}
	if ((flags & SBX_CALL_REFUSED) && (!(ask & SBX_ASK_ENTRY) || flags != SBX_CALL_REFUSED)) {
		sa_fmt(err, errlen, "confirm_trade_entry's refusal came %s",
		       ask & SBX_ASK_ENTRY ? "with another answer for the trade it refused" :
		       "where no entry was asked");
		return -1;
	}
	if ((flags & SBX_CALL_EXIT) && !(ask & SBX_ASK_EXIT)) {
		sa_fmt(err, errlen, "custom_exit was answered where it was not asked");
		return -1;
	}
	if (flags & SBX_CALL_STOP) {
		memcpy(&c->stop, q + 1, sizeof c->stop);
		if (!isfinite(c->stop) || c->stop == 0.0 || fabs(c->stop) > 1.0) {
			sa_fmt(err, errlen, "custom_stoploss answered %g: not a ratio with 0 < |ratio| <= 1",
			       c->stop);
			return -1;
		}
	} else if (!zero_bytes(q + 1, 8)) {
		sa_fmt(err, errlen, "the callbacks' answer carries a stop ratio without its flag");
		return -1;
	}
	if (len > SBX_CALL_NAME_MAX || (len && !(flags & SBX_CALL_EXIT))) {
		sa_fmt(err, errlen, "the callbacks' answer carries an exit name of %u bytes%s", len,
		       flags & SBX_CALL_EXIT ? "" : " without an exit");
		return -1;
	}
	for (unsigned i = 0; i < len; i++)
		if (name[i] < 0x20 || name[i] > 0x7e) {
			sa_fmt(err, errlen, "custom_exit's name has a byte 0x%02x that is not printable ASCII",
			       (unsigned char)name[i]);
			return -1;
		}
	if (!zero_bytes(name + len, SBX_CALL_NAME_MAX - len)) {
		sa_fmt(err, errlen, "the callbacks' answer carries bytes after custom_exit's name");
		return -1;
	}
	c->exit = flags & SBX_CALL_EXIT;
	c->refused = flags & SBX_CALL_REFUSED;
	memcpy(c->name, name, len);
	c->name[len] = 0;
	return 0;
}

int sbx_flight_trade_state(struct sbx_flight *f, size_t i, char *out)
{
	struct sbx_calls *c = f->calls;
	const struct da_ohlcv *s = f->live_s;
	struct rp_held h;
	int8_t side;
	uint8_t ask = 0;
	uint32_t entry;
	int64_t t_entry, t_bar = s->t[i];
	double v[6];
	char *p = out;

	if (!c->walk && !(c->walk = rp_walk_new(s, c->sig, &c->costs)))
		return -1;
	if (rp_walk_to(c->walk, i, &h) < 0)
		return -1;
	side = (int8_t)h.side;
	if (side)
		ask = (uint8_t)((h.ask_exit ? SBX_ASK_EXIT : 0) | (h.ask_stop ? SBX_ASK_STOP : 0) |
				(h.ask_entry ? SBX_ASK_ENTRY : 0));
	entry = side ? (uint32_t)h.entry_bar : 0;
	t_entry = side ? h.entry : 0;
	c->side[i] = side;
	c->entry[i] = entry;
	c->ask[i] = ask;
	v[0] = side ? h.entry_px : 0;
	v[1] = side && isfinite(h.stop) ? h.stop : 0;
	v[2] = h.rate;
	v[3] = side ? h.profit : 0;
	v[4] = side ? h.bound : 0;
	v[5] = side ? h.bound_profit : 0;
	*p++ = (char)side;
	*p++ = (char)ask;
	memcpy(p, &entry, sizeof entry);
	p += sizeof entry;
	memcpy(p, &t_entry, sizeof t_entry);
	p += sizeof t_entry;
	memcpy(p, &t_bar, sizeof t_bar);
	p += sizeof t_bar;
	memcpy(p, v, sizeof v);
	return 0;
}

/* A run with callbacks: answer k's callbacks' part checked against what the state sent before
 * its bar asked (none for the first, which no state came before) and recorded with its decision
 * v for the host's replay. Returns 0, or -1 with f->live_bad set. */
int sbx_flight_take_call(struct sbx_flight *f, size_t k, const char *q, int8_t v)
{
	struct sbx_calls *c = f->calls;
	size_t bar = f->live_first + k;
	struct sbx_call a;
	char err[120];

	if (bar >= c->n)
		return 0;
	if (sbx_flight_call_check(q, k ? c->ask[bar] : 0, &a, err, sizeof err) < 0) {
		sa_fmt(f->live_bad, sizeof f->live_bad, "the live run's answer for bar %zu: %s", bar, err);
		return -1;
	}
	c->stop[bar] = a.stop;
	c->exit[bar] = a.exit;
	c->refused[bar] = a.refused;
	memcpy(c->name[bar], a.name, sizeof a.name);
	c->sig[bar] = v == SBX_LIVE_RAISED || v == SBX_SIGNAL_NAN ? 0 : v;
	return 0;
}
