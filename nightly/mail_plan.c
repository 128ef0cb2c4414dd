/* mail_plan.c - the size cap: the index always, then each bundle in the index's order while the
 * message stays under the cap, and a list of what was left out and where it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_plan.h"

/* Headers, boundaries and the part headers of one attachment, generously. */
#define PART_OVERHEAD 512

long long nightly_mail_b64_size(long long n)
{
	long long enc = (n + 2) / 3 * 4;

	return enc + (enc + 75) / 76 * 2;
}

long long nightly_mail_plan_size(const struct nightly_mail_plan *p)
{
	/* the text and HTML parts go quoted-printable: at worst three bytes for one */
	long long total = 2048 + 3 * (p->text_size + p->html_size);

	for (size_t i = 0; i < 2; i++)
		if (p->index[i].attach)
			total += PART_OVERHEAD + nightly_mail_b64_size(p->index[i].size);
	for (size_t i = 0; i < p->n; i++)
		if (p->bundles[i].attach)
			total += PART_OVERHEAD + nightly_mail_b64_size(p->bundles[i].size);
	return total;
}

void nightly_mail_plan_decide(struct nightly_mail_plan *p)
{
	for (size_t i = 0; i < 2; i++)
		p->index[i].attach = p->index[i].size >= 0 && p->index[i].path[0];
	p->attached = 0;
	for (size_t i = 0; i < p->n; i++)
		p->bundles[i].attach = false;
	/* worst news first, as the index lists them: a bundle that does not fit is skipped, and a
	 * smaller one after it may still go */
	for (size_t i = 0; i < p->n; i++) {
		p->bundles[i].attach = true;
		if (nightly_mail_plan_size(p) > p->cap)
			p->bundles[i].attach = false;
		else
			p->attached++;
	}
	p->over_cap = p->attached < p->n;
}

char *nightly_mail_plan_left_out_text(const struct nightly_mail_plan *p, char *text, size_t len)
{
	size_t used = strlen(text);

	if (!p->over_cap || p->n == 0)
		return text;
	snprintf(text + used, len - used,
		 "\nThe bundles together exceed the %lld-byte mail cap: %zu of %zu %s attached. Left out, "
		 "each kept in the night's folder:\n", p->cap, p->attached, p->n, p->attached == 1 ? "is" : "are");
	for (size_t i = 0; i < p->n; i++) {
		if (p->bundles[i].attach)
			continue;
		used = strlen(text);
		snprintf(text + used, len - used, "  bundles/%s (%lld bytes)\n", p->bundles[i].name,
			 p->bundles[i].size);
	}
	return text;
}

void nightly_mail_plan_release(struct nightly_mail_plan *p)
{
	free(p->bundles);
	p->bundles = NULL;
	p->n = 0;
}
