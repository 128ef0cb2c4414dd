/* sbx_progress.c - progress of a batch of runs on stderr (sbx_progress.h). */
#include "sbx_progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void sbx_progress_start(struct sbx_progress *p, const char *label)
{
	memset(p, 0, sizeof *p);
	snprintf(p->label, sizeof p->label, "%s", label);
	p->tty = isatty(STDERR_FILENO) == 1;
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

static double elapsed(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

char *sbx_progress_eta(double el, size_t done, size_t total, char *buf, size_t len)
{
	double left;

	buf[0] = '\0';
	if (!done || done > total || !(el >= 0))
		return buf;
	left = el / (double)done * (double)(total - done);
	if (done == total)
		snprintf(buf, len, "done");
	else if (left < 90)
		snprintf(buf, len, "about %.0f s left", left);
	else if (left < 5400)
		snprintf(buf, len, "about %.0f min left", left / 60);
	else
		snprintf(buf, len, "about %.1f h left", left / 3600);
	return buf;
}

void sbx_progress_done(size_t done, size_t total, void *arg)
{
	struct sbx_progress *p = arg;
	char eta[48];
	double el;
	int tenths;

	if (!p || !total)
		return;
	el = elapsed(&p->start);
	sbx_progress_eta(el, done, total, eta, sizeof eta);
	if (p->tty) {
		/* \r and erase to the end of the line: the same line, rewritten */
		fprintf(stderr, "\r%s: %zu/%zu runs, %.0f s, %s\033[K", p->label, done, total, el, eta);
		if (done == total)
			fputc('\n', stderr);
		fflush(stderr);
		return;
	}
	tenths = (int)((double)done * 10 / (double)total);
	if (tenths <= p->tenths)
		return;
	p->tenths = tenths;
	fprintf(stderr, "%s: %d %% (%zu/%zu runs) after %.0f s, %s\n", p->label,
		(int)((double)done * 100 / (double)total), done, total, el, eta);
}
