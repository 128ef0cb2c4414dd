/* mail_plan.c - the size cap: everything, or the index alone and a list of what was left out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mail_plan.h"

/* Headers, boundaries and the part headers of one attachment, generously. */
#define PART_OVERHEAD 512

long long mail_b64_size(long long n)
{
	long long enc = (n + 2) / 3 * 4;

	return enc + (enc + 75) / 76 * 2;
}

long long mail_plan_size(const struct mail_plan *p)
{
	/* the text and HTML parts go quoted-printable: at worst three bytes for one */
	long long total = 2048 + 3 * (p->text_size + p->html_size);

	for (size_t i = 0; i < 2; i++)
		if (p->index[i].attach)
			total += PART_OVERHEAD + mail_b64_size(p->index[i].size);
	for (size_t i = 0; i < p->n; i++)
		if (p->bundles[i].attach)
			total += PART_OVERHEAD + mail_b64_size(p->bundles[i].size);
	return total;
}

void mail_plan_decide(struct mail_plan *p)
{
	for (size_t i = 0; i < 2; i++)
		p->index[i].attach = p->index[i].size >= 0 && p->index[i].path[0];
	for (size_t i = 0; i < p->n; i++)
		p->bundles[i].attach = true;
	p->over_cap = mail_plan_size(p) > p->cap;
	if (p->over_cap)
		for (size_t i = 0; i < p->n; i++)
			p->bundles[i].attach = false;
}

char *mail_plan_left_out_text(const struct mail_plan *p, char *text, size_t len)
{
	size_t used = strlen(text);

	if (!p->over_cap || p->n == 0)
		return text;
	snprintf(text + used, len - used,
		 "\nThe bundles together exceed the %lld-byte mail cap, so only the index is "
		 "attached. Left out:\n", p->cap);
	for (size_t i = 0; i < p->n; i++) {
		used = strlen(text);
		snprintf(text + used, len - used, "  %s (%lld bytes)\n", p->bundles[i].name,
			 p->bundles[i].size);
	}
	return text;
}

void mail_plan_release(struct mail_plan *p)
{
	free(p->bundles);
	p->bundles = NULL;
	p->n = 0;
}
