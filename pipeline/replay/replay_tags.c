/* replay_tags.c - the run's entry and exit tags on the replayed trades (replay_tags.h). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "replay_log.h"
#include "replay_tags.h"

/* The tag v holds for the bar before the fill at time at: 0 when there is no such bar, or when
 * the replayed value there is not the full run's. */
static unsigned char tag_before(const struct da_ohlcv *s, const uint8_t *v, int64_t at,
				const int8_t *replayed, const int8_t *full)
{
	size_t j = rpl_bar_at_or_after(s, at);

	if (j == 0 || j >= s->n || s->t[j] != at || replayed[j - 1] != full[j - 1])
		return 0;
	return v[j - 1];
}

void rpl_tag_trades(struct rp_result *r, const struct da_ohlcv *s, const struct da_tags *tags,
		    const int8_t *replayed, const int8_t *full)
{
	if (!tags || !tags->n_names || !replayed || !full || !s)
		return;
	for (size_t i = 0; i < r->n_trades; i++) {
		struct rp_trade *t = &r->trades[i];

		t->entry_tag = tag_before(s, tags->enter, t->entry, replayed, full);
		if (t->exit_reason == RP_EXIT_SIGNAL)
			t->exit_tag = tag_before(s, tags->exit, t->exit, replayed, full);
	}
}

/* The place from 1 of name among t's names, added when new; 0 when t is full. */
static unsigned char name_place(struct da_tags *t, const char *name)
{
	size_t k;
	char (*p)[DA_TAG_NAME_MAX + 1];

	for (k = 0; k < t->n_names && strcmp(t->names[k], name); k++)
		;
	if (k < t->n_names)
		return (unsigned char)(k + 1);
	if (k == UCHAR_MAX || strlen(name) > DA_TAG_NAME_MAX)
		return 0;
	/* the run's table holds its own names alone */
	p = realloc(t->names, (t->n_names + 1) * sizeof *t->names);
	if (!p)
		return 0;
	t->names = p;
	strcpy(t->names[t->n_names++], name);
	return (unsigned char)t->n_names;
}

int rpl_tag_custom_exits(struct rp_result *r, const struct da_ohlcv *s, struct da_tags *tags,
			 const struct rp_calls_read *calls)
{
	if (!calls || !calls->reason || !s)
		return 0;
	for (size_t i = 0; i < r->n_trades; i++) {
		struct rp_trade *t = &r->trades[i];
		size_t j;

		if (t->exit_reason != RP_EXIT_CUSTOM)
			continue;
		j = rpl_bar_at_or_after(s, t->exit);
		if (j >= s->n || s->t[j] != t->exit || !calls->exit[j] || !*calls->reason[j])
			continue;
		if (!(t->exit_tag = name_place(tags, calls->reason[j])))
			return -1;
	}
	return 0;
}
