/* sealed_budget.c - the sealed sets' keys and budgets in the ledger's history. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "config.h"
#include "fileio.h"
#include "ledger.h"
#include "sealed_budget.h"

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS sealed_sets (set_sha256 TEXT PRIMARY KEY, key BLOB NOT NULL);"
	"CREATE TABLE IF NOT EXISTS sealed_audits (id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" set_sha256 TEXT NOT NULL, audit TEXT NOT NULL, lineage TEXT NOT NULL,"
	" outcome TEXT NOT NULL DEFAULT '', UNIQUE (set_sha256, audit));"
	"CREATE TABLE IF NOT EXISTS sealed_refusals (set_sha256 TEXT NOT NULL, audit TEXT NOT NULL,"
	" rule TEXT NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (set_sha256, audit, rule));"
	"CREATE TABLE IF NOT EXISTS sealed_runs (set_sha256 TEXT NOT NULL, run TEXT NOT NULL,"
	" status TEXT NOT NULL, signals BLOB, PRIMARY KEY (set_sha256, run));";

static int db_fail(sqlite3 *db, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "the sealed budget could not be %s: %s", what, sqlite3_errmsg(db));
	return -1;
}

int sl_budget_open(const char *path, sqlite3 **db, char *err, size_t errlen)
{
	char *e = NULL, dir[1100];
	const char *slash = strrchr(path, '/');

	/* the history's folder, as the nightly makes it */
	if (slash && slash > path) {
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
		if (sa_mkdirs(dir, 0755, err, errlen) < 0)
			return -1;
	}
	if (da_ledger_open(path, true, db, err, errlen) < 0)
		return -1;
	if (sqlite3_exec(*db, schema_sql, NULL, NULL, &e) != SQLITE_OK) {
		snprintf(err, errlen, "cannot set up the sealed budget: %s", e ? e : "unknown error");
		sqlite3_free(e);
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}

/* One prepared statement with text parameters; step it with the caller. */
static sqlite3_stmt *prep(sqlite3 *db, const char *sql, const char *p1, const char *p2,
			  const char *p3)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	if (p1)
		sqlite3_bind_text(st, 1, p1, -1, SQLITE_STATIC);
	if (p2)
		sqlite3_bind_text(st, 2, p2, -1, SQLITE_STATIC);
	if (p3)
		sqlite3_bind_text(st, 3, p3, -1, SQLITE_STATIC);
	return st;
}

/* The first column of a one-row query as a number; -1 on error, 0 when no row. */
static long long one_num(sqlite3 *db, const char *sql, const char *p1, const char *p2,
			 const char *p3)
{
	sqlite3_stmt *st = prep(db, sql, p1, p2, p3);
	long long v = -1;
	int rc;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : rc == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return v;
}

static int exec_one(sqlite3 *db, const char *sql, const char *p1, const char *p2, const char *p3)
{
	sqlite3_stmt *st = prep(db, sql, p1, p2, p3);
	int rc = st ? sqlite3_step(st) : SQLITE_ERROR;

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The set's key, drawn from getrandom on its first use. */
static int set_key(sqlite3 *db, const char *set, unsigned char key[SL_KEY_BYTES])
{
	sqlite3_stmt *st = prep(db, "SELECT key FROM sealed_sets WHERE set_sha256 = ?", set, NULL, NULL);
	int rc, found = 0;

	if (!st)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_bytes(st, 0) == SL_KEY_BYTES) {
		memcpy(key, sqlite3_column_blob(st, 0), SL_KEY_BYTES);
		found = 1;
	}
	sqlite3_finalize(st);
	if (found)
		return 0;
	if (rc != SQLITE_DONE || getrandom(key, SL_KEY_BYTES, 0) != SL_KEY_BYTES)
		return -1;
	st = prep(db, "INSERT INTO sealed_sets (set_sha256, key) VALUES (?, ?)", set, NULL, NULL);
	if (!st)
		return -1;
	sqlite3_bind_blob(st, 2, key, SL_KEY_BYTES, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The audit's place and its lineage's count, once recorded; the set's count when not. */
static int place(sqlite3 *db, const struct sl_audit *a, long budget, struct sl_budget *b)
{
	long long id = one_num(db, "SELECT id FROM sealed_audits WHERE set_sha256 = ? AND audit = ?",
			       a->set, a->id, NULL);
	long long n;

	if (id < 0)
		return -1;
	if (!id) {
		n = one_num(db, "SELECT count(*) FROM sealed_audits WHERE set_sha256 = ?", a->set, NULL, NULL);
		if (n < 0)
			return -1;
		b->spent = n >= budget;
		if (b->spent) {
			b->used = (long)n;
			n = one_num(db, "SELECT count(*) FROM sealed_audits WHERE set_sha256 = ? AND lineage = ?",
				    a->set, a->lineage, NULL);
			b->lineage_used = (long)n;
			return n < 0 ? -1 : 0;
		}
		if (exec_one(db, "INSERT INTO sealed_audits (set_sha256, audit, lineage) VALUES (?, ?, ?)",
			     a->set, a->id, a->lineage) < 0)
			return -1;
		return place(db, a, budget, b);
	}
	b->used = (long)one_num(db, "SELECT count(*) FROM sealed_audits WHERE set_sha256 = ?1 AND id <= "
				"(SELECT id FROM sealed_audits WHERE set_sha256 = ?1 AND audit = ?2)",
				a->set, a->id, NULL);
	b->lineage_used = (long)one_num(db, "SELECT count(*) FROM sealed_audits WHERE set_sha256 = ?1 "
					"AND lineage = ?3 AND id <= (SELECT id FROM sealed_audits WHERE "
					"set_sha256 = ?1 AND audit = ?2)", a->set, a->id, a->lineage);
	b->spent = false;
	return b->used < 0 || b->lineage_used < 0 ? -1 : 0;
}

/* Ends the transaction begun before rc was reached: committed when rc is 0, else rolled back
 * with why in err. Returns 0 or -1. */
static int end_tx(sqlite3 *db, int rc, char *err, size_t errlen)
{
	if (rc < 0) {
		db_fail(db, "written", err, errlen);
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "written", err, errlen);
	return 0;
}

int sl_budget_take(sqlite3 *db, const struct sl_audit *a, long budget, struct sl_budget *b,
		   char *err, size_t errlen)
{
	memset(b, 0, sizeof *b);
	b->budget = budget;
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "locked", err, errlen);
	return end_tx(db, set_key(db, a->set, b->key) < 0 || place(db, a, budget, b) < 0 ? -1 : 0,
		      err, errlen);
}

/* One rule's count of refusals, under the audit or the run key. Returns 0 or -1. */
static int record_rule(sqlite3 *db, const char *set, const char *audit, const struct sbx_rule_count *r)
{
	/* the rule's name is the sandbox's own text (sbx_rules.h), never the upload's */
	sqlite3_stmt *st = prep(db, "INSERT OR REPLACE INTO sealed_refusals (set_sha256, audit, rule, "
				"count) VALUES (?, ?, ?, ?)", set, audit, r->rule);
	int rc;

	if (!st)
		return -1;
	sqlite3_bind_int64(st, 4, r->count);
	rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	sqlite3_finalize(st);
	return rc;
}

int sl_budget_record(sqlite3 *db, const struct sl_audit *a, enum sl_outcome o,
		     const struct sbx_rule_count *rules, size_t n_rules, char *err, size_t errlen)
{
	int rc;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "locked", err, errlen);
	rc = exec_one(db, "UPDATE sealed_audits SET outcome = ?3 WHERE set_sha256 = ?1 AND audit = ?2",
		      a->set, a->id, sl_outcome_name(o));
	for (size_t i = 0; rc == 0 && i < n_rules; i++)
		rc = record_rule(db, a->set, a->id, &rules[i]);
	return end_tx(db, rc, err, errlen);
}

/* A uniform in (0, 1) from eight bytes: 53 bits, centred in their cell. */
static double uniform(const unsigned char *p)
{
	uint64_t x = 0;

	for (int i = 0; i < 8; i++)
		x = x << 8 | p[i];
	return ((double)(x >> 11) + 0.5) / 9007199254740992.0;
}

int sl_budget_draws(const struct sl_budget *b, const struct sl_audit *a, struct sl_draws *d)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (!HMAC(EVP_sha256(), b->key, SL_KEY_BYTES, (const unsigned char *)a->id, strlen(a->id),
		  md, &n) || n < 24)
		return -1;
	d->gamma = uniform(md);
	d->eta = uniform(md + 8);
	d->xi = uniform(md + 16);
	return 0;
}

/* The value at a knob's "key" or "group.key" in config.json (borrowed), or NULL. */
static const cJSON *at(const cJSON *cfg, const char *path)
{
	char group[128];
	const char *dot = strchr(path, '.');

	if (!dot)
		return cJSON_GetObjectItemCaseSensitive(cfg, path);
	snprintf(group, sizeof group, "%.*s", (int)(dot - path), path);
	return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(cfg, group), dot + 1);
}

/* Whether knob k is read by one of the stages of readers (space-separated) and can change what
 * is run or told (the budget and the history's place cannot). */
static bool read_by(enum sa_knob_id k, const char *readers)
{
	char pad[512], word[64];
	const char *p = readers;
	int n;

	if (!sa_knobs[k].path || k == SA_K_SEALED_BUDGET || k == SA_K_LEDGER)
		return false;
	snprintf(pad, sizeof pad, " %s ", sa_knobs[k].readers);
	while (sscanf(p, "%63s%n", word, &n) == 1) {
		char w[70];

		snprintf(w, sizeof w, " %s ", word);
		if (strstr(pad, w))
			return true;
		p += n;
	}
	return false;
}

int sl_knobs_hash(const cJSON *cfg, const char *readers, const char *head, char hex[65], char *err,
		  size_t errlen)
{
	char text[8192], *v;
	size_t used = (size_t)snprintf(text, sizeof text, "%s\n", head);

	for (int k = 0; k < SA_K_COUNT && used < sizeof text; k++) {
		if (!read_by((enum sa_knob_id)k, readers))
			continue;
		v = cJSON_PrintUnformatted(at(cfg, sa_knobs[k].path));
		used += (size_t)snprintf(text + used, sizeof text - used, "%s=%s\n", sa_knobs[k].path,
					 v ? v : "null");
		cJSON_free(v);
	}
	if (used >= sizeof text)
		return snprintf(err, errlen, "the knobs do not fit"), -1;
	return sa_sha256_buf(text, used, hex, err, errlen);
}

int sl_run_key(const char *strategy, const cJSON *cfg, char key[65], char *err, size_t errlen)
{
	char up[65], head[80];

	if (sa_sha256_file(strategy, up, err, errlen) < 0)
		return -1;
	snprintf(head, sizeof head, "run %s", up);
	return sl_knobs_hash(cfg, "sealed", head, key, err, errlen);
}

int sl_runs_put(sqlite3 *db, const char *set, const char *run, const char *status, const int8_t *sig,
		size_t n, const struct sbx_rule_count *rules, size_t n_rules, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return db_fail(db, "locked", err, errlen);
	st = prep(db, "INSERT OR REPLACE INTO sealed_runs (set_sha256, run, status, signals) VALUES (?, ?, ?, ?)",
		  set, run, status);
	rc = st ? 0 : -1;
	if (st && sig)
		sqlite3_bind_blob(st, 4, n ? (const void *)sig : "", (int)n, SQLITE_STATIC);
	if (st && sqlite3_step(st) != SQLITE_DONE)
		rc = -1;
	sqlite3_finalize(st);
	for (size_t i = 0; rc == 0 && i < n_rules; i++)
		rc = record_rule(db, set, run, &rules[i]);
	return end_tx(db, rc, err, errlen);
}

int sl_runs_get(sqlite3 *db, const char *set, const char *run, char status[16], int8_t **sig, size_t *n,
		char *err, size_t errlen)
{
	sqlite3_stmt *st = prep(db, "SELECT status, signals FROM sealed_runs WHERE set_sha256 = ? AND run = ?",
				set, run, NULL);
	int rc, found = 0;

	*sig = NULL;
	*n = 0;
	if (!st)
		return db_fail(db, "read", err, errlen);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int bytes = sqlite3_column_bytes(st, 1);
		const void *blob = sqlite3_column_blob(st, 1);

		snprintf(status, 16, "%s", (const char *)sqlite3_column_text(st, 0));
		found = 1;
		if (blob && bytes > 0) {
			*sig = malloc((size_t)bytes);
			if (!*sig) {
				sqlite3_finalize(st);
				return snprintf(err, errlen, "out of memory"), -1;
			}
			memcpy(*sig, blob, (size_t)bytes);
			*n = (size_t)bytes;
		}
	} else if (rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return db_fail(db, "read", err, errlen);
	}
	sqlite3_finalize(st);
	return found;
}
