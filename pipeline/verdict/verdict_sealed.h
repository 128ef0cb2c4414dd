/* verdict_sealed.h - the sealed gate: when SEALED bars were given, the strategy's net edge must
 * hold on them too. Read from sealed.json (one outcome of a reusable holdout, and the sealed
 * set's budget), added to verdict.json beside the other gates. */
#ifndef SA_VERDICT_SEALED_H
#define SA_VERDICT_SEALED_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "verdict_rules.h"
#include "verdict_text.h"

/* What sealed.json says: an outcome, never a figure of the sealed bars. */
struct vd_sealed {
	bool given;              /* --sealed was passed: the gate counts */
	bool ok;                 /* sealed.json present and ok */
	char status[VD_TEXT_MAX];  /* "ok", "missing" or the reason */
	char outcome[32];        /* "as_open", "fails", "spent", ... ("" when not ok) */
	double bars, bound_bits; /* NAN when unknown */
	double used, of, lineage_used;  /* the set's budget; NAN when unknown */
	bool edge_holds, spent;
	char broken[VD_TEXT_MAX];  /* the field that broke the stage-file table, "" when none */
};

/* Reads sealed.json at path into *s and sets n's sealed facts (given, the edge, a refusal
 * joined to blocked_actions, an unfinished run to unfinished). Never fails: a missing or failed
 * file fails the gate; a field missing or mistyped (s->broken) makes the verdict incomplete. */
void vd_sealed_load(const char *path, struct vd_sealed *s, struct vd_numbers *n);

/* Adds the sealed gate to verdict.json's "gates" and a "sealed" object (the outcome, the bound,
 * the budget). */
void vd_sealed_json(cJSON *v, cJSON *gates, const struct vd_sealed *s, const struct vd_result *r);

/* Appends the sealed gate's sentence to the summary in buf (len bytes in all). */
void vd_sealed_say(const struct vd_sealed *s, const struct vd_result *r, char *buf, size_t len);

#endif
