/* sbx_drive_prefix.c - the host side of a data zygote: asks the zygote for one, streams it the
 * bars in time order as the batch of truncated runs goes (sbx_batch_run sends each run's bars
 * before asking for its fork), and ends it when the batch is done. */
#include "sbx.h"
#include "sbx_batch.h"
#include "sbx_launch.h"
#include "sbx_proto.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "msg.h"

/* Waits (up to the wall clock) for the zygote's reply of kind to request id; other replies are
 * of no run in flight and are dropped. Returns the pidfd it carried (or 0 when none), or -1. */
static int await_reply(struct sbx_zygote *z, uint32_t id, int kind, char *err, size_t errlen)
{
	long deadline = sbx_now_ms() + (long)z->lim.wall_s * 1000L;
	int rc = -1;

	for (;;) {
		struct sbx_rep rep;
		struct pollfd pf = { z->ctrl, POLLIN, 0 };
		long left = deadline - sbx_now_ms();
		int fd = -1, got;

		if (left <= 0 || poll(&pf, 1, (int)left) == 0) {
			sa_fmt(err, errlen, "the zygote did not answer");
			break;
		}
		got = sbx_recv_rep(z->ctrl, &rep, &fd);
		if (got < 0 && errno == EAGAIN)
			continue;
		if (got <= 0) {
			sa_fmt(err, errlen, "the sandbox zygote died");
			break;
		}
		if (rep.id == id && rep.kind == SBX_REP_FAILED) {
			sbx_close_fd(&fd);
			sa_fmt(err, errlen, "the zygote could not start a data zygote, '%s'", strerror(rep.err));
			break;
		}
		if (rep.id == id && rep.kind == kind) {
			rc = fd < 0 ? 0 : fd;
			break;
		}
		sbx_close_fd(&fd);
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
		if (sbx_send_req(z->ctrl, &req, theirs) < 0) {
			sa_fmt(err, errlen, "cannot ask for a data zygote, '%s'", strerror(errno));
			goto out;
		}
	}
	sbx_close_fd(&ch[1]);
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
	sbx_close_fd(&ch[0]);
	sbx_close_fd(&ch[1]);
	return rc;
}

/* Ends the data zygote: hung up on, it kills what it started and exits; past the wall clock it
 * is killed. The zygote's note that it exited is taken, so the control channel stays clean. */
static void prefix_close(struct sbx_zygote *z, struct sbx_zygote *dz, int pidfd, uint32_t id)
{
	struct pollfd pf = { pidfd, POLLIN, 0 };
	char err[128];

	sbx_close_fd(&dz->ctrl);
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
	const struct sbx_batch_hooks hooks = { .cg_owner = z, .on_result = on_result, .arg = arg };
	struct sbx_job *job = NULL;
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
	job = calloc(k ? k : 1, sizeof *job);
	if (!job) {
		sa_fmt(err, errlen, "out of memory");
		goto out;
	}
	if (prefix_open(z, &dz, &pidfd, &dz_id, err, errlen) < 0)
		goto out;
	for (size_t i = 0; i < k; i++)
		job[i] = (struct sbx_job){ .s = s, .n_visible = n_visible[i] };
	rc = sbx_batch_run(&dz, job, k, jobs, results, &hooks, err, errlen);
out:
	if (pidfd >= 0)
		prefix_close(z, &dz, pidfd, dz_id);
	free(job);
	return rc;
}

