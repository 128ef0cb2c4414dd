/* replay_tags.c - the run's entry and exit tags on the replayed trades (replay_tags.h). */
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
