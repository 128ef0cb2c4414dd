/* sbx_driver.c - the host side of runs: feeds each run its bars, enforces the wall clock, and
 * validates everything that comes back. Never runs Python. A data zygote's runs
 * (sbx_drive_prefix.c) go through the same batch; results are released and written in
 * sbx_result.c. */
#include "sbx.h"
#include "sbx_batch.h"
#include "sbx_flight.h"
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

#include "msg.h"

/* The data pipe is grown to this, so feeding a run's bars takes fewer wake-ups than the default
 * 64 KiB; best effort: where refused, the default works, only slower. */
#define DATA_PIPE_BYTES (1 << 20)

/* The driver writes the columns straight from the series, so they must be the wire's width. */
_Static_assert(sizeof(int64_t) == SBX_VALUE_BYTES && sizeof(double) == SBX_VALUE_BYTES,
	       "a bar column value is SBX_VALUE_BYTES on the data pipe");

long sbx_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

void sbx_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

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
			sbx_close_fd(&f->data_w);  /* the run died before reading: its status says why */
			return;
		}
		f->off += (size_t)w;
		if (f->off == total) {
			f->col++;
			f->off = 0;
		}
	}
	sbx_close_fd(&f->data_w);
}

int sbx_send_req(int ctrl, const struct sbx_req *req, const int fds[SBX_RUN_FDS])
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

int sbx_recv_rep(int ctrl, struct sbx_rep *rep, int *fd)
{
	for (;;) {
		union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } u;
		struct iovec iov = { rep, sizeof *rep };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf,
				      .msg_controllen = sizeof u.buf };
		ssize_t got = recvmsg(ctrl, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -1 : 0;
		*fd = -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
				memcpy(fd, CMSG_DATA(c), sizeof *fd);
		if (got == (ssize_t)sizeof *rep && rep->magic == SBX_MAGIC)
			return 1;
		sbx_close_fd(fd);
	}
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
	/* The whole answer fits the result pipe (up to 1 MiB: a million bars), so a run writes it
	 * in one go rather than waiting on the driver to drain each 64 KiB. Grown, never shrunk. */
	if ((size_t)fcntl(res[0], F_GETPIPE_SZ) < n + RESULT_TEXT_MAX + 1)
		(void)fcntl(res[0], F_SETPIPE_SZ,
			    (int)(n + RESULT_TEXT_MAX + 1 < DATA_PIPE_BYTES ? n + RESULT_TEXT_MAX + 1 : DATA_PIPE_BYTES));
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
		sbx_close_fd(&f->data_w);
	{
		struct sbx_req req = { SBX_MAGIC, f->id, n };
		int theirs[SBX_RUN_FDS] = { data[0], out[1], err[1], res[1], ev[1] };
		if (sbx_send_req(z->ctrl, &req, theirs) < 0)
			goto out;
	}
	f->cg = &z->cg;
	f->oom_kills = sbx_cgroup_oom_kills(&z->cg);
	f->start = sbx_now_ms();
	f->deadline = f->start + (long)z->lim.wall_s * 1000L;
	rc = 0;
out:
	sbx_close_fd(&data[0]);
	sbx_close_fd(&data[1]);
	sbx_close_fd(&out[0]);
	sbx_close_fd(&out[1]);
	sbx_close_fd(&err[0]);
	sbx_close_fd(&err[1]);
	sbx_close_fd(&res[0]);
	sbx_close_fd(&res[1]);
	sbx_close_fd(&ev[0]);
	sbx_close_fd(&ev[1]);
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
			sbx_close_fd(&f->pidfd);
			sbx_close_fd(&f->data_w);
		} else if (rep->kind == SBX_REP_FAILED) {
			f->failed = true;
			f->fail_errno = rep->err;
			sbx_close_fd(&f->data_w);
			sbx_close_fd(&f->out_r);
			sbx_close_fd(&f->err_r);
			sbx_close_fd(&f->res_r);
			sbx_close_fd(&f->ev_r);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* Reads every waiting zygote message. Returns -1 when the zygote hung up. */
static int read_ctrl(int ctrl, struct flight *fl, int jobs)
{
	struct sbx_rep rep;
	int pidfd, r;

	while ((r = sbx_recv_rep(ctrl, &rep, &pidfd)) > 0)
		on_reply(fl, jobs, &rep, pidfd);
	return r < 0 && errno == EAGAIN ? 0 : -1;
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
		sbx_close_fd(&f->pidfd);
		sbx_close_fd(&f->data_w);
		sbx_close_fd(&f->out_r);
		sbx_close_fd(&f->err_r);
		sbx_close_fd(&f->res_r);
		sbx_close_fd(&f->ev_r);
		free(f->out.p);
		free(f->err.p);
		free(f->res.p);
		f->used = false;
	}
}

/* What one poll can watch: the zygote's control channel, then the driver's end of each run's
 * SBX_RUN_FDS channels (data, stdout, stderr, result, events). */
#define WATCH_MAX (1 + SBX_MAX_JOBS * SBX_RUN_FDS)

/* One batch (sbx_run_jobs's or sbx_run_prefix's): the runs asked for, the slots in flight, and
 * this turn's poll set. */
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
	long now = sbx_now_ms(), timeout = -1;
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
			sbx_flight_drain(fd, &f->out);
		else if (fd == &f->err_r)
			sbx_flight_drain(fd, &f->err);
		else if (fd == &f->res_r)
			sbx_flight_drain(fd, &f->res);
		else if (fd == &f->ev_r && sbx_flight_read_events(f) < 0) {
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
	long now = sbx_now_ms();
	int rc = 0;

	for (int i = 0; i < b->jobs && rc == 0; i++) {
		struct flight *f = &b->fl[i];
		if (f->used && !f->exited && !f->failed && !f->killed_wall && now >= f->deadline &&
		    f->pidfd >= 0) {
			kill_run(f);
			f->killed_wall = true;
		}
		if (!f->used || !sbx_flight_finished(f))
			continue;
		if (sbx_flight_judge(f, &b->z->lim) < 0) {
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

int sbx_batch_run(struct sbx_zygote *z, const struct sbx_job *job, size_t k, int jobs,
		  struct sbx_result *results, const struct sbx_batch_hooks *hooks, char *err, size_t errlen)
{
	struct batch *b = calloc(1, sizeof *b);
	int rc = -1;

	if (!b) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	b->z = z;
	b->job = job;
	b->results = results;
	b->k = k;
	b->jobs = jobs < 1 ? 1 : jobs > SBX_MAX_JOBS ? SBX_MAX_JOBS : jobs;
	/* The cgroup holds every run at once (a data zygote's runs are in its zygote's): its
	 * budget follows the runs in flight. */
	(void)sbx_cgroup_limit(&hooks->cg_owner->cg, &hooks->cg_owner->lim,
			       (size_t)b->jobs < k ? b->jobs : (int)(k ? k : 1));
	b->on_done = hooks->on_done;
	b->on_result = hooks->on_result;
	b->arg = hooks->arg;
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

int sbx_run_jobs(struct sbx_zygote *z, const struct sbx_job *job, size_t k, int jobs,
		 struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen)
{
	const struct sbx_batch_hooks hooks = { .cg_owner = z, .on_done = on_done, .arg = arg };

	/* Zeroed first, so a failure anywhere below can release every one of them. */
	memset(results, 0, k * sizeof *results);
	for (size_t i = 0; i < k; i++)
		if (!job[i].s || job[i].n_visible > job[i].s->n) {
			sa_fmt(err, errlen, "a run asked for %zu bars of %zu", job[i].n_visible,
			       job[i].s ? job[i].s->n : 0);
			return -1;
		} else if (job[i].params && strlen(job[i].params) > SBX_PARAMS_MAX) {
			sa_fmt(err, errlen, "run %zu's keyword arguments exceed %d bytes", i, SBX_PARAMS_MAX);
			return -1;
		}
	return sbx_batch_run(z, job, k, jobs, results, &hooks, err, errlen);
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

int sbx_run(struct sbx_zygote *z, const struct sa_ohlcv *s, size_t n_visible,
	    struct sbx_result *r, char *err, size_t errlen)
{
	return sbx_run_many(z, s, &n_visible, 1, 1, r, NULL, NULL, err, errlen);
}

