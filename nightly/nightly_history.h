/* nightly_history.h - every night's verdict per strategy in an embedded SQLite database, keyed
 * by the code's sha256: the source of new / changed / unchanged and of the skip decision. */
#ifndef NIGHTLY_HISTORY_H
#define NIGHTLY_HISTORY_H

#include <stdbool.h>
#include <sqlite3.h>

#include "nightly_index.h"

/* Opens (creating when absent) the history at path, checked whole first: a damaged file is
 * refused with its path and the fix, never recreated. Returns a handle (close with
 * nightly_history_close), or NULL with a message printed. */
sqlite3 *nightly_history_open(const char *path);

/* Closes; safe on NULL. */
void nightly_history_close(sqlite3 *db);

/* Whether the latest recorded audit of strategy name (whose results are the ones in its out
 * directory) was made under exactly key k (code, trade log, data, config, tool) and reached a
 * verdict. Returns 0 and sets *found, or -1 with a message printed. */
int nightly_history_has_key(sqlite3 *db, const char *name, const struct nightly_key *k, bool *found);

/* Sets r->news and r->change by comparing r with the last night before `night` that holds the
 * same name, or else the same code sha (a renamed file is not new); a change of code is named
 * by r->version (set it first, nightly_history_ledger). Returns 0 or -1. */
int nightly_history_compare(sqlite3 *db, const char *night, struct nightly_row *r);

/* Records r as tonight's row (replacing an earlier row of the same night and name, but keeping
 * "audited" true when an earlier run of the same night audited it, so a re-run of a night
 * gives the same index). Updates r->audited accordingly. Returns 0 or -1. */
int nightly_history_record(sqlite3 *db, const char *night, struct nightly_row *r);

/* Records the version the audit in dir saw (its inspect.json and fingerprint.json) in the trial
 * ledger, within the caller's transaction; a row without a verdict or without parsed code
 * records nothing. Sets r->version to its number in the lineage. Returns 0, or -1 with a message
 * printed. */
int nightly_history_ledger(sqlite3 *db, const char *night, const char *dir, struct nightly_row *r);

/* Whether the trial ledger would now place the audit in dir otherwise than its ledger.json
 * says (another version of its lineage was recorded since, or it was audited without the
 * ledger): its deflation is then out of date. Returns 0 and sets *moved, or -1 with a message. */
int nightly_history_ledger_moved(sqlite3 *db, const char *dir, const char *name, bool *moved);

#endif
