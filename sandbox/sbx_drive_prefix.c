/* sbx_drive_prefix.c - the host side of a data zygote: a batch slot asks the clean zygote for
 * one, streams it a series' bars in time order as its runs go (each run's bars are sent before
 * its fork is asked for), and ends it when the slot needs another series, an earlier prefix,
 * or the batch is done. Every run of every stage is forked from one of these. */
#include "sbx.h"
#include "sbx_batch_int.h"
#include "sbx_launch_int.h"
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

/* The bars go straight from the series' columns, so they must be the wire's width. */
_Static_assert(sizeof(int64_t) == SBX_VALUE_BYTES && sizeof(double) == SBX_VALUE_BYTES,
	       "a bar column value is SBX_VALUE_BYTES on the wire");

/* Waits (up to the wall clock) for the zygote's reply of kind to request id; other replies are
 * of no run in flight (the clean zygote only starts data zygotes) and are dropped. Returns the
 * pidfd it carried (or 0 when none), or -1. */
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

int sbx_slot_open(struct sbx_zygote *z, struct sbx_slot *sl, const struct da_ohlcv *s, char *err,
		  size_t errlen)
{
	int ch[2] = { -1, -1 }, rc = -1;
	struct sbx_req req = { SBX_MAGIC_PREFIX, z->next_id++, 0 };

	if (s->n > SBX_PREFIX_CAP) {
		sa_fmt(err, errlen, "%zu bars are more than a data zygote holds (%zu)", s->n, SBX_PREFIX_CAP);
		goto out;
	}
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
	if ((sl->pidfd = await_reply(z, req.id, SBX_REP_STARTED, err, errlen)) <= 0) {
		if (sl->pidfd == 0)
			sa_fmt(err, errlen, "the data zygote came without a pidfd");
		sl->pidfd = -1;
		goto out;
	}
	sl->dz = (struct sbx_zygote){ .pid = -1, .ctrl = ch[0], .lim = z->lim, .next_id = 1,
				     .entries = z->entries };
	sl->id = req.id;
	sl->s = s;
	sl->sent = sl->base = 0;
	ch[0] = -1;
	rc = 0;
out:
	sbx_close_fd(&ch[0]);
	sbx_close_fd(&ch[1]);
	return rc;
}

void sbx_slot_close(struct sbx_zygote *z, struct sbx_slot *sl)
{
	char err[128];

	if (sl->dz.ctrl < 0)
		return;
	/* Hung up on, the data zygote kills what it started and exits; past the wall clock it is
	 * killed. The zygote's note that it exited is taken, so the control channel stays clean. */
	sbx_close_fd(&sl->dz.ctrl);
	{
		struct pollfd pf = { sl->pidfd, POLLIN, 0 };
		if (poll(&pf, 1, z->lim.wall_s * 1000) <= 0)
			(void)syscall(SYS_pidfd_send_signal, sl->pidfd, SIGKILL, NULL, 0);
	}
	sbx_close_fd(&sl->pidfd);
	(void)await_reply(z, sl->id, SBX_REP_EXITED, err, sizeof err);
	sl->s = NULL;
	sl->sent = sl->base = 0;
}

/* Has the data zygote forget its m oldest bars. Returns 0, or -1 (err says why). */
static int drop_bars(struct sbx_slot *sl, size_t m, char *err, size_t errlen)
{
	struct sbx_req req = { SBX_MAGIC_DROP, 0, m };
	ssize_t w;

	do
		w = send(sl->dz.ctrl, &req, sizeof req, MSG_NOSIGNAL);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)sizeof req) {
		sa_fmt(err, errlen, "cannot tell the data zygote to forget bars, '%s'", strerror(errno));
		return -1;
	}
	sl->base += m;
	return 0;
}

int sbx_slot_send(struct sbx_slot *sl, size_t first, size_t n, char *err, size_t errlen)
{
	const struct da_ohlcv *s = sl->s;
	size_t held = (first < sl->sent ? first : sl->sent) - sl->base;
	int rc = 0;

	/* What it holds before the window goes first; bars that fall wholly before it are never
	 * sent, so a window is sent its own bars and no earlier one. */
	if (first > sl->base && held > 0 && drop_bars(sl, held, err, errlen) < 0)
		return -1;
	if (first > sl->sent)
		sl->sent = sl->base = first;

	/* Blocking: the data zygote only ever waits for the driver. */
	while (sl->sent < n && rc == 0) {
		size_t m = n - sl->sent < SBX_BARS_CHUNK ? n - sl->sent : SBX_BARS_CHUNK, at = sl->sent;
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
			w = sendmsg(sl->dz.ctrl, &msg, MSG_NOSIGNAL);
		while (w < 0 && errno == EINTR);
		if (w != (ssize_t)(sizeof req + m * SBX_BAR_BYTES)) {
			sa_fmt(err, errlen, "cannot send bars to the data zygote, '%s'", strerror(errno));
			rc = -1;
		}
		sl->sent += m;
	}
	return rc;
}
