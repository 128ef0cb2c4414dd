/* sbx_batch_int.h - inside the sandbox room: the driver's batch of runs (sbx_driver.c) and the data
 * zygotes its slots fork them from (sbx_drive_prefix.c). */
#ifndef SBX_BATCH_H
#define SBX_BATCH_H

#include <stddef.h>

#include "sbx.h"
#include "sbx_launch_int.h"
#include "sbx_proto.h"

/* A slot of a batch: one run at a time, each forked from the slot's own data zygote, which
 * has been sent exactly the bars of its series up to that run's point. */
struct sbx_slot {
	struct sbx_zygote dz;      /* the data zygote's channel; dz.ctrl < 0 when none is open */
	int pidfd;                 /* the data zygote's, from the clean zygote */
	uint32_t id;               /* the clean zygote's request id for it */
	const struct da_ohlcv *s;  /* the series it is being sent (borrowed) */
	size_t sent;               /* bars of s sent so far (or skipped: see base) */
	size_t base;               /* the first of them it holds: it holds bars [base, sent) */
};

/* Starts a data zygote for series s on the clean zygote z. Returns 0 with sl filled, or -1
 * (err says why; sl untouched but for its pidfd, -1). */
int sbx_slot_open(struct sbx_zygote *z, struct sbx_slot *sl, const struct da_ohlcv *s, char *err,
		  size_t errlen);

/* Ends the slot's data zygote (and any run of it still going). Safe when none is open. */
void sbx_slot_close(struct sbx_zygote *z, struct sbx_slot *sl);

/* Gets the slot's data zygote to hold the bars [first, n) of its series (not one more, not one
 * fewer): it forgets those before first and is sent the rest up to n; bars before first it was
 * never sent are never sent. first must be >= sl->base and n >= sl->sent. Returns 0, or -1
 * (err says why). */
int sbx_slot_send(struct sbx_slot *sl, size_t first, size_t n, char *err, size_t errlen);

/* Sends a request with a run's SBX_RUN_FDS descriptors. Returns 0, or -1 with errno set. */
int sbx_send_req(int ctrl, const struct sbx_req *req, const int fds[SBX_RUN_FDS]);

/* Takes the next waiting reply off a zygote's channel, without blocking: 1 with *rep and *fd
 * (the descriptor it carried, or -1), 0 when the zygote hung up, -1 with errno set (EAGAIN:
 * none waiting). A message that is not a reply is dropped with its descriptor. */
int sbx_recv_rep(int ctrl, struct sbx_rep *rep, int *fd);

/* Closes *fd when open and marks it closed. */
void sbx_close_fd(int *fd);

/* Monotonic milliseconds. */
long sbx_now_ms(void);

#endif
