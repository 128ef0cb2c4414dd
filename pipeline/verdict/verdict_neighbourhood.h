/* verdict_neighbourhood.h - the neighbourhood rule: an edge on a peak of its parameters (its
 * neighbours, the audited parameters moved x0.8 to x1.2, keep at their median less than
 * NEIGHBOUR_KEEP of its per-bar Sharpe ratio: stats.json neighbourhood) is a pick from a
 * search, not a plateau, and cannot be READY_FOR_MICRO_LIVE: WATCH at best. */
#ifndef VERDICT_NEIGHBOURHOOD_H
#define VERDICT_NEIGHBOURHOOD_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* What stats.json's neighbourhood says; NAN when unknown. */
struct vd_nb {
	bool measured, peak, plateau;
	double keep, keep_min, centre, median, implied_trials;
	double neighbours, failed;
	double span, family;    /* NEIGHBOUR_SPAN and the family's independent trials over it */
	char reason[256];
};

struct sa_sf;

/* Reads stats.json's neighbourhood through the stage-file table (absent: not measured; a field
 * missing or mistyped is the file's error, as every read of s says). */
void vd_nb_load(struct sa_sf *s, struct vd_nb *nb);

/* verdict.json's "neighbourhood" {measured, shape, keep, keep_min, implied_trials,
 * family_trials, capped}. */
void vd_nb_json(cJSON *root, const struct vd_nb *nb, bool capped);

/* The sentence the summary says about it ("" when there is nothing to say), into buf; with
 * trials_source (stats.json's) "neighbourhood_family", what the family's trials did. */
char *vd_nb_sentence(const struct vd_nb *nb, bool capped, const char *trials_source, char *buf,
		     size_t len);

#endif
