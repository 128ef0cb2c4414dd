/* ledger.h - the trial ledger in the nightly's history (SQLite): every version of every strategy,
 * linked into lineages, so a retune counts as one more trial of what it retunes.
 *
 * The rule, in order: a version whose normalised code (inspect.json strategy.normalised) is
 * already recorded is that version, whatever the file is called; else a file name already
 * recorded continues its lineage with a new version; else code whose structure (the constants
 * abstracted) matches a recorded version is a new version of that one's lineage (the oldest
 * when several match); else it starts a lineage named after the file. */
#ifndef SA_LEDGER_H
#define SA_LEDGER_H

#include <stdbool.h>
#include <stddef.h>
#include <sqlite3.h>
#include <cjson/cJSON.h>

#include "stagefile.h"

/* What the ledger knows of one version of a strategy. */
struct da_ledger_key {
	char version[65];    /* normalised code with its constants, sha256 */
	char structure[65];  /* normalised code with its constants abstracted, sha256 */
	long variants;       /* the VARIANTS it declares (0: none) */
	char data_last[40];  /* the data's last bar when this version was audited (ISO-8601 UTC) */
};

/* Where one version stands in its lineage. */
struct da_ledger_view {
	bool known;          /* the version is already recorded */
	bool new_lineage;    /* no recorded lineage takes it: it would start one */
	char lineage[128];   /* the lineage: the file name that started it */
	long version;        /* its number in the lineage, from 1 */
	long versions;       /* versions of the lineage so far, this one included */
	long trials;         /* the lineage's trials: each version counts its declared variants, at least 1 */
	char first_seen[16]; /* YYYY-MM-DD: the night (or data) the lineage was first seen */
	char since[40];      /* the data's last bar at this version's first audit; "" when new */
};

/* The key of the version an audit saw, from its inspect.json and fingerprint.json, read through
 * the stage-file table. Returns 0, or -1 with why the ledger does not apply in err (a file
 * unusable or breaking the table is named with its field). */
int da_ledger_key_read(struct sa_sf *inspect, struct sa_sf *fingerprint, struct da_ledger_key *k,
		       char *err, size_t errlen);

/* "version 7 of this strategy since 2099-03-01: deflated for 7 trials" from stats.json, read
 * through the table, into buf; "" when it holds no ledger, or breaks the table (stats->broken
 * says where). Returns buf. */
char *da_ledger_sentence(struct sa_sf *stats, char *buf, size_t len);

/* Opens the history at path, checked whole (PRAGMA quick_check) before use. create: make it
 * (and the ledger's tables) when absent, for writing; else read-only, and *db is NULL with 0
 * returned when there is no file. A file that is not a sound SQLite database is refused, never
 * recreated: -1 with its path and the fix in err. */
int da_ledger_open(const char *path, bool create, sqlite3 **db, char *err, size_t errlen);

/* Creates the ledger's tables when absent. Returns 0, or -1 with the reason in err. */
int da_ledger_schema(sqlite3 *db, char *err, size_t errlen);

/* Where a strategy named name with key k stands, before it is recorded (today: the date a new
 * lineage would be first seen). Reads only; tables that do not exist yet read as empty.
 * Returns 0, or -1 with the reason in err. */
int da_ledger_view(sqlite3 *db, const char *name, const struct da_ledger_key *k, const char *today,
		   struct da_ledger_view *v, char *err, size_t errlen);

/* Records the version (once: a version already recorded keeps its first night and data) and
 * the name's lineage, within the caller's transaction; v gets the view it was recorded with.
 * Returns 0, or -1 with the reason in err. */
int da_ledger_record(sqlite3 *db, const char *name, const char *night, const struct da_ledger_key *k,
		     struct da_ledger_view *v, char *err, size_t errlen);

#endif
