/* mail_plan.h - what one night's message carries: which bundles fit under the size cap, and the
 * words that say which were left out and where they are. Pure, so it is tested without a server. */
#ifndef MAIL_PLAN_H
#define MAIL_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#define MAIL_DEFAULT_CAP ((long long)10 * 1024 * 1024)

struct nightly_mail_file {
	char path[4096];   /* on disk */
	char name[160];    /* as the recipient sees it */
	long long size;
	bool attach;       /* set by nightly_mail_plan_decide */
};

struct nightly_mail_plan {
	struct nightly_mail_file *bundles;  /* owned; worst news first, as in the index */
	size_t n;
	struct nightly_mail_file index[2];  /* index.xlsx and index.html, always attached */
	long long text_size, html_size;
	long long cap;
	bool over_cap;              /* set by nightly_mail_plan_decide: at least one bundle was left out */
	size_t attached;            /* set by nightly_mail_plan_decide: the bundles attached */
};

/* Bytes a part of n bytes takes once base64-encoded in 76-character lines. */
long long nightly_mail_b64_size(long long n);

/* Decides what to attach: the index always, then each bundle in order (worst news first) that
 * still fits under cap with those before it; one that does not fit is left out and a smaller
 * one after it may still go. Never fails. */
void nightly_mail_plan_decide(struct nightly_mail_plan *p);

/* Estimated size of the message as planned, in bytes. */
long long nightly_mail_plan_size(const struct nightly_mail_plan *p);

/* Appends to text (NUL-terminated, at most len bytes) the lines naming the bundles left out
 * with their place in the night's folder, or nothing when all were attached. Returns text. */
char *nightly_mail_plan_left_out_text(const struct nightly_mail_plan *p, char *text, size_t len);

/* Frees the bundles; safe on a zeroed plan. */
void nightly_mail_plan_release(struct nightly_mail_plan *p);

#endif
