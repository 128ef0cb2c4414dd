/* sbx_flight.c - one run in flight, from the driver's side: what its pipes bring (logs kept up
 * to a cap, events parsed and checked), and the verdict on how it ended. Never trusts a byte
 * of it: every text is cleaned, every count bounded. */
#include "sbx.h"
#include "sbx_batch.h"
#include "sbx_cgroup.h"
#include "sbx_flight.h"
#include "sbx_proto.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "msg.h"

/* Reads what is there into b, keeping at most b->cap bytes; the rest is drained and dropped.
 * Closes *fd at end of file. */
void sbx_flight_drain(int *fd, struct buf *b)
{
	char tmp[DRAIN_CHUNK];
	for (;;) {
		ssize_t got = read(*fd, tmp, sizeof tmp);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			sbx_close_fd(fd);
			return;
		}
		size_t keep = b->len < b->cap ? b->cap - b->len : 0;
		if ((size_t)got > keep)
			b->truncated = true;
		if (keep > (size_t)got)
			keep = (size_t)got;
		if (keep) {
			if (!b->p && !(b->p = malloc(b->cap + 1))) {
				b->truncated = true;
				continue;
			}
			memcpy(b->p + b->len, tmp, keep);
			b->len += keep;
		}
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

/* Appends one event to the run's result. Returns 0, or -1 when there is no memory for it, with
 * the list as it was. A dropped event would under-count what the run tried, so every caller
 * passes the -1 up and the batch fails rather than report a cleaner run than happened. */
static __attribute__((warn_unused_result)) int add_event(struct flight *f, const char *action,
							 const char *rule, const char *detail)
{
	struct sbx_result *r = f->r;
	struct sbx_event *e;
	int rc = -1;

	if (r->n_events == f->ev_cap) {
		size_t cap = f->ev_cap ? f->ev_cap * 2 : EVENTS_FIRST_CAP;
		struct sbx_event *ev = realloc(r->events, cap * sizeof *ev);
		if (!ev)
			goto out;
		r->events = ev;
		f->ev_cap = cap;
	}
	e = &r->events[r->n_events++];
	copy_clean(e->action, sizeof e->action, action, strlen(action));
	copy_clean(e->rule, sizeof e->rule, rule, strlen(rule));
	copy_clean(e->detail, sizeof e->detail, detail, strlen(detail));
	rc = 0;
out:
	return rc;
}

/* One event message from inside. Hostile until parsed: three fields, capped, printable.
 * Returns 0, or -1 when the event could not be recorded (add_event). */
static int take_event(struct flight *f, const char *msg, size_t len)
{
	char action[64], rule[64], detail[256];
	const char *a = msg, *end = msg + len, *s1, *s2;
	int rc = 0;

	if (f->r->n_events >= MAX_EVENTS) {
		if (!f->ev_overflow)
			rc = add_event(f, "events_truncated", "the event log is capped",
				       "more than 256 events; the rest were dropped");
		f->ev_overflow = true;
		goto out;
	}
	s1 = memchr(a, SBX_EVENT_SEP, len);
	s2 = s1 ? memchr(s1 + 1, SBX_EVENT_SEP, (size_t)(end - s1 - 1)) : NULL;
	if (!s1 || !s2 || s1 == a) {
		rc = add_event(f, "forged_event", "the event channel carries sandbox records only",
			       "a malformed message arrived on the event channel");
		goto out;
	}
	copy_clean(action, sizeof action, a, (size_t)(s1 - a));
	copy_clean(rule, sizeof rule, s1 + 1, (size_t)(s2 - s1 - 1));
	copy_clean(detail, sizeof detail, s2 + 1, (size_t)(end - s2 - 1));
	rc = add_event(f, action, rule, detail);
out:
	return rc;
}

/* True once every writer of a SEQPACKET socket has gone: only then is a 0-byte read the end. */
static bool hung_up(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };

	return poll(&p, 1, 0) > 0 && (p.revents & (POLLHUP | POLLRDHUP));
}

/* Takes every waiting event message; closes the channel once every writer has gone. Returns 0,
 * or -1 when an event could not be recorded. */
int sbx_flight_read_events(struct flight *f)
{
	char msg[SBX_EVENT_MAX + 1];
	int rc = 0;

	while (rc == 0) {
		ssize_t got = recv(f->ev_r, msg, sizeof msg, MSG_DONTWAIT | MSG_TRUNC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		/* An upload can send an empty message, which reads as 0 bytes like the end of the
		 * channel; closing on it would let one write hide every later refusal. */
		if (got == 0 && !hung_up(f->ev_r)) {
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

/* Writes the next piece of the bars: t, then the five price columns, each n values, then the
 * length of the keyword arguments and their text. */
bool sbx_flight_finished(const struct flight *f)
{
	return (f->exited || f->failed) && f->out_r < 0 && f->err_r < 0 && f->res_r < 0 && f->ev_r < 0;
}

static char *take_log(struct buf *b)
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

/* Takes an 'R' payload: exactly n bytes, each -1, 0 or 1, copied to r->signals, or
 * SBX_SIGNAL_NAN (the output's NaN or None), counted in r->nan_as_flat and taken as 0. */
static void take_signals(struct flight *f, const char *p, size_t len)
{
	struct sbx_result *r = f->r;
	size_t bad = f->n;

	r->status = SBX_BAD_OUTPUT;
	if (len != f->n) {
		sa_fmt(r->error, sizeof r->error, "the result holds %zu values for %zu bars", len, f->n);
		goto out;
	}
	for (size_t i = 0; i < f->n && bad == f->n; i++)
		if (((int8_t)p[i] < -1 || (int8_t)p[i] > 1) && (int8_t)p[i] != SBX_SIGNAL_NAN)
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
	r->nan_as_flat = 0;
	for (size_t i = 0; i < f->n; i++) {
		bool nan = (int8_t)p[i] == SBX_SIGNAL_NAN;

		r->signals[i] = nan ? 0 : (int8_t)p[i];
		r->nan_as_flat += nan;
	}
	r->status = SBX_OK;
out:
	return;
}

/* Validates what came back: a tag, then signals or a text. Returns 0, or -1 when the event it
 * earns could not be recorded. */
static int judge_result(struct flight *f, const struct sbx_limits *lim)
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
		take_signals(f, p + 1, len - 1);
		break;
	case SBX_TAG_MEMORY:
		r->status = SBX_KILLED_MEMORY;
		sa_fmt(r->error, sizeof r->error, "%s", text);
		rc = add_event(f, "memory", "runs stay within the memory limit",
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
int sbx_flight_judge(struct flight *f, const struct sbx_limits *lim)
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
		rc = add_event(f, "wall_clock", "runs stop at the wall-clock limit",
			       sa_fmt(detail, sizeof detail, "killed after %d s", lim->wall_s));
	} else if (WIFSIGNALED(f->wstatus) && WTERMSIG(f->wstatus) == SIGKILL && f->oom_kills >= 0 &&
		   sbx_cgroup_oom_kills(f->cg) > f->oom_kills) {
		/* The cgroup's own event: the kernel killed a process at the memory limit. */
		r->status = SBX_KILLED_MEMORY;
		sa_fmt(r->error, sizeof r->error, "killed at the cgroup's resident memory limit");
		rc = add_event(f, "memory", "runs stay within the memory limit",
			       sa_fmt(detail, sizeof detail, "killed by the kernel at the cgroup limit (%d MB a run, resident)",
				      lim->mem_mb));
	} else if (WIFSIGNALED(f->wstatus) && (WTERMSIG(f->wstatus) == SIGXCPU ||
		   (WTERMSIG(f->wstatus) == SIGKILL && f->cpu_ms * 2 >= (int64_t)lim->cpu_s * 1000))) {
		/* Nothing but the CPU limit sends SIGKILL here (not us: that is the wall clock), and
		 * rusage lags the kernel's precise count, so half the limit is proof enough. */
		r->status = SBX_KILLED_CPU;
		sa_fmt(r->error, sizeof r->error, "killed at the CPU limit of %d s", lim->cpu_s);
		rc = add_event(f, "cpu_time", "runs stop at the CPU limit",
			       sa_fmt(detail, sizeof detail, "killed after %d CPU seconds", lim->cpu_s));
	} else if (WIFSIGNALED(f->wstatus) && WTERMSIG(f->wstatus) == SIGSYS) {
		r->status = SBX_CRASHED;
		sa_fmt(r->error, sizeof r->error, "killed by the syscall filter");
		rc = add_event(f, "seccomp", "no kernel attack surface",
			       "the kernel filter killed the run (a forbidden call with its handler disabled)");
	} else if (WIFSIGNALED(f->wstatus)) {
		r->status = SBX_CRASHED;
		sa_fmt(r->error, sizeof r->error, "the run died on signal %d (%s) after %lld ms of CPU",
		       WTERMSIG(f->wstatus), strsignal(WTERMSIG(f->wstatus)), (long long)f->cpu_ms);
	} else {
		rc = judge_result(f, lim);
	}
	if (r->status != SBX_OK && f->res.len == 0 && r->error[0] == '\0')
		sa_fmt(r->error, sizeof r->error, "no result");
	free(f->res.p);
	f->res.p = NULL;
	f->used = false;
	return rc;
}
