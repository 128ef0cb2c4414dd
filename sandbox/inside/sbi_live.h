/* sbi_live.h - inside the namespaces: a live run (sbx_proto.h, the live replay), forked from the
 * data zygote. */
#ifndef SBI_LIVE_H
#define SBI_LIVE_H

#include <stddef.h>
#include <stdnoreturn.h>

#include "sbi_zygote.h"

/* A live run forked from the data zygote: cols holds its first n bars as sbi_child_run_cols'
 * do, moved into columns of the run's own (the reservation unmapped) that grow as bars come;
 * descriptor 0 brings the keyword arguments, the window word, then one bar after each answer
 * (the trade's state before it with SBX_LIVE_CALLS). The recipe of every run, then one loop
 * that calls signals() on the last window bars and answers for the newest; with
 * SBX_LIVE_CLAIMED, one call on the n bars held and the answers from it. Never returns. */
noreturn void sbi_live_run(const struct sbi_zstate *z, char *cols, size_t n);

#endif
