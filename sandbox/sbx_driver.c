/* sbx_driver.c - the host side of runs: a batch of them, each forked from a data zygote of its
 * slot (sbx_drive_prefix.c), given its keyword arguments, held to the wall clock and the
 * batch's deadline, and everything that comes back validated. Never runs Python. Results are
 * released and written in sbx_result.c. */
#include "sbx.h"
#include "sbx_batch_int.h"
#include "sbx_cgroup_int.h"
#include "sbx_flight_int.h"
#include "sbx_launch_int.h"
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

/* A run's result pipe is grown to its whole answer up to this (a million bars), so it writes
 * its signals in one go; best effort: where refused, the default works, only slower. */
#define RESULT_PIPE_MAX (1 << 20)

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

long sbx_clock_ms(void)
{
	return sbx_now_ms();
}

long sbx_budget_deadline(double budget_s, double share, long long started)
{
	double use = budget_s * share;

	if (started > 0) {
		double left = (double)started + budget_s - (double)time(NULL);
		if (left < use)
			use = left;
	}
	if (use < 0)
		use = 0;
	return sbx_now_ms() + (long)(use * 1000.0);
}

int sbx_parse_started(const char *text, long long *started)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno || end == text || *end || v < 0)
		return -1;
	*started = v;
	return 0;
}

static void kill_run(struct sbx_flight *f);

/* Sends the run its keyword arguments: their length, then their text (its bars it has already);
 * a live run then its window, and after that each bar queued in f->pend. */
static void feed(struct sbx_flight *f)
{
	const void *part[4] = { &f->params_len, f->params, &f->live_window, f->pend };
	int parts = f->live ? 4 : 2;

	while (f->data_w >= 0 && f->col < parts) {
		size_t total = f->col == 0 ? sizeof f->params_len : f->col == 1 ? f->params_len :
			       f->col == 2 ? sizeof f->live_window : f->pend_len;
		ssize_t w;

		if (f->col == 3)
			f->off = f->pend_off;
		if (f->col == 3 && f->off == total)
			return;  /* no bar waiting: the next comes with the run's answer */
		w = total == f->off ? 0 :
			write(f->data_w, (const char *)part[f->col] + f->off, total - f->off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN)
			return;
		if (w < 0) {
			sbx_close_fd(&f->data_w);  /* the run died before reading: its status says why */
			return;
		}
		f->off += (size_t)w;
		if (f->col == 3) {
			f->pend_off = f->off;
			continue;
		}
		if (f->off == total) {
			f->col++;
			f->off = 0;
		}
	}
	sbx_close_fd(&f->data_w);
}

/* A live run answered: queue the next bar (the wall clock starts again for it), end the feed
 * when every bar is answered, or kill a run that broke the wire. */
static void live_pace(struct sbx_flight *f, long wall_ms)
{
	switch (sbx_flight_live_step(f)) {
	case SBX_LIVE_FEED: {
		const struct da_ohlcv *s = f->live_s;
		size_t i = f->live_next++;
		double v[SBX_BAR_COLUMNS - 1] = { s->open[i], s->high[i], s->low[i], s->close[i], s->volume[i] };
		int64_t t = s->t[i];
		size_t at = 0;

		if (f->calls) {
			if (sbx_flight_trade_state(f, i, f->pend) < 0) {
				sa_fmt(f->live_bad, sizeof f->live_bad, "out of memory replaying the trade");
				kill_run(f);
				sbx_close_fd(&f->data_w);
				break;
			}
			at = SBX_LIVE_TRADE_BYTES;
		}
		memcpy(f->pend + at, &t, sizeof t);
		memcpy(f->pend + at + sizeof t, v, sizeof v);
		f->pend_len = at + SBX_LIVE_BAR_BYTES;
		f->pend_off = 0;
		f->live_sent++;
		f->deadline = sbx_now_ms() + wall_ms;
		if (f->batch_deadline > 0 && f->batch_deadline < f->deadline)
			f->deadline = f->cut_at = f->batch_deadline;  /* cut short there, not judged */
		feed(f);
		break;
	}
	case SBX_LIVE_END:
		sbx_close_fd(&f->data_w);
		break;
	case SBX_LIVE_BROKEN:
		kill_run(f);
		sbx_close_fd(&f->data_w);
		break;
	case SBX_LIVE_WAIT:
		break;
	}
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

/* How many values job j's result holds: one a bar it decides. */
static size_t job_answers(const struct sbx_job *j)
{
	if (j->live_end && j->claimed)
		return j->live_end - j->first;
	return j->live_end ? j->live_end - j->n_visible + 1 : j->n_visible - j->first;
}

static int launch(struct sbx_zygote *z, const struct sbx_cgroup *cg, struct sbx_flight *f, size_t idx,
		  const struct sbx_job *j, long deadline, struct sbx_result *r)
{
	size_t n = job_answers(j);
	const char *params = j->params;
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
	f->entries = z->entries;
	f->id = z->next_id++;
	if (j->live_end) {
		f->live = true;
		f->live_window = (uint32_t)j->live_window;
		f->live_s = j->s;
		f->live_next = j->n_visible;
		f->live_total = j->live_end - j->n_visible;
		f->live_first = j->n_visible - 1;
		f->live_ab = SBX_LIVE_ANSWER_BYTES;
		if (j->claimed) {
			/* every bar held at the fork: it decides the first, then one a bar sent */
			f->live_window |= SBX_LIVE_CLAIMED;
			f->live_next = j->first + 1;
			f->live_total = j->live_end - j->first - 1;
			f->live_first = j->first;
		}
	}
	/* -1 until the channels exist: a failure below must not have abandon() close fd 0. */
	f->data_w = f->out_r = f->err_r = f->res_r = f->ev_r = f->pidfd = f->scratch_fd = -1;
	if (j->live_end && j->calls) {
		if (!(r->calls = sbx_calls_new(j->s->n, j->calls)))
			goto out;
		r->calls->costs.market = rp_market_of(j->calls, j->s);
		r->calls->fee_bps = rp_fee_bps(j->calls, r->calls->costs.market);
		f->calls = r->calls;
		f->live_window |= SBX_LIVE_CALLS;
		f->live_ab += SBX_LIVE_CALL_BYTES;
	}
	r->n = n;
	f->out.cap = f->err.cap = LOG_CAP;
	f->res.cap = (f->live ? n * f->live_ab + SBX_LIVE_ANSWER_BYTES : n) + RESULT_TEXT_MAX +
		     (f->entries && !f->live ? 2 * n + SBX_TAGS_TABLE_MAX : 0);
	if (pipe2(data, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    pipe2(res, O_CLOEXEC) < 0 || sbx_flight_channel(ev) < 0)
		goto out;
	/* The whole answer fits the result pipe (up to 1 MiB: a million bars), so a run writes it
	 * in one go rather than waiting on the driver to drain each 64 KiB. Grown, never shrunk. */
	if ((size_t)fcntl(res[0], F_GETPIPE_SZ) < n + RESULT_TEXT_MAX + 1)
		(void)fcntl(res[0], F_SETPIPE_SZ,
			    (int)(n + RESULT_TEXT_MAX + 1 < RESULT_PIPE_MAX ? n + RESULT_TEXT_MAX + 1 : RESULT_PIPE_MAX));
	f->data_w = data[1];
	f->out_r = out[0];
	f->err_r = err[0];
	f->res_r = res[0];
	f->ev_r = ev[0];
	data[1] = out[0] = err[0] = res[0] = ev[0] = -1;
	int mine[SBX_RUN_FDS] = { f->data_w, f->out_r, f->err_r, f->res_r, f->ev_r };
	for (int i = 0; i < SBX_RUN_FDS; i++)
		(void)fcntl(mine[i], F_SETFL, O_NONBLOCK);
	{
		struct sbx_req req = { j->live_end ? SBX_MAGIC_LIVE : SBX_MAGIC, f->id, j->n_visible - j->first };
		int theirs[SBX_RUN_FDS] = { data[0], out[1], err[1], res[1], ev[1] };
		if (sbx_send_req(z->ctrl, &req, theirs) < 0)
			goto out;
	}
	f->cg = cg;
	f->oom_kills = sbx_cgroup_oom_kills(cg);
	f->start = sbx_now_ms();
	f->deadline = f->start + (long)z->lim.wall_s * 1000L;
	/* Past the batch's deadline the run is cut short, not judged at the wall clock. */
	f->cut_at = deadline > 0 && deadline < f->deadline ? deadline : 0;
	f->batch_deadline = deadline;
	if (f->cut_at)
		f->deadline = f->cut_at;
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


static void on_reply(struct sbx_flight *fl, int jobs, const struct sbx_rep *rep, int pidfd)
{
	for (int i = 0; i < jobs; i++) {
		struct sbx_flight *f = &fl[i];
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
static int read_ctrl(int ctrl, struct sbx_flight *fl, int jobs)
{
	struct sbx_rep rep;
	int pidfd, r;

	while ((r = sbx_recv_rep(ctrl, &rep, &pidfd)) > 0)
		on_reply(fl, jobs, &rep, pidfd);
	return r < 0 && errno == EAGAIN ? 0 : -1;
}

static void kill_run(struct sbx_flight *f)
{
	if (f->pidfd >= 0)
		(void)syscall(SYS_pidfd_send_signal, f->pidfd, SIGKILL, NULL, 0);
}

static void abandon(struct sbx_flight *fl, int jobs)
{
	for (int i = 0; i < jobs; i++) {
		struct sbx_flight *f = &fl[i];
		if (!f->used)
			continue;
		kill_run(f);
		sbx_close_fd(&f->pidfd);
		sbx_close_fd(&f->data_w);
		sbx_close_fd(&f->out_r);
		sbx_close_fd(&f->err_r);
		sbx_close_fd(&f->res_r);
		sbx_close_fd(&f->ev_r);
		sbx_close_fd(&f->scratch_fd);
		free(f->out.p);
		free(f->err.p);
		free(f->res.p);
		f->used = false;
	}
}


/* What one poll can watch: each slot's data zygote channel, then the driver's end of each run's
 * SBX_RUN_FDS channels (data, stdout, stderr, result, events). */
#define WATCH_MAX (SBX_MAX_JOBS * (1 + SBX_RUN_FDS))

/* Why a job that never started was not run. */
#define WHY_STOPPED "not run: the check had its answer before this run's turn"
#define WHY_BUDGET "not run: the time budget ran out before this run's turn"

/* One batch: the runs asked for, the slots (slot i runs flight fl[i], forked from sl[i]'s data
 * zygote), and this turn's poll set. */
struct batch {
	struct sbx_zygote *z;             /* the clean zygote: it starts the data zygotes */
	const struct sbx_job *job;        /* borrowed: k runs, each its series and bar count */
	struct sbx_result *results;       /* borrowed: k results, filled as runs finish */
	const struct sbx_batch_opts *o;
	size_t k, started, done;          /* runs asked for, started, finished */
	size_t next[SBX_MAX_JOBS];        /* each slot's next job to look at (with o->slot) */
	bool *begun;                      /* job i was started */
	bool stop;                        /* on_result asked for no further run */
	int jobs;                         /* slots, 1..SBX_MAX_JOBS */
	struct sbx_slot sl[SBX_MAX_JOBS];
	struct sbx_flight fl[SBX_MAX_JOBS];
	struct pollfd pf[WATCH_MAX];
	int slot_of[WATCH_MAX];           /* whose descriptor pf[i] is */
	int *fdp[WATCH_MAX];              /* the field that holds it: a flight's, or a slot's channel */
	nfds_t n;
};

static void watch(struct batch *b, int slot, int *fd, short ev)
{
	if (*fd < 0)
		return;
	b->pf[b->n] = (struct pollfd){ *fd, ev, 0 };
	b->slot_of[b->n] = slot;
	b->fdp[b->n] = fd;
	b->n++;
}

/* The next job slot i may start, or k when it has none left. */
static size_t next_job(struct batch *b, int i)
{
	if (!b->o->slot) {
		while (b->next[0] < b->k && b->begun[b->next[0]])
			b->next[0]++;
		return b->next[0];
	}
	while (b->next[i] < b->k && (b->begun[b->next[i]] || b->o->slot[b->next[i]] != i))
		b->next[i]++;
	return b->next[i];
}

/* Gets slot i's data zygote to hold exactly job j's bars: a fresh one when it has another series,
 * has been sent more, or has forgotten bars the job's window holds. Returns 0, or -1 (err says
 * why). */
static int ready_slot(struct batch *b, int i, const struct sbx_job *j, char *err, size_t errlen)
{
	struct sbx_slot *sl = &b->sl[i];

	if (sl->dz.ctrl >= 0 && (sl->s != j->s || sl->sent > j->n_visible || sl->base > j->first))
		sbx_slot_close(b->z, sl);
	if (sl->dz.ctrl < 0 && sbx_slot_open(b->z, sl, j->s, err, errlen) < 0)
		return -1;
	return sbx_slot_send(sl, j->first, j->n_visible, err, errlen);
}

/* Start: fills every free slot with its next run, unless the batch is stopping or past its
 * deadline. Returns 0, or -1 (err says why). */
static int start_runs(struct batch *b, char *err, size_t errlen)
{
	long deadline = b->o->deadline_ms;

	for (int i = 0; i < b->jobs; i++) {
		size_t j;

		if (b->fl[i].used || b->stop || (deadline > 0 && sbx_now_ms() >= deadline))
			continue;
		if ((j = next_job(b, i)) >= b->k)
			continue;
		if (ready_slot(b, i, &b->job[j], err, errlen) < 0)
			return -1;
		if (launch(&b->sl[i].dz, &b->z->cg, &b->fl[i], j, &b->job[j], deadline, &b->results[j]) < 0) {
			sa_fmt(err, errlen, "cannot start a run, '%s'", strerror(errno));
			return -1;
		}
		b->begun[j] = true;
		b->started++;
	}
	return 0;
}

/* Poll: waits until a descriptor is ready or the nearest deadline of a run still going.
 * Returns 0 (an interrupted poll included), or -1 (err says why). */
static int poll_runs(struct batch *b, char *err, size_t errlen)
{
	long now = sbx_now_ms(), timeout = -1;

	b->n = 0;
	for (int i = 0; i < b->jobs; i++) {
		struct sbx_flight *f = &b->fl[i];

		watch(b, i, &b->sl[i].dz.ctrl, POLLIN);
		if (!f->used)
			continue;
		/* a live run's feed is written when it has answered, not whenever the pipe has room */
		if (!f->live || f->col < 3 || f->pend_off < f->pend_len)
			watch(b, i, &f->data_w, POLLOUT);
		watch(b, i, &f->out_r, POLLIN);
		watch(b, i, &f->err_r, POLLIN);
		watch(b, i, &f->res_r, POLLIN);
		watch(b, i, &f->ev_r, POLLIN);
		if (!f->exited && !f->killed_wall && !f->cut) {
			long left = f->deadline - now;
			if (left < 0)
				left = 0;
			if (timeout < 0 || left < timeout)
				timeout = left;
		}
	}
	if (poll(b->pf, b->n, (int)timeout) < 0 && errno != EINTR) {
		sa_fmt(err, errlen, "poll failed, '%s'", strerror(errno));
		return -1;
	}
	return 0;
}

/* Dispatch: serves each ready descriptor, a run's before its data zygote's, whose replies may
 * close them. Returns 0, or -1 (err says why). */
static int dispatch(struct batch *b, char *err, size_t errlen)
{
	for (nfds_t i = 0; i < b->n; i++) {
		int s = b->slot_of[i], *fd = b->fdp[i];
		struct sbx_flight *f = &b->fl[s];

		if (!b->pf[i].revents || *fd < 0 || fd == &b->sl[s].dz.ctrl)
			continue;
		if (fd == &f->data_w)
			feed(f);
		else if (fd == &f->out_r)
			sbx_flight_drain(fd, &f->out);
		else if (fd == &f->err_r)
			sbx_flight_drain(fd, &f->err);
		else if (fd == &f->res_r) {
			sbx_flight_drain(fd, &f->res);
			if (f->live)
				live_pace(f, (long)b->sl[s].dz.lim.wall_s * 1000L);
		}
		else if (fd == &f->ev_r && sbx_flight_read_events(f) < 0) {
			sa_fmt(err, errlen, "out of memory recording a run's events");
			return -1;
		}
	}
	for (nfds_t i = 0; i < b->n; i++) {
		int s = b->slot_of[i];

		if (b->pf[i].revents && b->fdp[i] == &b->sl[s].dz.ctrl &&
		    read_ctrl(b->sl[s].dz.ctrl, &b->fl[s], 1) < 0) {
			sa_fmt(err, errlen, "a data zygote died");
			return -1;
		}
	}
	return 0;
}

/* Reap: kills the runs past their wall clock (or the batch's deadline: cut short), and judges
 * each run that has ended and sent everything, in slot order. Returns 0, or -1 (err says why). */
static int reap_runs(struct batch *b, char *err, size_t errlen)
{
	long now = sbx_now_ms();

	for (int i = 0; i < b->jobs; i++) {
		struct sbx_flight *f = &b->fl[i];

		if (f->used && !f->exited && !f->failed && !f->killed_wall && !f->cut &&
		    now >= f->deadline && f->pidfd >= 0) {
			kill_run(f);
			if (f->cut_at)
				f->cut = true;
			else
				f->killed_wall = true;
		}
		if (!f->used || !sbx_flight_finished(f))
			continue;
		if (sbx_flight_judge(f, &b->sl[i].dz.lim) < 0) {
			sa_fmt(err, errlen, "out of memory recording a run's events");
			return -1;
		}
		b->done++;
		if (b->o->on_result && b->o->on_result(f->idx, &b->results[f->idx], b->done, b->k, b->o->arg))
			b->stop = true;
		if (b->o->on_done)
			b->o->on_done(b->done, b->k, b->o->arg);
	}
	return 0;
}

/* True while a run is going or one may still start. */
static bool batch_going(struct batch *b)
{
	bool free_slot_with_work = false;
	long deadline = b->o->deadline_ms;

	if (b->done < b->started)
		return true;
	if (b->stop || (deadline > 0 && sbx_now_ms() >= deadline))
		return false;
	for (int i = 0; i < b->jobs && !free_slot_with_work; i++)
		free_slot_with_work = next_job(b, i) < b->k;
	return free_slot_with_work;
}

/* The jobs that never started: not run, and why. */
static void mark_unstarted(struct batch *b)
{
	for (size_t j = 0; j < b->k; j++) {
		if (b->begun[j])
			continue;
		b->results[j].status = SBX_NOT_RUN;
		b->results[j].n = job_answers(&b->job[j]);
		sa_fmt(b->results[j].error, sizeof b->results[j].error, "%s", b->stop ? WHY_STOPPED : WHY_BUDGET);
	}
}

/* Checks the jobs before anything starts. Returns 0, or -1 (err says why). */
static int check_jobs(const struct sbx_job *job, size_t k, const struct sbx_batch_opts *o, int jobs,
		      char *err, size_t errlen)
{
	for (size_t i = 0; i < k; i++) {
		if (!job[i].s || job[i].n_visible > job[i].s->n || job[i].first >= job[i].n_visible) {
			sa_fmt(err, errlen, "run %zu asks for bars [%zu, %zu) of %zu", i, job[i].first,
			       job[i].n_visible, job[i].s ? job[i].s->n : 0);
			return -1;
		}
		if (job[i].params && strlen(job[i].params) > SBX_PARAMS_MAX) {
			sa_fmt(err, errlen, "run %zu's keyword arguments exceed %d bytes", i, SBX_PARAMS_MAX);
			return -1;
		}
		if (job[i].live_end && (job[i].live_end < job[i].n_visible || job[i].live_end > job[i].s->n ||
					job[i].live_window < 1 || job[i].live_window > SBX_LIVE_WINDOW_MAX ||
					job[i].n_visible - job[i].first > job[i].live_window ||
					(job[i].claimed && job[i].live_end != job[i].n_visible))) {
			sa_fmt(err, errlen, "live run %zu asks for bars [%zu, %zu) on a window of %zu", i,
			       job[i].n_visible, job[i].live_end, job[i].live_window);
			return -1;
		}
		if (o->slot && (o->slot[i] < 0 || o->slot[i] >= jobs)) {
			sa_fmt(err, errlen, "run %zu is given slot %d of %d", i, o->slot[i], jobs);
			return -1;
		}
	}
	return 0;
}

/* The bars every data zygote of the batch may hold at once: the cgroup's budget counts them. */
static long long held_bytes(const struct sbx_job *job, size_t k, int jobs)
{
	size_t most = 0;

	for (size_t i = 0; i < k; i++)
		if (job[i].s->n > most)
			most = job[i].s->n;
	return (long long)jobs * (long long)most * SBX_BAR_BYTES;
}

int sbx_run_batch(struct sbx_zygote *z, const struct sbx_job *job, size_t k,
		  const struct sbx_batch_opts *o, struct sbx_result *results, char *err, size_t errlen)
{
	struct batch *b = NULL;
	int jobs = o->jobs < 1 ? 1 : o->jobs > SBX_MAX_JOBS ? SBX_MAX_JOBS : o->jobs, rc = -1;

	/* Zeroed first, so a failure anywhere below can release every one of them. */
	memset(results, 0, k * sizeof *results);
	if (check_jobs(job, k, o, jobs, err, errlen) < 0)
		return -1;
	if (!o->slot && (size_t)jobs > k)
		jobs = k ? (int)k : 1;
	b = calloc(1, sizeof *b);
	if (!b || !(b->begun = calloc(k ? k : 1, sizeof *b->begun))) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	b->z = z;
	b->job = job;
	b->results = results;
	b->o = o;
	b->k = k;
	b->jobs = jobs;
	for (int i = 0; i < jobs; i++)
		b->sl[i] = (struct sbx_slot){ .dz = { .ctrl = -1 }, .pidfd = -1 };
	/* The cgroup holds every run at once and the bars their data zygotes hold. */
	(void)sbx_cgroup_limit(&z->cg, &z->lim, jobs, held_bytes(job, k, jobs));
	while (batch_going(b))
		if (start_runs(b, err, errlen) < 0 || poll_runs(b, err, errlen) < 0 ||
		    dispatch(b, err, errlen) < 0 || reap_runs(b, err, errlen) < 0)
			goto out;
	mark_unstarted(b);
	rc = 0;
out:
	if (b) {
		if (rc < 0)
			abandon(b->fl, b->jobs);
		for (int i = 0; i < b->jobs; i++)
			sbx_slot_close(z, &b->sl[i]);
		free(b->begun);
	}
	if (rc < 0)
		for (size_t i = 0; i < k; i++)
			sbx_result_release(&results[i]);
	free(b);
	return rc;
}

int sbx_run_many(struct sbx_zygote *z, const struct da_ohlcv *s, const size_t *n_visible,
		 size_t k, int jobs, struct sbx_result *results,
		 void (*on_done)(size_t done, size_t total, void *arg), void *arg,
		 char *err, size_t errlen)
{
	const struct sbx_batch_opts o = { .jobs = jobs, .on_done = on_done, .arg = arg };
	struct sbx_job *job = calloc(k ? k : 1, sizeof *job);
	int rc;

	if (!job) {
		memset(results, 0, k * sizeof *results);
		sa_fmt(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < k; i++)
		job[i] = (struct sbx_job){ .s = s, .n_visible = n_visible[i] };
	rc = sbx_run_batch(z, job, k, &o, results, err, errlen);
	free(job);
	return rc;
}
