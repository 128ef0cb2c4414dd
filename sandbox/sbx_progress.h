/* sbx_progress.h - the progress of a batch of runs on stderr, for the stages that run the upload
 * many times: one rewritten line on a terminal, a plain line every tenth otherwise. */
#ifndef SBX_PROGRESS_H
#define SBX_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <time.h>

/* One batch's progress. Start it with sbx_progress_start; it holds no resource. */
struct sbx_progress {
	char label[64];           /* "lookahead", "robust: permutation" */
	bool tty;                 /* stderr is a terminal: rewrite one line */
	struct timespec start;
	int tenths;               /* tenths already said, off a terminal */
};

/* Starts p for the batch named label (copied), timed from now. Whether stderr is a terminal
 * is asked once, here. */
void sbx_progress_start(struct sbx_progress *p, const char *label);

/* A batch callback (sbx_batch_opts.on_done, sbx_run_many's): done of total runs have ended.
 * arg is a struct sbx_progress. On a terminal it rewrites "label: done/total runs, elapsed,
 * about N s left" in place and ends the line when the batch is done; off a terminal it prints
 * one plain line each time another tenth of the runs is done. Writes only to stderr, never
 * into an output file, so nothing the stage writes depends on it. */
void sbx_progress_done(size_t done, size_t total, void *arg);

/* Formats an estimate of seconds left for people ("about 40 s left", "about 3 min left") into
 * buf (returned); "" before the first run ends. */
char *sbx_progress_eta(double elapsed, size_t done, size_t total, char *buf, size_t len);

#endif
