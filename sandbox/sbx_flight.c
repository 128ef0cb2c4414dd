/* sbx_flight.c - one run in flight, from the driver's side: what its pipes bring (logs kept up
 * to a cap, events parsed and checked), and the verdict on how it ended. Never trusts a byte
 * of it: every text is cleaned, every count bounded. */
#include "sbx.h"
#include "sbx_batch_int.h"
#include "sbx_cgroup_int.h"
#include "sbx_flight_int.h"
#include "sbx_proto.h"
#include "sbx_rules.h"
#include "signals.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "msg.h"

/* Reads what is there into b, keeping at most b->cap bytes; the rest is drained and dropped.
 * Closes *fd at end of file. b is allocated when its first bytes come (a run that prints
 * nothing holds no log buffer); after that what is kept is read straight into it (a result is
 * a byte a bar), and only the first read and what is dropped pass through a buffer of their own. */
void sbx_flight_drain(int *fd, struct sbx_buf *b)
{
	char tmp[DRAIN_CHUNK];
	/* at most so many reads a turn: a pipe kept full cannot hold the driver here, past the
	 * clocks it keeps; what is left is read on the next turn */
	for (int reads = 0; reads < DRAIN_READS; reads++) {
		size_t room = b->len < b->cap ? b->cap - b->len : 0;
		bool direct = room && b->p;
		ssize_t got = direct ? read(*fd, b->p + b->len, room) : read(*fd, tmp, sizeof tmp);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			sbx_close_fd(fd);
			return;
		}
		if (direct) {
			b->len += (size_t)got;
			continue;
		}
		size_t keep = room < (size_t)got ? room : (size_t)got;
		if ((size_t)got > keep)
			b->truncated = true;
		if (!keep)
			continue;
		if (!b->p && !(b->p = malloc(b->cap + 1))) {
			b->truncated = true;
			b->cap = 0;
			continue;
		}
		memcpy(b->p + b->len, tmp, keep);
		b->len += keep;
	}
}

static void copy_clean(char *dst, size_t len, const char *src, size_t srclen)
{
	size_t j = 0;
	for (size_t i = 0; i < srclen && j + 1 < len; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[j++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	dst[j] = '\0';
}

bool sbx_rule_known(const char *rule)
{
#define SBX_RULE_TEXT(name, text) text,
	static const char *const known[] = { SBX_RULE_LIST(SBX_RULE_TEXT) };
#undef SBX_RULE_TEXT

	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (strcmp(rule, known[i]) == 0)
			return true;
	return false;
}

/* The run's count for rule, made when it is the rule's first record. NULL out of memory. */
static struct sbx_rule_count *rule_count(struct sbx_result *r, const char *rule)
{
	struct sbx_rule_count *grown;

	for (size_t i = 0; i < r->n_rules; i++)
		if (strcmp(r->rules[i].rule, rule) == 0)
			return &r->rules[i];
	grown = realloc(r->rules, (r->n_rules + 1) * sizeof *grown);
	if (!grown)
		return NULL;
	r->rules = grown;
	memset(&grown[r->n_rules], 0, sizeof *grown);
	snprintf(grown[r->n_rules].rule, sizeof grown->rule, "%s", rule);
	return &grown[r->n_rules++];
}

/* Room for one more kept event. Returns it, or NULL out of memory. */
static struct sbx_event *next_slot(struct sbx_flight *f)
{
	struct sbx_result *r = f->r;

	if (r->n_events == f->ev_cap) {
		size_t cap = f->ev_cap ? f->ev_cap * 2 : EVENTS_FIRST_CAP;
		struct sbx_event *ev = realloc(r->events, cap * sizeof *ev);
		if (!ev)
			return NULL;
		r->events = ev;
		f->ev_cap = cap;
	}
	return &r->events[r->n_events++];
}

/* The place of the latest kept event of rule (one is kept: the rule's count is past its cap). */
static struct sbx_event *last_kept(struct sbx_result *r, const char *rule)
{
	size_t i = r->n_events;

	while (i-- > 0)
		if (strcmp(r->events[i].rule, rule) == 0)
			return &r->events[i];
	return &r->events[r->n_events - 1];
}

/* Records one event: counted under its rule; kept in the run's list while the rule has fewer
 * than SBX_EVENTS_PER_RULE there, else it replaces the rule's latest kept one, so each rule's
 * first records and its last are on record whatever another rule's flood. Returns 0, or -1
 * when there is no memory for it, with the record as it was. A dropped event would
 * under-count what the run tried, so every caller passes the -1 up and the batch fails rather
 * than report a cleaner run than happened. */
static __attribute__((warn_unused_result)) int add_event(struct sbx_flight *f, const char *action,
							 const char *rule, const char *detail)
{
	struct sbx_result *r = f->r;
	struct sbx_event e, *slot;
	struct sbx_rule_count *c;

	copy_clean(e.action, sizeof e.action, action, strlen(action));
	copy_clean(e.rule, sizeof e.rule, rule, strlen(rule));
	copy_clean(e.detail, sizeof e.detail, detail, strlen(detail));
	c = rule_count(r, e.rule);
	if (!c)
		return -1;
	slot = c->count < SBX_EVENTS_PER_RULE ? next_slot(f) : last_kept(r, e.rule);
	if (!slot)
		return -1;
	*slot = e;
	if (c->count++ == 0)
		c->first = e;
	c->last = e;
	r->n_refusals++;
	return 0;
}

/* One event message from inside. Hostile until parsed: three fields, capped, printable, and a
 * rule the sandbox has. Returns 0, or -1 when the event could not be recorded (add_event). */
static int take_event(struct sbx_flight *f, const char *msg, size_t len)
{
	char action[64], rule[64], detail[256], why[256];
	const char *a = msg, *end = msg + len, *s1, *s2;
	int rc = 0;

	s1 = memchr(a, SBX_EVENT_SEP, len);
	s2 = s1 ? memchr(s1 + 1, SBX_EVENT_SEP, (size_t)(end - s1 - 1)) : NULL;
	if (!s1 || !s2 || s1 == a) {
		rc = add_event(f, "forged_event", SBX_R_FORGED,
			       "a malformed message arrived on the event channel");
		goto out;
	}
	copy_clean(action, sizeof action, a, (size_t)(s1 - a));
	copy_clean(rule, sizeof rule, s1 + 1, (size_t)(s2 - s1 - 1));
	copy_clean(detail, sizeof detail, s2 + 1, (size_t)(end - s2 - 1));
	if (!sbx_rule_known(rule)) {
		snprintf(why, sizeof why, "a record named a rule the sandbox does not have: '%.60s' (%.60s)",
			 rule, action);
		rc = add_event(f, "forged_event", SBX_R_FORGED, why);
		goto out;
	}
	rc = add_event(f, action, rule, detail);
out:
	return rc;
}

/* The descriptor a message carries (SCM_RIGHTS), or -1. Any beyond the first is closed. */
static int passed_fd(struct msghdr *mh)
{
	int fd = -1;

	for (struct cmsghdr *c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		for (size_t i = 0; i < (c->cmsg_len - CMSG_LEN(0)) / sizeof(int); i++) {
			int got;

			memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof got);
			if (fd < 0)
				fd = got;
			else
				close(got);
		}
	}
	return fd;
}

/* The setup's scratch descriptor, when it is the channel's first message and says so; anything
 * else carrying a descriptor is a forgery (the descriptor closed). Returns 0, or -1 as
 * add_event. */
static int take_passed(struct sbx_flight *f, int fd, const char *msg, size_t len, bool first)
{
	if (first && f->scratch_fd < 0 && len == sizeof SBX_SCRATCH_MSG - 1 &&
	    memcmp(msg, SBX_SCRATCH_MSG, len) == 0) {
		f->scratch_fd = fd;
		return 0;
	}
	close(fd);
	return add_event(f, "forged_event", SBX_R_FORGED, "a descriptor arrived on the event channel");
}

int sbx_flight_channel(int ev[2])
{
	int e;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ev) < 0)
		return -1;
	if (setsockopt(ev[0], SOL_SOCKET, SO_PASSCRED, &(int){ 1 }, sizeof(int)) == 0)
		return 0;
	e = errno;
	sbx_close_fd(&ev[0]);
	sbx_close_fd(&ev[1]);
	errno = e;
	return -1;
}

/* Takes every waiting event message; closes the channel once every writer has gone. Returns 0,
 * or -1 when an event could not be recorded. */
int sbx_flight_read_events(struct sbx_flight *f)
{
	char msg[SBX_EVENT_MAX + 1];
	/* The sender's credentials (SO_PASSCRED on this end, sbx_flight_channel) and one descriptor. */
	char ctl[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int))];
	int rc = 0;

	while (rc == 0) {
		struct iovec iov = { msg, sizeof msg };
		struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
				     .msg_controllen = sizeof ctl };
		ssize_t got = recvmsg(f->ev_r, &mh, MSG_DONTWAIT | MSG_TRUNC | MSG_CMSG_CLOEXEC);
		bool first = !f->ev_seen;
		int fd;

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got >= 0)
			f->ev_seen = true;
		fd = got >= 0 ? passed_fd(&mh) : -1;
		if (fd >= 0) {
			rc = take_passed(f, fd, msg, (size_t)got < sizeof msg ? (size_t)got : sizeof msg, first);
			continue;
		}
		/* An upload can send an empty message, which reads as 0 bytes like the end of the
		 * channel; closing on it would let one write hide every later refusal. Every message
		 * carries its sender's credentials, so a 0-byte read without them is the end, and
		 * one with them a message, whatever the run did before it exited. */
		if (got == 0 && (mh.msg_controllen > 0 || (mh.msg_flags & MSG_CTRUNC))) {
			rc = take_event(f, msg, 0);
			continue;
		}
		if (got <= 0) {
			sbx_close_fd(&f->ev_r);
			break;
		}
		rc = take_event(f, msg, (size_t)got < sizeof msg ? (size_t)got : sizeof msg);
	}
	return rc;
}

/* How full the run's scratch was when it ended, read by the driver through the descriptor the
 * setup sent, so no signal the run can block or ignore decides whether an overrun is on record:
 * the tmpfs is the budget (a file reaches the file size limit just as it fills it). Returns 0,
 * or -1 as add_event. */
static int judge_scratch(struct sbx_flight *f, const struct sbx_limits *lim)
{
	struct statfs st;
	char detail[160];
	int rc = 0;

	if (f->scratch_fd < 0)
		return 0;
	if (fstatfs(f->scratch_fd, &st) == 0 && (st.f_bfree == 0 || st.f_ffree == 0))
		rc = add_event(f, "scratch_full", SBX_R_SCRATCH,
			       sa_fmt(detail, sizeof detail, "scratch was full when the run ended (%s of its %d MB "
				      "budget), read from outside the run", st.f_bfree == 0 ? "every byte" :
				      "every file slot", lim->scratch_mb));
	sbx_close_fd(&f->scratch_fd);
	return rc;
}

/* Writes the next piece of the bars: t, then the five price columns, each n values, then the
 * length of the keyword arguments and their text. */
bool sbx_flight_finished(const struct sbx_flight *f)
{
	return (f->exited || f->failed) && f->out_r < 0 && f->err_r < 0 && f->res_r < 0 && f->ev_r < 0;
}

static char *take_log(struct sbx_buf *b)
{
	char *s = b->p ? b->p : calloc(1, 1);
	/* Logs go into JSON: keep printable ASCII, newlines and tabs, nothing a reader could trip
	 * on (invalid UTF-8, NUL, terminal escapes). */
	for (size_t i = 0; s && i < b->len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (!(c >= 0x20 && c < 0x7f) && c != '\n' && c != '\t')
			s[i] = '?';
	}
	if (s)
		s[b->len] = '\0';
	b->p = NULL;
	return s;
}

_Static_assert((int)SBX_SIGNAL_EVENTS_MAX == (int)DA_SIGNAL_EVENTS_MAX &&
	       (int)SBX_EV_ENTER_LONG == (int)DA_EV_ENTER_LONG && (int)SBX_EV_ENTER_SHORT == (int)DA_EV_ENTER_SHORT &&
	       (int)SBX_EV_EXIT_LONG == (int)DA_EV_EXIT_LONG && (int)SBX_EV_EXIT_SHORT == (int)DA_EV_EXIT_SHORT &&
	       (int)SBX_EV_LONG_SIGNAL == (int)DA_EV_LONG_SIGNAL,
	       "the wire's events are the readers' (signals.h)");

/* Not -1, 0, 1 nor SBX_SIGNAL_NAN; with entries (a shims zygote's run), not -1 to
 * SBX_SIGNAL_EVENTS_MAX either (a position and its events, sbx_proto.h). */
static inline bool bad_signal(int8_t v, bool entries)
{
	int top = entries ? SBX_SIGNAL_EVENTS_MAX : 1;

	return (v < -1 || v > top) && v != SBX_SIGNAL_NAN;
}

/* Whether any of the n values is bad. Blocks of a fixed size with no early exit: the compiler
 * takes each block many bytes at a time (a million-bar result is checked in every run). */
#define SIGNAL_BLOCK 64
static bool any_bad_signal(const char *p, size_t n, bool entries)
{
	unsigned char any = 0;
	size_t i = 0;

	for (; i + SIGNAL_BLOCK <= n; i += SIGNAL_BLOCK)
		for (size_t k = 0; k < SIGNAL_BLOCK; k++)
			any |= (unsigned char)bad_signal((int8_t)p[i + k], entries);
	for (; i < n; i++)
		any |= (unsigned char)bad_signal((int8_t)p[i], entries);
	return any != 0;
}

/* The n values into out, each NaN or None (SBX_SIGNAL_NAN) as 0; returns how many those were.
 * Blocks as above. */
static size_t copy_signals(int8_t *restrict out, const char *restrict p, size_t n)
{
	size_t i = 0, nans = 0;

	for (; i + SIGNAL_BLOCK <= n; i += SIGNAL_BLOCK) {
		unsigned char block = 0;

		for (size_t k = 0; k < SIGNAL_BLOCK; k++) {
			int8_t v = (int8_t)p[i + k];

			out[i + k] = v == SBX_SIGNAL_NAN ? 0 : v;
			block += (unsigned char)(v == SBX_SIGNAL_NAN);
		}
		nans += block;
	}
	for (; i < n; i++) {
		int8_t v = (int8_t)p[i];

		out[i] = v == SBX_SIGNAL_NAN ? 0 : v;
		nans += v == SBX_SIGNAL_NAN;
	}
	return nans;
}

/* The tag table's names at p (the count, then each name, sbx_proto.h) into r, *used the bytes
 * they took. Returns 0, or -1 with the reason in r->error. */
static int take_tag_names(struct sbx_result *r, const unsigned char *p, size_t len, size_t *used)
{
	size_t k = len > 1 ? p[1] : 0, at = 2;

	if (k < 1 || k > SBX_TAGS_MAX) {
		sa_fmt(r->error, sizeof r->error, "the tag table holds %zu names (1 to %d)", k, SBX_TAGS_MAX);
		return -1;
	}
	if (!(r->tag_names = calloc(k, sizeof *r->tag_names))) {
		sa_fmt(r->error, sizeof r->error, "out of memory");
		return -1;
	}
	r->n_tags = k;
	for (size_t i = 0; i < k; i++) {
		size_t m = at < len ? p[at] : 0;

		if (m < 1 || m > SBX_TAG_NAME_MAX || at + 1 + m > len) {
			sa_fmt(r->error, sizeof r->error, "tag %zu of the table is not 1 to %d bytes long",
			       i + 1, SBX_TAG_NAME_MAX);
			return -1;
		}
		for (size_t c = 0; c < m; c++)
			if (p[at + 1 + c] < 0x20 || p[at + 1 + c] > 0x7e) {
				sa_fmt(r->error, sizeof r->error, "tag %zu of the table holds the byte 0x%02x, "
				       "not printable ASCII", i + 1, p[at + 1 + c]);
				return -1;
			}
		memcpy(r->tag_names[i], p + at + 1, m);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->tag_names[j], r->tag_names[i])) {
				sa_fmt(r->error, sizeof r->error, "tags %zu and %zu of the table are the same "
				       "name", j + 1, i + 1);
				return -1;
			}
		at += 1 + m;
	}
	*used = at;
	return 0;
}

/* The tag table after a framework run's n values (sbx_proto.h), p[0] its mark, into r's tags;
 * *used the bytes it took. A run that may not carry events, a table that is not exactly what
 * sbx_proto.h says, an index past its names: -1 with the reason in r->error, nothing kept. */
static int take_tags(struct sbx_flight *f, const unsigned char *p, size_t len, size_t *used)
{
	struct sbx_result *r = f->r;
	size_t at = 0;

	if (!f->entries) {
		sa_fmt(r->error, sizeof r->error, "the result carries a tag table, which only a framework "
		       "class's run may");
		return -1;
	}
	if (take_tag_names(r, p, len, &at) < 0)
		goto bad;
	if (len - at < 2 * f->n) {
		sa_fmt(r->error, sizeof r->error, "the tag table holds %zu tag bytes for %zu bars",
		       len - at, f->n);
		goto bad;
	}
	for (size_t i = 0; i < 2 * f->n; i++)
		if (p[at + i] > r->n_tags) {
			sa_fmt(r->error, sizeof r->error, "the %s tag of bar %zu is %u, past the table's %zu names",
			       i < f->n ? "entry" : "exit", i % (f->n ? f->n : 1), p[at + i], r->n_tags);
			goto bad;
		}
	if (!(r->tag_enter = malloc(f->n ? f->n : 1)) || !(r->tag_exit = malloc(f->n ? f->n : 1))) {
		sa_fmt(r->error, sizeof r->error, "out of memory");
		goto bad;
	}
	memcpy(r->tag_enter, p + at, f->n);
	memcpy(r->tag_exit, p + at + f->n, f->n);
	*used = at + 2 * f->n;
	return 0;
bad:
	free(r->tag_names);
	free(r->tag_enter);
	r->tag_names = NULL;
	r->tag_enter = NULL;
	r->n_tags = 0;
	return -1;
}

/* Takes an 'R' payload: exactly n bytes, each -1, 0 or 1, copied to r->signals, or
 * SBX_SIGNAL_NAN (the output's NaN or None), counted in r->nan_as_flat and taken as 0; then a
 * framework run's tag table (take_tags) when one follows, then, when there is one, the declared
 * search's size (1 to SBX_SEARCH_MAX) into r->declared_search. */
static void take_signals(struct sbx_flight *f, const char *p, size_t len)
{
	struct sbx_result *r = f->r;
	size_t bad = f->n, used = 0, tail = len > f->n ? len - f->n : 0;
	uint32_t search;

	r->status = SBX_BAD_OUTPUT;
	if (len < f->n) {
		sa_fmt(r->error, sizeof r->error, "the result holds %zu values for %zu bars", len, f->n);
		goto out;
	}
	/* a table is at least 6 bytes with one bar, so 4 after the values are the search alone */
	if (tail && tail != sizeof search) {
		if (p[f->n] != SBX_TAGS_MARK) {
			sa_fmt(r->error, sizeof r->error, "the result holds %zu values for %zu bars", len, f->n);
			goto out;
		}
		if (take_tags(f, (const unsigned char *)p + f->n, tail, &used) < 0)
			goto out;
		tail -= used;
		if (tail != 0 && tail != sizeof search) {
			sa_fmt(r->error, sizeof r->error, "the result holds %zu bytes after its tag table", tail);
			goto out;
		}
	}
	if (tail == sizeof search) {
		memcpy(&search, p + f->n + used, sizeof search);
		if (search < 1 || search > SBX_SEARCH_MAX) {
			sa_fmt(r->error, sizeof r->error, "the declared search of %u combinations is out of "
			       "range (1 to %u)", search, SBX_SEARCH_MAX);
			goto out;
		}
		r->declared_search = (long)search;
	}
	/* one pass that can run many bytes at a time; the first bad value is looked for only when
	 * there is one */
	if (any_bad_signal(p, f->n, f->entries))
		for (size_t i = 0; i < f->n && bad == f->n; i++)
			if (bad_signal((int8_t)p[i], f->entries))
				bad = i;
	if (bad < f->n) {
		sa_fmt(r->error, sizeof r->error, "value %d at bar %zu is not -1, 0 or 1", (int8_t)p[bad], bad);
		goto out;
	}
	r->signals = malloc(f->n ? f->n : 1);
	if (!r->signals) {
		r->status = SBX_ERROR;
		sa_fmt(r->error, sizeof r->error, "out of memory");
		goto out;
	}
	r->nan_as_flat = copy_signals(r->signals, p, f->n);
	r->entries = f->entries;
	r->status = SBX_OK;
out:
	return;
}

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
static int take_call(struct sbx_flight *f, size_t k, const char *q, int8_t v)
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

/* The k-th answer of a live stream at q: its number and its value. */
static uint32_t answer_seq(const char *q)
{
	uint32_t seq;

	memcpy(&seq, q, sizeof seq);
	return seq;
}

enum sbx_live_step sbx_flight_live_step(struct sbx_flight *f)
{
	const char *p = f->res.p;
	size_t len = f->res.len;

	if (f->live_stopped || f->live_bad[0])
		return f->live_bad[0] ? SBX_LIVE_BROKEN : SBX_LIVE_WAIT;
	if (len == 0 || p[0] != SBX_TAG_LIVE)
		return SBX_LIVE_WAIT;  /* nothing yet, or a result of another kind: judged at the end */
	for (; f->live_scanned + sizeof(uint32_t) <= len - 1; f->live_scanned += f->live_ab) {
		const char *q = p + 1 + f->live_scanned;
		size_t k = f->live_scanned / f->live_ab;
		uint32_t seq = answer_seq(q);
		int8_t v;

		if (seq == SBX_LIVE_STOP) {
			f->live_stopped = true;
			return SBX_LIVE_WAIT;
		}
		if (f->live_scanned + f->live_ab > len - 1)
			break;  /* the rest of this answer is still on its way */
		v = (int8_t)q[f->live_ab - 1];
		if (k > f->live_sent) {
			sa_fmt(f->live_bad, sizeof f->live_bad, "the live run answered for bar %zu before it was "
			       "sent (answer %zu of %zu)", f->live_next, k + 1, f->n);
			return SBX_LIVE_BROKEN;
		}
		if (seq != k) {
			sa_fmt(f->live_bad, sizeof f->live_bad, "the live run's answer %zu was numbered %u: an "
			       "answer given twice or out of turn", k + 1, seq);
			return SBX_LIVE_BROKEN;
		}
		if (bad_signal(v, f->entries) && v != SBX_LIVE_RAISED) {
			sa_fmt(f->live_bad, sizeof f->live_bad, "the live run answered %d for bar %zu: not -1, 0 or 1",
			       v, f->live_next - 1);
			return SBX_LIVE_BROKEN;
		}
		if (f->calls && take_call(f, k, q + sizeof seq, v) < 0)
			return SBX_LIVE_BROKEN;
	}
	if (f->live_scanned / f->live_ab < f->live_sent + 1)
		return SBX_LIVE_WAIT;
	if (f->live_sent == f->live_total)
		return SBX_LIVE_END;
	/* the bar before is answered: it must have been written whole, on a feed still open */
	if (f->pend_off < f->pend_len || f->data_w < 0) {
		sa_fmt(f->live_bad, sizeof f->live_bad, "the live run answered for bar %zu before its feed "
		       "took that bar whole", f->live_next - 1);
		return SBX_LIVE_BROKEN;
	}
	return SBX_LIVE_FEED;
}

/* A live run's decisions, whatever its status: the answers in turn before the stream's stop (or
 * end), up to n and never past the last bar sent, each checked as an 'R' payload's value (or
 * SBX_LIVE_RAISED, kept as it is), into r->signals (n long, zero past them) and r->decided. Returns the offset in p where the answers
 * in turn end (len when every byte was one). */
static size_t take_live(struct sbx_flight *f, const char *p, size_t len)
{
	struct sbx_result *r = f->r;
	/* the bars written whole: a bar still in the driver's buffer was not sent */
	size_t sent = f->live_sent - (f->pend_off < f->pend_len ? 1 : 0);
	size_t k = 0, most = sent + 1 < f->n ? sent + 1 : f->n;

	free(r->signals);
	r->signals = calloc(f->n ? f->n : 1, 1);
	r->decided = 0;
	if (!r->signals)
		return len;
	for (; (k + 1) * f->live_ab <= len && k < most; k++) {
		const char *q = p + k * f->live_ab;
		int8_t v = (int8_t)q[f->live_ab - 1];

		if (answer_seq(q) != k || (bad_signal(v, f->entries) && v != SBX_LIVE_RAISED))
			break;
		if (f->calls && take_call(f, k, q + sizeof(uint32_t), v) < 0)
			break;
		r->signals[k] = v == SBX_SIGNAL_NAN ? 0 : v;
		r->nan_as_flat += v == SBX_SIGNAL_NAN;
	}
	r->decided = k;
	r->entries = f->entries;
	return k * f->live_ab;
}

static int judge_result(struct sbx_flight *f, const struct sbx_limits *lim);

/* Judges a live stream: every decision answered, or why not (the stream's own error after its
 * stop, a broken wire, an end before the last bar). Returns 0, or -1 as add_event. */
static int judge_live(struct sbx_flight *f, const struct sbx_limits *lim, const char *p, size_t len)
{
	struct sbx_result *r = f->r;
	size_t at = take_live(f, p, len), stop = SBX_LIVE_ANSWER_BYTES;
	int rc = 0;

	if (!r->signals) {
		r->status = SBX_ERROR;
		sa_fmt(r->error, sizeof r->error, "out of memory");
	} else if (f->live_bad[0]) {
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "%s", f->live_bad);
	} else if (at + stop < len && answer_seq(p + at) == SBX_LIVE_STOP) {
		/* the tail is an ordinary result: judged as one, the decisions kept */
		int8_t *sig = r->signals;
		size_t decided = r->decided, nans = r->nan_as_flat;
		struct sbx_buf whole = f->res;

		r->signals = NULL;
		f->res.p = (char *)p + at + stop;
		f->res.len = len - at - stop;
		f->live = false;  /* the tail is judged as any run's result */
		rc = judge_result(f, lim);
		f->live = true;
		f->res = whole;
		if (r->status == SBX_OK) {
			r->status = SBX_BAD_OUTPUT;  /* a second result inside a live stream */
			sa_fmt(r->error, sizeof r->error, "the live run sent a whole result inside its stream");
		}
		free(r->signals);
		r->signals = sig;
		r->decided = decided;
		r->nan_as_flat = nans;
	} else if (at < len) {
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "the live run sent %zu bytes that are no answer in turn after "
		       "its %zu decisions", len - at, r->decided);
	} else if (r->decided < f->n) {
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "the live run ended after %zu of %zu decisions (exit status %d)",
		       r->decided, f->n, WEXITSTATUS(f->wstatus));
	} else {
		r->status = SBX_OK;
	}
	return rc;
}

/* Validates what came back: a tag, then signals or a text. Returns 0, or -1 when the event it
 * earns could not be recorded. */
static int judge_result(struct sbx_flight *f, const struct sbx_limits *lim)
{
	struct sbx_result *r = f->r;
	const char *p = f->res.p;
	size_t len = f->res.len;
	char text[1024], detail[96];
	int rc = 0;

	if (len == 0) {
		/* Quoted, not interpreted: an enum sbx_exit code (SBX_EXIT_NO_FDS, say) or whatever
		 * the upload passed to os._exit. */
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "the run ended without a result (exit status %d)",
		       WEXITSTATUS(f->wstatus));
		goto out;
	}
	copy_clean(text, sizeof text, p + 1, len - 1);
	switch (p[0]) {
	case SBX_TAG_RESULT:
		if (f->live) {
			r->status = SBX_BAD_OUTPUT;
			sa_fmt(r->error, sizeof r->error, "a live run sent a whole result, not one answer a bar");
			break;
		}
		take_signals(f, p + 1, len - 1);
		break;
	case SBX_TAG_LIVE:
		if (!f->live) {
			r->status = SBX_BAD_OUTPUT;
			sa_fmt(r->error, sizeof r->error, "a run sent a live stream it was not asked for");
			break;
		}
		rc = judge_live(f, lim, p + 1, len - 1);
		break;
	case SBX_TAG_MEMORY:
		r->status = SBX_KILLED_MEMORY;
		sa_fmt(r->error, sizeof r->error, "%s", text);
		rc = add_event(f, "memory", SBX_R_MEMORY,
			       sa_fmt(detail, sizeof detail, "allocation refused at the %d MB limit", lim->mem_mb));
		break;
	case SBX_TAG_BAD:
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "%s", text);
		break;
	default:
		r->status = SBX_ERROR;
		sa_fmt(r->error, sizeof r->error, "%s", text);
		break;
	}
out:
	return rc;
}

/* Fills the run's result from how it ended and frees the slot. Returns 0, or -1 when an event
 * it earned could not be recorded (the result is filled all the same). */
int sbx_flight_judge(struct sbx_flight *f, const struct sbx_limits *lim)
{
	struct sbx_result *r = f->r;
	char detail[96];
	int rc = 0;

	r->wall_ms = sbx_now_ms() - f->start;
	r->out_log = take_log(&f->out);
	r->err_log = take_log(&f->err);
	if (f->failed) {
		r->status = SBX_NOT_RUN;
		sa_fmt(r->error, sizeof r->error, "the zygote could not start the run, '%s'", strerror(f->fail_errno));
	} else if (f->cut) {
		/* Stopped by the batch's time budget, not by anything the run did: not judged, but
		 * what it recorded before is kept. */
		r->status = SBX_NOT_RUN;
		sa_fmt(r->error, sizeof r->error, "cut short: the time budget ran out during this run");
	} else if (f->killed_wall) {
		r->status = SBX_KILLED_WALL_CLOCK;
		sa_fmt(r->error, sizeof r->error, "killed at the wall-clock limit of %d s", lim->wall_s);
		rc = add_event(f, "wall_clock", SBX_R_WALL,
			       sa_fmt(detail, sizeof detail, "killed after %d s", lim->wall_s));
	} else if (WIFSIGNALED(f->wstatus) && WTERMSIG(f->wstatus) == SIGKILL && f->oom_kills >= 0 &&
		   sbx_cgroup_oom_kills(f->cg) > f->oom_kills) {
		/* The cgroup's own event: the kernel killed a process at the memory limit. */
		r->status = SBX_KILLED_MEMORY;
		sa_fmt(r->error, sizeof r->error, "killed at the cgroup's resident memory limit");
		rc = add_event(f, "memory", SBX_R_MEMORY,
			       sa_fmt(detail, sizeof detail, "killed by the kernel at the cgroup limit (%d MB a run, resident)",
				      lim->mem_mb));
	} else if (WIFSIGNALED(f->wstatus) && (WTERMSIG(f->wstatus) == SIGXCPU ||
		   (WTERMSIG(f->wstatus) == SIGKILL &&
		    f->cpu_ms * 2 >= (int64_t)(f->live ? SBX_LIVE_CPU_S : lim->cpu_s) * 1000))) {
		/* Nothing but the CPU limit sends SIGKILL here (not us: that is the wall clock), and
		 * rusage lags the kernel's precise count, so half the limit is proof enough. */
		r->status = SBX_KILLED_CPU;
		sa_fmt(r->error, sizeof r->error, "killed at the CPU limit of %d s", lim->cpu_s);
		rc = add_event(f, "cpu_time", SBX_R_CPU,
			       sa_fmt(detail, sizeof detail, "killed after %d CPU seconds", lim->cpu_s));
	} else if (WIFSIGNALED(f->wstatus) && WTERMSIG(f->wstatus) == SIGSYS) {
		r->status = SBX_CRASHED;
		sa_fmt(r->error, sizeof r->error, "killed by the syscall filter");
		rc = add_event(f, "seccomp", SBX_R_NO_KERN,
			       "the kernel filter killed the run (a forbidden call with its handler disabled)");
	} else if (WIFSIGNALED(f->wstatus)) {
		r->status = SBX_CRASHED;
		sa_fmt(r->error, sizeof r->error, "the run died on signal %d (%s) after %lld ms of CPU",
		       WTERMSIG(f->wstatus), strsignal(WTERMSIG(f->wstatus)), (long long)f->cpu_ms);
	} else {
		rc = judge_result(f, lim);
	}
	if (f->live && !r->signals && f->res.len > 1 && f->res.p[0] == SBX_TAG_LIVE)
		(void)take_live(f, f->res.p + 1, f->res.len - 1);  /* what it decided before it ended */
	if (f->live && f->live_bad[0] && r->status != SBX_BAD_OUTPUT) {
		r->status = SBX_BAD_OUTPUT;
		sa_fmt(r->error, sizeof r->error, "%s", f->live_bad);
	}
	if (judge_scratch(f, lim) < 0)
		rc = -1;
	if (r->status != SBX_OK && f->res.len == 0 && r->error[0] == '\0')
		sa_fmt(r->error, sizeof r->error, "no result");
	free(f->res.p);
	f->res.p = NULL;
	f->used = false;
	return rc;
}
