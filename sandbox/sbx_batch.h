/* sbx_batch.h - inside the sandbox room: the driver's batch of runs, shared by the clean
 * zygote's runs (sbx_driver.c) and a data zygote's (sbx_drive_prefix.c). */
#ifndef SBX_BATCH_H
#define SBX_BATCH_H

#include <stddef.h>

#include "sbx.h"
#include "sbx_proto.h"

/* Whose cgroup and limits hold the batch, and who hears of each run as it ends. */
struct sbx_batch_hooks {
	struct sbx_zygote *cg_owner;
	void (*on_done)(size_t done, size_t total, void *arg);
	sbx_on_result *on_result;
	void *arg;
};

/* Runs the k jobs on z, up to jobs at once (for a data zygote, sending each run's bars before
 * its fork). Returns 0 with every result filled, or -1 with them all released (err says why). */
int sbx_batch_run(struct sbx_zygote *z, const struct sbx_job *job, size_t k, int jobs,
		  struct sbx_result *results, const struct sbx_batch_hooks *hooks, char *err, size_t errlen);

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
