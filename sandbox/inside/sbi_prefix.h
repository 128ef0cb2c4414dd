/* sbi_prefix.h - inside the namespaces: the data zygote, a child of the clean zygote that
 * receives one series' bars in time order and forks each run from exactly its prefix. */
#ifndef SBX_PREFIX_H
#define SBX_PREFIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>
#include <sys/types.h>

#include "sbx_proto.h"
#include "sbi_zygote.h"

/* Forks the data zygote of one audit on chan (the zygote's copy is closed by the caller). The
 * child keeps only stdio and chan, and serves it until the driver hangs up. Returns 0 with
 * *pid and *pidfd set, or -1 with errno set. */
int sbi_prefix_start(const struct sbi_zstate *z, int chan, pid_t *pid, int *pidfd);

/* A run forked from the data zygote: cols holds its n bars as SBX_BAR_COLUMNS columns of
 * SBX_PREFIX_CAP values apart (nothing past bar n mapped), which the DataFrame is built over
 * without a copy; descriptor 0 brings the keyword arguments of signals() (sbx_proto.h), and the
 * recipe in sbi_child.c follows. Every run is one of these. Never returns. */
noreturn void sbi_child_run_cols(const struct sbi_zstate *z, char *cols, size_t n);

/* The zygote's reply to the driver (sbx_rep), with pass_fd attached when >= 0. */
void sbi_zygote_reply(int ctrl, uint32_t id, int kind, int wstatus, int64_t cpu_ms, int err, int pass_fd);

/* Moves a run's descriptors onto 0..SBX_RUN_FDS-1. Returns 0, or -1 with errno set. */
int sbi_zygote_place_fds(const int fds[SBX_RUN_FDS]);

/* Forks the warm interpreter, Python's own fork handlers run on both sides: with ns (CLONE_NEW*
 * flags) the child is in namespaces of its own, with 0 it is a plain fork. Returns 0 in the
 * child; in the parent the child's pid with *pidfd open on it, or -1 with errno set and no
 * child left. */
pid_t sbi_zygote_fork(unsigned long ns, int *pidfd);

#endif
