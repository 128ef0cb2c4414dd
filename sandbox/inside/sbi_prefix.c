/* sbi_prefix.c - the data zygote: one audit's bars, received in time order, and a run forked
 * whenever it holds exactly the bars up to a truncation point. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "sbi_prefix.h"
#include "sbi_live.h"
#include "sbi_arena.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* What the data zygote holds: the rows received so far, and the runs it has forked. */
struct prefix {
	const struct sbi_zstate *z;
	int chan;             /* the driver's channel: bars, fork requests, replies */
	char *cols;           /* SBX_PREFIX_RESERVE bytes reserved: the columns, have bars each */
	size_t have;          /* bars received: the only length this process knows */
	pid_t pid[SBX_MAX_JOBS];
	int pidfd[SBX_MAX_JOBS];
	uint32_t id[SBX_MAX_JOBS];
	size_t nk;
};

/* One message from the driver: a header, then (for SBX_MAGIC_BARS) m bars, column by column,
 * written straight after the last bar held in each column, or (for a fork) the run's
 * descriptors. The header is peeked first, so each column's piece lands in its place. Returns 1
 * with a message, 0 when the driver hung up, -1 on a malformed one (its descriptors closed, no
 * bar added). */
static int recv_msg(struct prefix *p, struct sbx_req *req, int fds[SBX_RUN_FDS], int *nfd)
{
	union { char buf[CMSG_SPACE(sizeof(int) * SBX_RUN_FDS)]; struct cmsghdr align; } u;
	struct iovec iov[1 + SBX_BAR_COLUMNS] = { { req, sizeof *req } };
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 1, .msg_control = u.buf,
			      .msg_controllen = sizeof u.buf };
	size_t m = 0, payload;
	ssize_t got;

	*nfd = 0;
	do
		got = recv(p->chan, req, sizeof *req, MSG_PEEK);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return 0;
	if ((size_t)got == sizeof *req && req->magic == SBX_MAGIC_BARS && req->n <= SBX_BARS_CHUNK &&
	    req->n <= SBX_PREFIX_CAP - p->have) {
		m = (size_t)req->n;
		for (int c = 0; c < SBX_BAR_COLUMNS; c++)
			iov[1 + c] = (struct iovec){ p->cols + ((size_t)c * SBX_PREFIX_CAP + p->have) * SBX_VALUE_BYTES,
						     m * SBX_VALUE_BYTES };
		msg.msg_iovlen = 1 + SBX_BAR_COLUMNS;
	}
	do
		got = recvmsg(p->chan, &msg, MSG_CMSG_CLOEXEC);
	while (got < 0 && errno == EINTR);
	if (got <= 0)
		return 0;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
			int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
			*nfd = k < SBX_RUN_FDS ? k : SBX_RUN_FDS;
			memcpy(fds, CMSG_DATA(c), sizeof(int) * (size_t)*nfd);
		}
	payload = (size_t)got > sizeof *req ? (size_t)got - sizeof *req : 0;
	if ((size_t)got < sizeof *req || (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) ||
	    (req->magic == SBX_MAGIC_BARS && (*nfd != 0 || m != req->n || payload != m * SBX_BAR_BYTES)) ||
	    ((req->magic == SBX_MAGIC || req->magic == SBX_MAGIC_LIVE) && (*nfd != SBX_RUN_FDS || payload != 0)) ||
	    (req->magic == SBX_MAGIC_DROP && (*nfd != 0 || payload != 0 || req->n > p->have)) ||
	    (req->magic != SBX_MAGIC && req->magic != SBX_MAGIC_LIVE && req->magic != SBX_MAGIC_BARS &&
	     req->magic != SBX_MAGIC_DROP)) {
		for (size_t i = 1; i < msg.msg_iovlen; i++)
			memset(iov[i].iov_base, 0, iov[i].iov_len);
		for (int i = 0; i < *nfd; i++)
			close(fds[i]);
		*nfd = 0;
		return -1;
	}
	return 1;
}

/* The run's side of the fork: its five descriptors on 0..4 and no other (the driver's channel,
 * which still queues later bars, is closed), and no page of any column past its last bar. A
 * live run moves its bars into columns of its own and unmaps the reservation. */
static noreturn void run_main(struct prefix *p, const int fds[SBX_RUN_FDS], bool live)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), col = SBX_PREFIX_CAP * SBX_VALUE_BYTES;
	size_t keep = (p->have * SBX_VALUE_BYTES + page - 1) / page * page;

	if (sbi_zygote_place_fds(fds) < 0)
		_exit(SBX_EXIT_NO_FDS);
	syscall(SYS_close_range, SBX_RUN_FDS, ~0U, 0);
	if (live) {
		sbi_heap_align();
		sbi_live_run(p->z, p->cols, p->have);
	}
	for (size_t c = 0; c < SBX_BAR_COLUMNS; c++)
		if (munmap(p->cols + c * col + keep, col - keep) < 0)
			_exit(SBX_EXIT_SETUP_FAILED);
	/* Python's after-fork work in this child may have taken from malloc's top: back onto a
	 * huge-page boundary, so the upload's first large array starts on one in every run. */
	sbi_heap_align();
	sbi_child_run_cols(p->z, p->cols, p->have);
}

/* Where a run's monotonic and boot-time clocks stand when it is forked: one second (the
 * kernel refuses an offset that would put a clock below zero). */
#define RUN_CLOCK_START_S 1

/* RUN_CLOCK_START_S - now, as whole seconds and a nanosecond part in [0, 1 s). */
static long long off_s(const struct timespec *now)
{
	return (long long)RUN_CLOCK_START_S - now->tv_sec - (now->tv_nsec ? 1 : 0);
}

static long off_ns(const struct timespec *now)
{
	return now->tv_nsec ? 1000000000L - now->tv_nsec : 0;
}

/* The next run's time namespace: its CLOCK_MONOTONIC and CLOCK_BOOTTIME start at
 * RUN_CLOCK_START_S when it is forked, so they say how long the run has gone on, not how long
 * the host has been up. The offsets can be set only before a process is in the namespace:
 * a fresh one for each run. A kernel without time namespaces (before 5.6) keeps the host's
 * clocks: returns 0 then too; -1 with errno set when the namespace could not be set. */
static int new_clocks(void)
{
	struct timespec mono, boot;
	char text[128];
	int fd, n, rc = -1;

	if (unshare(CLONE_NEWTIME) < 0)
		return errno == EINVAL || errno == ENOSYS ? 0 : -1;
	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	/* offset = start - now, as whole seconds and a non-negative nanosecond part */
	n = snprintf(text, sizeof text, "monotonic %lld %ld\nboottime %lld %ld\n",
		     off_s(&mono), off_ns(&mono), off_s(&boot), off_ns(&boot));
	if ((fd = open("/proc/self/timens_offsets", O_WRONLY | O_CLOEXEC)) < 0)
		return -1;
	if (write(fd, text, (size_t)n) == n)
		rc = 0;
	close(fd);
	return rc;
}

/* Forks a run of the bars held now, in its own PID, mount, IPC and time namespaces (as the
 * clean zygote's runs are). Returns 0 with the run recorded, or -1 with errno set. */
static int fork_run(struct prefix *p, uint32_t id, const int fds[SBX_RUN_FDS], bool live)
{
	pid_t pid;
	int pidfd;

	if (p->nk == SBX_MAX_JOBS) {
		errno = EAGAIN;
		return -1;
	}
	if (new_clocks() < 0)
		return -1;
	pid = sbi_zygote_fork(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC, &pidfd);
	if (pid == 0)
		run_main(p, fds, live);
	if (pid < 0)
		return -1;
	p->pid[p->nk] = pid;
	p->pidfd[p->nk] = pidfd;
	p->id[p->nk] = id;
	p->nk++;
	return 0;
}

/* Forgets the m oldest bars held: the rest move to the columns' start and the places they
 * leave are zeroed, so the columns hold what a data zygote sent only the rest would hold. */
static void drop_bars(struct prefix *p, size_t m)
{
	size_t keep = p->have - m;

	for (int c = 0; c < SBX_BAR_COLUMNS; c++) {
		char *col = p->cols + (size_t)c * SBX_PREFIX_CAP * SBX_VALUE_BYTES;

		memmove(col, col + m * SBX_VALUE_BYTES, keep * SBX_VALUE_BYTES);
		memset(col + keep * SBX_VALUE_BYTES, 0, m * SBX_VALUE_BYTES);
	}
	p->have = keep;
}

/* Takes one driver message: rows are kept, a drop forgets the oldest, a fork request for
 * exactly the bars held becomes a run. Returns 0, or -1 when the driver has hung up. */
static int take_msg(struct prefix *p)
{
	struct sbx_req req;
	int fds[SBX_RUN_FDS], nfd, r = recv_msg(p, &req, fds, &nfd);

	if (r <= 0)
		return r == 0 ? -1 : 0;
	if (req.magic == SBX_MAGIC_BARS) {
		/* Held in nanoseconds, as the frame's index wants them: a run's index is then a view
		 * of these pages, not a copy scaled from seconds. */
		int64_t *t = (int64_t *)(void *)p->cols + p->have;

		for (size_t i = 0; i < (size_t)req.n; i++)
			if (__builtin_mul_overflow(t[i], (int64_t)1000000000, &t[i]))
				t[i] = INT64_MIN;  /* NaT: the loader never passes a time this far out */
		p->have += (size_t)req.n;
		return 0;
	}
	if (req.magic == SBX_MAGIC_DROP) {
		drop_bars(p, (size_t)req.n);
		return 0;
	}
	/* A run is forked only from exactly its prefix: never from more bars than it may see. */
	if (req.n != p->have)
		sbi_zygote_reply(p->chan, req.id, SBX_REP_FAILED, 0, 0, EINVAL, -1);
	else if (fork_run(p, req.id, fds, req.magic == SBX_MAGIC_LIVE) < 0)
		sbi_zygote_reply(p->chan, req.id, SBX_REP_FAILED, 0, 0, errno, -1);
	else
		sbi_zygote_reply(p->chan, req.id, SBX_REP_STARTED, 0, 0, 0, p->pidfd[p->nk - 1]);
	for (int i = 0; i < nfd; i++)
		close(fds[i]);
	return 0;
}

/* Reaps run i, tells the driver how it ended and drops it from the list. */
static void reap(struct prefix *p, size_t i)
{
	struct rusage ru;
	int st = 0;

	if (wait4(p->pid[i], &st, 0, &ru) != p->pid[i])
		return;
	sbi_zygote_reply(p->chan, p->id[i], SBX_REP_EXITED, st,
			 (int64_t)ru.ru_utime.tv_sec * 1000 + ru.ru_utime.tv_usec / 1000 +
			 (int64_t)ru.ru_stime.tv_sec * 1000 + ru.ru_stime.tv_usec / 1000, 0, -1);
	close(p->pidfd[i]);
	p->nk--;
	p->pid[i] = p->pid[p->nk];
	p->pidfd[i] = p->pidfd[p->nk];
	p->id[i] = p->id[p->nk];
}

static void serve(struct prefix *p)
{
	struct pollfd pf[SBX_MAX_JOBS + 1];

	for (;;) {
		size_t nk = p->nk;
		pf[0] = (struct pollfd){ p->chan, POLLIN, 0 };
		for (size_t i = 0; i < nk; i++)
			pf[i + 1] = (struct pollfd){ p->pidfd[i], POLLIN, 0 };
		if (poll(pf, nk + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		/* backwards, so reap()'s swap with the last entry leaves the unseen ones in place */
		for (size_t i = nk; i-- > 0;)
			if (pf[i + 1].revents & (POLLIN | POLLHUP))
				reap(p, i);
		if ((pf[0].revents & (POLLIN | POLLHUP | POLLERR)) && take_msg(p) < 0)
			break;
	}
	/* The audit is over: nothing it started may outlive it. */
	for (size_t i = 0; i < p->nk; i++) {
		kill(p->pid[i], SIGKILL);
		waitpid(p->pid[i], NULL, 0);
	}
}

/* The data zygote's main: it keeps stdio and the channel, reserves the rows, serves, exits. */
static noreturn void prefix_main(const struct sbi_zstate *z, int chan)
{
	struct prefix p = { .z = z, .chan = 3 };

	if (dup2(chan, 3) < 0)
		_exit(SBX_EXIT_NO_FDS);
	syscall(SYS_close_range, 4, ~0U, 0);
	/* Reserved, not committed: only the pages the bars fill take memory. */
	p.cols = mmap(NULL, SBX_PREFIX_RESERVE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p.cols == MAP_FAILED)
		_exit(SBX_EXIT_SETUP_FAILED);
	/* Huge pages where the kernel offers them: each fork then copies a few page-table entries
	 * for the columns rather than one per 4 KiB, and each run's exit frees as few. Advice. */
	(void)madvise(p.cols, SBX_PREFIX_RESERVE, MADV_HUGEPAGE);
	/* Python's after-fork work in this process may have taken from malloc's top: back onto a
	 * huge-page boundary, as the zygote left it, before the first run is forked from here. */
	sbi_heap_align();
	serve(&p);
	_exit(SBX_EXIT_DONE);
}

int sbi_prefix_start(const struct sbi_zstate *z, int chan, pid_t *pid, int *pidfd)
{
	pid_t kid = sbi_zygote_fork(0, pidfd);

	if (kid == 0)
		prefix_main(z, chan);
	if (kid < 0)
		return -1;
	*pid = kid;
	return 0;
}
