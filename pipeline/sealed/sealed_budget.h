/* sealed_budget.h - the sealed sets' private state in the ledger's history (LEDGER): for each
 * set (by the sha256 of its file) a secret key, drawn from getrandom when the set is first used
 * and never written anywhere else, and the audits made on it, so a set is spent after a budget
 * of audits. The noise of an audit's holdout comes from the key and the audit's identity
 * (HMAC-SHA256): the same audit gets the same noise, so its bundle is the same, while the
 * uploader, who never sees the key, cannot predict or average it out. */
#ifndef SEALED_BUDGET_H
#define SEALED_BUDGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include <sqlite3.h>

#include "sbx.h"
#include "sealed_core.h"

#define SL_KEY_BYTES 32

/* One audit on a sealed set. */
struct sl_audit {
	char set[65];       /* the sealed file's sha256 */
	char id[65];        /* the audit: sha256 of the upload, the knobs the stage reads, the open edge */
	char lineage[65];   /* the upload's structure (inspect.json: its code, constants abstracted) */
};

/* Where the audit stands in the set's budget. */
struct sl_budget {
	long budget;        /* SEALED_BUDGET: audits a set answers */
	long used;          /* audits of the set so far, this one included (its place when recorded) */
	long lineage_used;  /* of them, the audits of this lineage */
	bool spent;         /* the set had answered its budget before this audit: not run */
	unsigned char key[SL_KEY_BYTES];
};

/* Opens (creating) the history at path with the sealed tables. Returns 0, or -1 with why. */
int sl_budget_open(const char *path, sqlite3 **db, char *err, size_t errlen);

/* Takes the audit's place in its set's budget (once: the same audit again keeps its place) and
 * the set's key, making one on the set's first use. Returns 0, or -1 with why. */
int sl_budget_take(sqlite3 *db, const struct sl_audit *a, long budget, struct sl_budget *b,
		   char *err, size_t errlen);

/* Records the audit's outcome and its refusals, counted per rule (the rule's name only), for
 * the operator; nothing the upload chose. Returns 0, or -1 with why. */
int sl_budget_record(sqlite3 *db, const struct sl_audit *a, enum sl_outcome o,
		     const struct sbx_rule_count *rules, size_t n_rules, char *err, size_t errlen);

/* The holdout's draws for audit a from the set's key. Returns 0, or -1 when HMAC failed. */
int sl_budget_draws(const struct sl_budget *b, const struct sl_audit *a, struct sl_draws *d);

/* The sha256 of head and config.json's values of the knobs read by any stage of readers
 * (space-separated), SEALED_BUDGET and LEDGER aside: what can change a run or an answer.
 * Returns 0, or -1 with why. */
int sl_knobs_hash(const cJSON *cfg, const char *readers, const char *head, char hex[65], char *err,
		  size_t errlen);

/* The sealed run's key: the upload's sha256 and the knobs the run stage reads (sealed), so a
 * host-side knob (a cost) finds the same run and a run-side one (a limit) another. Returns 0,
 * or -1 with why. */
int sl_run_key(const char *strategy, const cJSON *cfg, char key[65], char *err, size_t errlen);

/* The sealed runs, kept in the history beside the set's key and never in a bundle: the run's
 * status ("ran" with its signals, one a sealed bar; else the outcome's name: failed, cut_short,
 * refused) and its refusals counted per rule under the run key. A run made again replaces its
 * row. Returns 0, or -1 with why. */
int sl_runs_put(sqlite3 *db, const char *set, const char *run, const char *status, const int8_t *sig,
		size_t n, const struct sbx_rule_count *rules, size_t n_rules, char *err, size_t errlen);

/* The kept run of set and run key: its status and signals (*sig malloc'd, NULL when none; the
 * caller frees). Returns 1, 0 when no such run is kept, or -1 with why. */
int sl_runs_get(sqlite3 *db, const char *set, const char *run, char status[16], int8_t **sig, size_t *n,
		char *err, size_t errlen);

#endif
