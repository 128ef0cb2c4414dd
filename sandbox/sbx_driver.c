/* sbx_driver.c - the host side of runs: feeds each run its bars, enforces the wall clock, and
 * validates everything that comes back. Never runs Python. */
#include "sbx.h"
#include "sbx_launch.h"
#include "sbx_proto.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "fileio.h"
#include "msg.h"

#define LOG_CAP ((size_t)64 * 1024)  /* bytes kept of a run's stdout, and of its stderr */
#define MAX_EVENTS 256                /* events kept per run; one more says the rest were dropped */
#define EVENTS_FIRST_CAP 8            /* events room for at first; most runs record none or a few */
/* What a result may hold past its n signal bytes: the tag, or an error text (cut to
 * sizeof r->error when judged). */
#define RESULT_TEXT_MAX 1024
/* The data pipe is grown to this, so feeding a run's bars takes fewer wake-ups than the default
 * 64 KiB; best effort: where refused, the default works, only slower. */
#define DATA_PIPE_BYTES (1 << 20)
#define DRAIN_CHUNK 16384             /* bytes per read() from a run's pipe */

/* The driver writes the columns straight from the series, so they must be the wire's width. */
_Static_assert(sizeof(int64_t) == SBX_VALUE_BYTES && sizeof(double) == SBX_VALUE_BYTES,
	       "a bar column value is SBX_VALUE_BYTES on the data pipe");

const char *sbx_status_name(enum sbx_status st)
{
	static const char *const names[] = { "ok", "error", "killed_wall_clock", "killed_memory",
		"killed_cpu", "crashed", "bad_output", "not_run" };
	return (unsigned)st < sizeof names / sizeof names[0] ? names[st] : "error";
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* --- one run in flight --------------------------------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
	bool truncated;
};

struct flight {
	bool used;
	size_t idx;
	uint32_t id;
	size_t n;
	int data_w, out_r, err_r, res_r, ev_r, pidfd;
	int col;
	size_t off;
	const char *params;   /* borrowed JSON text of the keyword arguments, or NULL */
	uint32_t params_len;
	long start, deadline;
	bool exited, killed_wall, failed;
	int wstatus, fail_errno;
	int64_t cpu_ms;
	long long oom_kills;       /* the cgroup's count when the run started (-1: no cgroup) */
	const struct sbx_cgroup *cg;
	struct buf out, err, res;
	struct sbx_result *r;
	size_t ev_cap;
	bool ev_overflow;
};

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* Reads what is there into b, keeping at most b->cap bytes; the rest is drained and dropped.
 * Closes *fd at end of file. */
static void drain(int *fd, struct buf *b)
{
	char tmp[DRAIN_CHUNK];
	for (;;) {
		ssize_t got = read(*fd, tmp, sizeof tmp);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			close_fd(fd);
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
static int read_events(struct flight *f)
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
			close_fd(&f->ev_r);
			break;
		}
		rc = take_event(f, msg, (size_t)got < sizeof msg ? (size_t)got : sizeof msg);
	}
	return rc;
}

/* Writes the next piece of the bars: t, then the five price columns, each n values, then the
 * length of the keyword arguments and their text. */
static void feed(struct flight *f, const struct sa_ohlcv *s)
{
	/* the bar columns, then the keyword arguments' length and text */
	const void *cols[SBX_BAR_COLUMNS + 2] = { s->t, s->open, s->high, s->low, s->close, s->volume,
						  &f->params_len, f->params };
	while (f->data_w >= 0 && f->col < SBX_BAR_COLUMNS + 2) {
		size_t total = f->col < SBX_BAR_COLUMNS ? f->n * SBX_VALUE_BYTES :
			       f->col == SBX_BAR_COLUMNS ? sizeof f->params_len : f->params_len;
		ssize_t w = total == f->off ? 0 :
			write(f->data_w, (const char *)cols[f->col] + f->off, total - f->off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w < 0) {
			close_fd(&f->data_w);  /* the run died before reading: its status says why */
			return;
		}
		f->off += (size_t)w;
		if (f->off == total) {
			f->col++;
			f->off = 0;
		}
	}
	close_fd(&f->data_w);
}

static int send_req(int ctrl, const struct sbx_req *req, const int fds[SBX_RUN_FDS])
{
	union { char buf[CMSG_SPACE(sizeof(int) * SBX_RUN_FDS)]; struct cmsghdr align; } u;
	struct iovec iov = { (void *)req, sizeof *req };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof u.buf };
	struct cmsghdr *c;

	memset(&u, 0, sizeof u);
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int) * SBX_RUN_FDS);
	memcpy(CMSG_DATA(c), fds, sizeof(int) * SBX_RUN_FDS);
	return sendmsg(ctrl, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof *req ? 0 : -1;
}

static int launch(struct sbx_zygote *z, struct flight *f, size_t idx, size_t n, const char *params,
		  struct sbx_result *r)
{
	int data[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, res[2] = { -1, -1 };
	int ev[2] = { -1, -1 }, rc = -1;

	memset(f, 0, sizeof *f);
	memset(r, 0, sizeof *r);
	f->used = true;
	f->idx = idx;
	f->n = n;
	f->params = params;
	f->params_len = params ? (uint32_t)strlen(params) : 0;
	f->r = r;
	f->id = z->next_id++;
	/* -1 until the channels exist: a failure below must not have abandon() close fd 0. */
	f->data_w = f->out_r = f->err_r = f->res_r = f->ev_r = f->pidfd = -1;
	r->n = n;
	f->out.cap = f->err.cap = LOG_CAP;
	f->res.cap = n + RESULT_TEXT_MAX;
	if (pipe2(data, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    pipe2(res, O_CLOEXEC) < 0 || socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ev) < 0)
		goto out;
	(void)fcntl(data[1], F_SETPIPE_SZ, DATA_PIPE_BYTES);
	f->data_w = data[1];
	f->out_r = out[0];
	f->err_r = err[0];
	f->res_r = res[0];
	f->ev_r = ev[0];
	data[1] = out[0] = err[0] = res[0] = ev[0] = -1;
	int mine[SBX_RUN_FDS] = { f->data_w, f->out_r, f->err_r, f->res_r, f->ev_r };
	for (int i = 0; i < SBX_RUN_FDS; i++)
		(void)fcntl(mine[i], F_SETFL, O_NONBLOCK);
	if (z->rows)
		close_fd(&f->data_w);
	{
		struct sbx_req req = { SBX_MAGIC, f->id, n };
		int theirs[SBX_RUN_FDS] = { data[0], out[1], err[1], res[1], ev[1] };
		if (send_req(z->ctrl, &req, theirs) < 0)
			goto out;
	}
	f->cg = &z->cg;
	f->oom_kills = sbx_cgroup_oom_kills(&z->cg);
	f->start = now_ms();
	f->deadline = f->start + (long)z->lim.wall_s * 1000L;
	rc = 0;
out:
	close_fd(&data[0]);
	close_fd(&data[1]);
	close_fd(&out[0]);
	close_fd(&out[1]);
	close_fd(&err[0]);
	close_fd(&err[1]);
	close_fd(&res[0]);
	close_fd(&res[1]);
	close_fd(&ev[0]);
	close_fd(&ev[1]);
	return rc;
}

static bool finished(const struct flight *f)
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

/* Takes an 'R' payload: exactly n bytes, each -1, 0 or 1, copied to r->signals. */
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
		if ((int8_t)p[i] < -1 || (int8_t)p[i] > 1)
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
	memcpy(r->signals, p, f->n);
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
static int judge(struct flight *f, const struct sbx_limits *lim)
{
	struct sbx_result *r = f->r;
	char detail[96];
	int rc = 0;

	r->wall_ms = now_ms() - f->start;
	r->out_log = take_log(&f->out);
	r->err_log = take_log(&f->err);
	if (f->failed) {
		r->status = SBX_NOT_RUN;
		sa_fmt(r->error, sizeof r->error, "the zygote could not start the run, '%s'", strerror(f->fail_errno));
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

static void on_reply(struct flight *fl, int jobs, const struct sbx_rep *rep, int pidfd)
{
	for (int i = 0; i < jobs; i++) {
		struct flight *f = &fl[i];
		if (!f->used || f->id != rep->id)
			continue;
		if (rep->kind == SBX_REP_STARTED && pidfd >= 0 && f->pidfd < 0) {
			f->pidfd = pidfd;
			pidfd = -1;
		} else if (rep->kind == SBX_REP_EXITED) {
			f->exited = true;
			f->wstatus = rep->wstatus;
			f->cpu_ms = rep->cpu_ms;
			close_fd(&f->pidfd);
			close_fd(&f->data_w);
		} else if (rep->kind == SBX_REP_FAILED) {
			f->failed = true;
			f->fail_errno = rep->err;
			close_fd(&f->data_w);
			close_fd(&f->out_r);
			close_fd(&f->err_r);
			close_fd(&f->res_r);
			close_fd(&f->ev_r);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* Reads every waiting zygote message. Returns -1 when the zygote hung up. */
static int read_ctrl(int ctrl, struct flight *fl, int jobs)
{
	for (;;) {
		struct sbx_rep rep;
		union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
		struct iovec iov = { &rep, sizeof rep };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
				      .msg_controllen = sizeof u.buf };
		int pidfd = -1;
		ssize_t got = recvmsg(ctrl, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return 0;
		if (got <= 0)
			return -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				memcpy(&pidfd, CMSG_DATA(c), sizeof pidfd);
		if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC)
			on_reply(fl, jobs, &rep, pidfd);
		else if (pidfd >= 0)
			close(pidfd);
	}
}

static void kill_run(struct flight *f)
{
	if (f->pidfd >= 0)
		(void)syscall(SYS_pidfd_send_signal, f->pidfd, SIGKILL, NULL, 0);
}

static void abandon(struct flight *fl, int jobs)
{
	for (int i = 0; i < jobs; i++) {
		struct flight *f = &fl[i];
		if (!f->used)
			continue;
		kill_run(f);
		close_fd(&f->pidfd);
		close_fd(&f->data_w);
		close_fd(&f->out_r);
		close_fd(&f->err_r);
		close_fd(&f->res_r);
		close_fd(&f->ev_r);
		free(f->out.p);
		free(f->err.p);
		free(f->res.p);
		f->used = false;
	}
}

/* What one poll can watch: the zygote's control channel, then the driver's end of each run's
 * SBX_RUN_FDS channels (data, stdout, stderr, result, events). */
#define WATCH_MAX (1 + SBX_MAX_JOBS * SBX_RUN_FDS)

/* One sbx_run_jobs call: the runs asked for, the slots in flight, and this turn's poll set. */
struct batch {
	struct sbx_zygote *z;
	const struct sbx_job *job;        /* borrowed: k runs, each its series and bar count */
	struct sbx_result *results;       /* borrowed: k results, filled as runs finish */
	size_t k, next, done;             /* runs asked for, started, finished */
	size_t sent;                      /* bars sent to a data zygote (z->rows) so far */
	int jobs;                         /* slots in use, 1..SBX_MAX_JOBS */
	void (*on_done)(size_t done, size_t total, void *arg);
	sbx_on_result *on_result;         /* sbx_run_prefix's, or NULL */
	void *arg;
	struct flight fl[SBX_MAX_JOBS];
	struct pollfd pf[WATCH_MAX];      /* pf[0] is the control channel */
	struct flight *owner[WATCH_MAX];  /* whose descriptor pf[i] is (NULL for the control) */
	int *fdp[WATCH_MAX];              /* the flight's field that holds it */
	nfds_t n;
};

static void watch(struct batch *b, struct flight *f, int *fd, short ev)
{
	if (*fd < 0)
		return;
	b->pf[b->n] = (struct pollfd){ *fd, ev, 0 };
	b->owner[b->n] = f;
	b->fdp[b->n] = fd;
	b->n++;
}

/* Sends a data zygote the bars up to n (not one more), column by column, in time order.
 * Blocking: the data zygote only ever waits for the driver. Returns 0, or -1 (err says why). */
static int send_bars(struct batch *b, size_t n, char *err, size_t errlen)
{
	const struct sa_ohlcv *s = b->job[b->next].s;  /* one series for every prefix run */
	int rc = 0;

	while (b->sent < n && rc == 0) {
		size_t m = n - b->sent < SBX_BARS_CHUNK ? n - b->sent : SBX_BARS_CHUNK, at = b->sent;
		struct sbx_req req = { SBX_MAGIC_BARS, 0, m };
		struct iovec iov[1 + SBX_BAR_COLUMNS] = {
			{ &req, sizeof req }, { s->t + at, m * SBX_VALUE_BYTES },
			{ s->open + at, m * SBX_VALUE_BYTES }, { s->high + at, m * SBX_VALUE_BYTES },
			{ s->low + at, m * SBX_VALUE_BYTES }, { s->close + at, m * SBX_VALUE_BYTES },
			{ s->volume + at, m * SBX_VALUE_BYTES },
		};
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 1 + SBX_BAR_COLUMNS };
		ssize_t w;

		do
			w = sendmsg(b->z->ctrl, &msg, MSG_NOSIGNAL);
		while (w < 0 && errno == EINTR);
		if (w != (ssize_t)(sizeof req + m * SBX_BAR_BYTES)) {
			sa_fmt(err, errlen, "cannot send bars to the data zygote, '%s'", strerror(errno));
			rc = -1;
		}
		b->sent += m;
	}
	return rc;
}

/* Start: fills every free slot with the next run asked for. Returns 0, or -1 (err says why). */
static int start_runs(struct batch *b, char *err, size_t errlen)
{
	int rc = 0;

	for (int i = 0; i < b->jobs && b->next < b->k && rc == 0; i++) {
		if (b->fl[i].used)
			continue;
		if (b->z->rows && send_bars(b, b->job[b->next].n_visible, err, errlen) < 0) {
			rc = -1;
			break;
		}
		if (launch(b->z, &b->fl[i], b->next, b->job[b->next].n_visible, b->job[b->next].params,
			   &b->results[b->next]) < 0) {
			sa_fmt(err, errlen, "cannot start a run, '%s'", strerror(errno));
			rc = -1;
		}
		b->next++;
	}
	return rc;
}

/* Poll: waits until a descriptor is ready or the nearest wall-clock deadline of a run still
 * going. Returns 0 (an interrupted poll included), or -1 (err says why). */
static int poll_runs(struct batch *b, char *err, size_t errlen)
{
	long now = now_ms(), timeout = -1;
	int rc = 0;

	b->n = 0;
	watch(b, NULL, &b->z->ctrl, POLLIN);
	for (int i = 0; i < b->jobs; i++) {
		struct flight *f = &b->fl[i];
		if (!f->used)
			continue;
		watch(b, f, &f->data_w, POLLOUT);
		watch(b, f, &f->out_r, POLLIN);
		watch(b, f, &f->err_r, POLLIN);
		watch(b, f, &f->res_r, POLLIN);
		watch(b, f, &f->ev_r, POLLIN);
		if (!f->exited && !f->killed_wall) {
			long left = f->deadline - now;
			if (left < 0)
				left = 0;
			if (timeout < 0 || left < timeout)
				timeout = left;
		}
	}
	if (poll(b->pf, b->n, (int)timeout) < 0 && errno != EINTR) {
		sa_fmt(err, errlen, "poll failed, '%s'", strerror(errno));
		rc = -1;
	}
	return rc;
}

/* Dispatch: serves each ready descriptor, the runs' before the zygote's, whose replies may close
 * them. Returns 0, or -1 (err says why). */
static int dispatch(struct batch *b, char *err, size_t errlen)
{
	int rc = 0;

	for (nfds_t i = 1; i < b->n && rc == 0; i++) {
		struct flight *f = b->owner[i];
		int *fd = b->fdp[i];
		if (!b->pf[i].revents || *fd < 0)
			continue;
		if (fd == &f->data_w)
			feed(f, b->job[f->idx].s);
		else if (fd == &f->out_r)
			drain(fd, &f->out);
		else if (fd == &f->err_r)
			drain(fd, &f->err);
		else if (fd == &f->res_r)
			drain(fd, &f->res);
		else if (fd == &f->ev_r && read_events(f) < 0) {
			sa_fmt(err, errlen, "out of memory recording a run's events");
			rc = -1;
		}
	}
	if (rc == 0 && b->pf[0].revents && read_ctrl(b->z->ctrl, b->fl, b->jobs) < 0) {
		sa_fmt(err, errlen, "the sandbox zygote died");
		rc = -1;
	}
	return rc;
}

/* Reap: kills the runs past their wall clock, and judges each run that has ended and sent
 * everything, in slot order. Returns 0, or -1 (err says why). */
static int reap_runs(struct batch *b, char *err, size_t errlen)
{
	long now = now_ms();
	int rc = 0;

	for (int i = 0; i < b->jobs && rc == 0; i++) {
		struct flight *f = &b->fl[i];
		if (f->used && !f->exited && !f->failed && !f->killed_wall && now >= f->deadline &&
		    f->pidfd >= 0) {
			kill_run(f);
			f->killed_wall = true;
		}
		if (!f->used || !finished(f))
			continue;
		if (judge(f, &b->z->lim) < 0) {
			sa_fmt(err, errlen, "out of memory recording a run's events");
			rc = -1;
			continue;
		}
		b->done++;
		if (b->on_result)
			b->on_result(f->idx, &b->results[f->idx], b->done, b->k, b->arg);
		if (b->on_done)
			b->on_done(b->done, b->k, b->arg);
	}
	return rc;
}

int sbx_run_jobs(struct sbx_zygote *z, const struct sbx_job *job, size_t k, int jobs,
		 struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen)
{
	struct batch *b = NULL;
	int rc = -1;

	/* Zeroed first, so a failure anywhere below can release every one of them. */
	memset(results, 0, k * sizeof *results);
	for (size_t i = 0; i < k; i++)
		if (!job[i].s || job[i].n_visible > job[i].s->n) {
			sa_fmt(err, errlen, "a run asked for %zu bars of %zu", job[i].n_visible,
			       job[i].s ? job[i].s->n : 0);
			goto out;
		} else if (job[i].params && strlen(job[i].params) > SBX_PARAMS_MAX) {
			sa_fmt(err, errlen, "run %zu's keyword arguments exceed %d bytes", i, SBX_PARAMS_MAX);
			goto out;
		}
	b = calloc(1, sizeof *b);
	if (!b) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	b->z = z;
	b->job = job;
	b->results = results;
	b->k = k;
	b->jobs = jobs < 1 ? 1 : jobs > SBX_MAX_JOBS ? SBX_MAX_JOBS : jobs;
	/* The cgroup holds every run at once: its budget follows the runs in flight. */
	(void)sbx_cgroup_limit(&z->cg, &z->lim, (size_t)b->jobs < k ? b->jobs : (int)(k ? k : 1));
	b->on_done = on_done;
	b->arg = arg;
	while (b->done < k)
		if (start_runs(b, err, errlen) < 0 || poll_runs(b, err, errlen) < 0 ||
		    dispatch(b, err, errlen) < 0 || reap_runs(b, err, errlen) < 0)
			goto out;
	rc = 0;
out:
	if (rc < 0) {
		if (b)
			abandon(b->fl, b->jobs);
		for (size_t i = 0; i < k; i++)
			sbx_result_release(&results[i]);
	}
	free(b);
	return rc;
}

int sbx_run_many_params(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
			const char *const *params, size_t k, int jobs, struct sbx_result *results,
			void (*on_done)(size_t done, size_t total, void *arg), void *arg,
			char *err, size_t errlen)
{
	struct sbx_job *job = calloc(k ? k : 1, sizeof *job);
	int rc = -1;

	if (!job) {
		memset(results, 0, k * sizeof *results);
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < k; i++)
		job[i] = (struct sbx_job){ .s = s, .n_visible = n_visible[i],
					   .params = params ? params[i] : NULL };
	rc = sbx_run_jobs(z, job, k, jobs, results, on_done, arg, err, errlen);
out:
	free(job);
	return rc;
}

int sbx_run_many(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
		 size_t k, int jobs, struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen)
{
	return sbx_run_many_params(z, s, n_visible, NULL, k, jobs, results, on_done, arg, err, errlen);
}

/* Waits (up to the wall clock) for the zygote's reply of kind to request id; other replies are
 * of no run in flight and are dropped. Returns the pidfd it carried (or 0 when none), or -1. */
static int await_reply(struct sbx_zygote *z, uint32_t id, int kind, char *err, size_t errlen)
{
	long deadline = now_ms() + (long)z->lim.wall_s * 1000L;
	int rc = -1;

	for (;;) {
		struct sbx_rep rep;
		union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
		struct iovec iov = { &rep, sizeof rep };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
				      .msg_controllen = sizeof u.buf };
		struct pollfd pf = { z->ctrl, POLLIN, 0 };
		long left = deadline - now_ms();
		int fd = -1;
		ssize_t got;

		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			sa_fmt(err, errlen, "the zygote did not answer");
			break;
		}
		got = recvmsg(z->ctrl, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (got < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (got <= 0) {
			sa_fmt(err, errlen, "the sandbox zygote died");
			break;
		}
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				memcpy(&fd, CMSG_DATA(c), sizeof fd);
		if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC && rep.id == id &&
		    rep.kind == SBX_REP_FAILED) {
			close_fd(&fd);
			sa_fmt(err, errlen, "the zygote could not start a data zygote, '%s'", strerror(rep.err));
			break;
		}
		if (got == (ssize_t)sizeof rep && rep.magic == SBX_MAGIC && rep.id == id && rep.kind == kind) {
			rc = fd < 0 ? 0 : fd;
			break;
		}
		close_fd(&fd);
	}
	return rc;
}

/* Starts this audit's data zygote: a child of z on a new channel, which *dz then stands for.
 * Returns 0 with dz, *pidfd and the request's *id set, or -1 (err says why). */
static int prefix_open(struct sbx_zygote *z, struct sbx_zygote *dz, int *pidfd, uint32_t *id,
		       char *err, size_t errlen)
{
	int ch[2] = { -1, -1 }, rc = -1;
	struct sbx_req req = { SBX_MAGIC_PREFIX, z->next_id++, 0 };

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch) < 0) {
		sa_fmt(err, errlen, "cannot make the data zygote's channel, '%s'", strerror(errno));
		goto out;
	}
	{
		/* A request has a run's shape: the channel fills every descriptor slot. */
		int theirs[SBX_RUN_FDS] = { ch[1], ch[1], ch[1], ch[1], ch[1] };
		if (send_req(z->ctrl, &req, theirs) < 0) {
			sa_fmt(err, errlen, "cannot ask for a data zygote, '%s'", strerror(errno));
			goto out;
		}
	}
	close_fd(&ch[1]);
	if ((*pidfd = await_reply(z, req.id, SBX_REP_STARTED, err, errlen)) <= 0) {
		if (*pidfd == 0)
			sa_fmt(err, errlen, "the data zygote came without a pidfd");
		goto out;
	}
	*dz = (struct sbx_zygote){ .pid = -1, .ctrl = ch[0], .lim = z->lim, .next_id = 1, .rows = true };
	ch[0] = -1;
	*id = req.id;
	rc = 0;
out:
	close_fd(&ch[0]);
	close_fd(&ch[1]);
	return rc;
}

/* Ends the data zygote: hung up on, it kills what it started and exits; past the wall clock it
 * is killed. The zygote's note that it exited is taken, so the control channel stays clean. */
static void prefix_close(struct sbx_zygote *z, struct sbx_zygote *dz, int pidfd, uint32_t id)
{
	struct pollfd pf = { pidfd, POLLIN, 0 };
	char err[128];

	close_fd(&dz->ctrl);
	if (poll(&pf, 1, z->lim.wall_s * 1000) <= 0)
		(void)syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	close(pidfd);
	(void)await_reply(z, id, SBX_REP_EXITED, err, sizeof err);
}

int sbx_run_prefix(struct sbx_zygote *z, const struct sa_ohlcv *s, const size_t *n_visible,
		   size_t k, int jobs, struct sbx_result *results, sbx_on_result *on_result, void *arg,
		   char *err, size_t errlen)
{
	struct sbx_zygote dz = { .ctrl = -1 };
	struct sbx_job *job = NULL;
	struct batch *b = NULL;
	int pidfd = -1, rc = -1;
	uint32_t dz_id = 0;

	memset(results, 0, k * sizeof *results);
	for (size_t i = 0; i < k; i++)
		if (n_visible[i] > s->n || n_visible[i] == 0 || (i > 0 && n_visible[i] < n_visible[i - 1])) {
			sa_fmt(err, errlen, "run %zu asks for %zu bars of %zu, not in time order", i,
			       n_visible[i], s->n);
			goto out;
		}
	if (s->n > SBX_PREFIX_CAP) {
		sa_fmt(err, errlen, "%zu bars are more than a data zygote holds (%zu)", s->n, SBX_PREFIX_CAP);
		goto out;
	}
	b = calloc(1, sizeof *b);
	job = calloc(k ? k : 1, sizeof *job);
	if (!b || !job) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (prefix_open(z, &dz, &pidfd, &dz_id, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < k; i++)
		job[i] = (struct sbx_job){ .s = s, .n_visible = n_visible[i] };
	/* the data zygote and its runs are in the zygote's cgroup: its budget follows them too */
	(void)sbx_cgroup_limit(&z->cg, &z->lim, jobs < 1 ? 1 : (size_t)jobs < k ? jobs : (int)k);
	b->z = &dz;
	b->job = job;
	b->results = results;
	b->k = k;
	b->jobs = jobs < 1 ? 1 : jobs > SBX_MAX_JOBS ? SBX_MAX_JOBS : jobs;
	b->on_result = on_result;
	b->arg = arg;
	while (b->done < k)
		if (start_runs(b, err, errlen) < 0 || poll_runs(b, err, errlen) < 0 ||
		    dispatch(b, err, errlen) < 0 || reap_runs(b, err, errlen) < 0)
			goto out;
	rc = 0;
out:
	if (rc < 0) {
		if (b)
			abandon(b->fl, b->jobs);
		for (size_t i = 0; i < k; i++)
			sbx_result_release(&results[i]);
	}
	if (pidfd >= 0)
		prefix_close(z, &dz, pidfd, dz_id);
	free(job);
	free(b);
	return rc;
}

int sbx_run(struct sbx_zygote *z, const struct sa_ohlcv *s, size_t n_visible,
	    struct sbx_result *r, char *err, size_t errlen)
{
	return sbx_run_many(z, s, &n_visible, 1, 1, r, NULL, NULL, err, errlen);
}

void sbx_result_release(struct sbx_result *r)
{
	if (!r)
		return;
	free(r->signals);
	free(r->events);
	free(r->out_log);
	free(r->err_log);
	memset(r, 0, sizeof *r);
}

int sbx_events_write(FILE *fp, const struct sbx_result *r, long *seq)
{
	int rc = 0;
	for (size_t i = 0; i < r->n_events && rc == 0; i++) {
		cJSON *o = cJSON_CreateObject();
		char *line = NULL;
		if (!o)
			return -1;
		cJSON_AddNumberToObject(o, "seq", (double)++*seq);
		cJSON_AddStringToObject(o, "action", r->events[i].action);
		cJSON_AddStringToObject(o, "rule", r->events[i].rule);
		cJSON_AddStringToObject(o, "detail", r->events[i].detail);
		line = cJSON_PrintUnformatted(o);
		if (!line || fprintf(fp, "%s\n", line) < 0)
			rc = -1;
		free(line);
		cJSON_Delete(o);
	}
	return rc;
}
