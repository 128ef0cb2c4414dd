/* verdict_sealed.h - the sealed gate: when SEALED bars were given, the strategy's net edge must
 * hold on them too. Read from sealed.json, added to verdict.json beside the other gates. */
#ifndef SA_VERDICT_SEALED_H
#define SA_VERDICT_SEALED_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "verdict_rules.h"
#include "verdict_text.h"

/* What sealed.json says, aggregates only. */
struct vd_sealed {
	bool given;              /* --sealed was passed: the gate counts */
	bool ok;                 /* sealed.json present and ok */
	char status[VD_TEXT_MAX];  /* "ok", "missing" or the reason */
	double bars, trades, net_return, mean_net, psr, max_dd;  /* NAN when unknown */
	bool edge_holds;
};

/* Reads sealed.json at path into *s and sets n's sealed facts (given, the edge, its refusals
 * joined to blocked_actions, an unfinished run to unfinished). Never fails: a missing or broken
 * file fails the gate. */
void vd_sealed_load(const char *path, struct vd_sealed *s, struct vd_numbers *n);

/* Adds the sealed gate to verdict.json's "gates" and a "sealed" object of aggregates. */
void vd_sealed_json(cJSON *v, const struct vd_sealed *s, const struct vd_result *r);

/* Appends the sealed gate's sentence to the summary in buf (len bytes in all). */
void vd_sealed_say(const struct vd_sealed *s, const struct vd_result *r, char *buf, size_t len);

#endif
