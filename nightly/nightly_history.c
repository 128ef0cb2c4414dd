/* nightly_history.c - the nights table in SQLite: one row per night and strategy. */
#include <stdio.h>
#include <string.h>

#include "fileio.h"
#include "ledger.h"
#include "msg.h"
#include "nightly_history.h"
#include "stagefile.h"

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS nights ("
	" night TEXT NOT NULL, name TEXT NOT NULL,"
	" code_sha256 TEXT NOT NULL, tradelog_sha256 TEXT NOT NULL, data_sha256 TEXT NOT NULL,"
	" config_sha256 TEXT NOT NULL, tool TEXT NOT NULL,"
	" verdict TEXT NOT NULL, gate_verdict TEXT NOT NULL, trades REAL, sharpe REAL, psr REAL,"
	" dsr REAL, blocked INTEGER, mismatches INTEGER, audited INTEGER NOT NULL,"
	" PRIMARY KEY (night, name));"
	"CREATE INDEX IF NOT EXISTS nights_code ON nights (code_sha256, night);";

sqlite3 *nightly_history_open(const char *path)
{
	sqlite3 *db = NULL;
	char *err = NULL, why[1400];

	/* checked whole first: a damaged history is refused with its path and the fix */
	if (da_ledger_open(path, true, &db, why, sizeof why) != 0) {
		sa_error("%s", why);
		goto fail;
	}
	if (sqlite3_exec(db, schema_sql, NULL, NULL, &err) != SQLITE_OK) {
		sa_error("cannot set up the history, '%s': %s", path, err ? err : "unknown error");
		sqlite3_free(err);
		goto fail;
	}
	return db;
fail:
	sqlite3_close(db);
	return NULL;
}

void nightly_history_close(sqlite3 *db)
{
	sqlite3_close(db);
}

/* Prepares sql or prints why not. */
static sqlite3_stmt *prepare(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		sa_error("history query failed: %s", sqlite3_errmsg(db));
	return st;
}

/* A text column, never NULL. */
static const char *col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);

	return s ? (const char *)s : "";
}

int nightly_history_has_key(sqlite3 *db, const char *name, const struct nightly_key *k, bool *found)
{
	sqlite3_stmt *st = prepare(db, "SELECT code_sha256, tradelog_sha256, data_sha256, config_sha256,"
				   " tool, verdict FROM nights WHERE name = ?1 ORDER BY night DESC LIMIT 1");
	int rc = -1, step;

	*found = false;
	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		*found = strcmp(col_text(st, 0), k->code) == 0 && strcmp(col_text(st, 1), k->tradelog) == 0 &&
			 strcmp(col_text(st, 2), k->data) == 0 && strcmp(col_text(st, 3), k->config) == 0 &&
			 strcmp(col_text(st, 4), k->tool) == 0 && strcmp(col_text(st, 5), "FAILED") != 0;
	} else if (step != SQLITE_DONE) {
		sa_error("history query failed: %s", sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Describes what changed between the earlier row (code, verdict) and r: a new version of the
 * code by its number in the trial ledger, as a person counts retunes. */
static void describe_change(struct nightly_row *r, const char *old_code, const char *old_verdict)
{
	char vpart[96] = "", cpart[64] = "";
	bool vdiff = strcmp(old_verdict, r->verdict) != 0, cdiff = strcmp(old_code, r->key.code) != 0;

	r->news = vdiff || cdiff ? NIGHTLY_CHANGED : NIGHTLY_UNCHANGED;
	r->change[0] = '\0';
	if (vdiff)
		snprintf(vpart, sizeof vpart, "verdict %s -> %s", old_verdict, r->verdict);
	if (cdiff && r->version > 0)
		snprintf(cpart, sizeof cpart, "code changed: version %ld", r->version);
	else if (cdiff)
		snprintf(cpart, sizeof cpart, "code changed");
	snprintf(r->change, sizeof r->change, "%s%s%s", vpart, vdiff && cdiff ? "; " : "", cpart);
}

int nightly_history_compare(sqlite3 *db, const char *night, struct nightly_row *r)
{
	/* the same name first; failing that, the same code under another name */
	sqlite3_stmt *st = prepare(db, "SELECT code_sha256, verdict, name = ?2 AS same FROM nights"
				   " WHERE night < ?1 AND (name = ?2 OR (code_sha256 = ?3 AND ?3 <> ''))"
				   " ORDER BY same DESC, night DESC, name LIMIT 1");
	int rc = -1, step;

	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, night, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->key.code, -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		describe_change(r, col_text(st, 0), col_text(st, 1));
	} else if (step == SQLITE_DONE) {
		r->news = NIGHTLY_NEW;
		r->change[0] = '\0';
	} else {
		sa_error("history query failed: %s", sqlite3_errmsg(db));
		goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

/* Binds a figure, or NULL when it is unknown. */
static void bind_num(sqlite3_stmt *st, int i, double x)
{
	if (x == x)
		sqlite3_bind_double(st, i, x);
	else
		sqlite3_bind_null(st, i);
}

static void bind_count(sqlite3_stmt *st, int i, long x)
{
	if (x >= 0)
		sqlite3_bind_int64(st, i, x);
	else
		sqlite3_bind_null(st, i);
}

int nightly_history_record(sqlite3 *db, const char *night, struct nightly_row *r)
{
	sqlite3_stmt *st = prepare(db,
		"INSERT INTO nights VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
		" ?15, ?16) ON CONFLICT (night, name) DO UPDATE SET code_sha256 = excluded.code_sha256,"
		" tradelog_sha256 = excluded.tradelog_sha256, data_sha256 = excluded.data_sha256,"
		" config_sha256 = excluded.config_sha256, tool = excluded.tool,"
		" verdict = excluded.verdict, gate_verdict = excluded.gate_verdict,"
		" trades = excluded.trades, sharpe = excluded.sharpe, psr = excluded.psr,"
		" dsr = excluded.dsr, blocked = excluded.blocked, mismatches = excluded.mismatches,"
		" audited = max(audited, excluded.audited) RETURNING audited");
	int rc = -1;

	if (!st)
		goto out;
	sqlite3_bind_text(st, 1, night, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, r->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, r->key.code, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->key.tradelog, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, r->key.data, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, r->key.config, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, r->key.tool, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, r->verdict, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, r->gate_verdict, -1, SQLITE_STATIC);
	bind_num(st, 10, r->trades);
	bind_num(st, 11, r->sharpe);
	bind_num(st, 12, r->psr);
	bind_num(st, 13, r->dsr);
	bind_count(st, 14, r->blocked);
	bind_count(st, 15, r->mismatches);
	sqlite3_bind_int(st, 16, r->audited ? 1 : 0);
	if (sqlite3_step(st) != SQLITE_ROW) {
		sa_error("cannot record '%s' in the history: %s", r->name, sqlite3_errmsg(db));
		goto out;
	}
	r->audited = sqlite3_column_int(st, 0) != 0;
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int nightly_history_ledger(sqlite3 *db, const char *night, const char *dir, struct nightly_row *r)
{
	char why[1024];
	struct sa_sf in = { 0 }, fp = { 0 };
	struct da_ledger_key k;
	struct da_ledger_view v;
	int rc = 0;

	if (strcmp(r->verdict, "FAILED") == 0)
		goto out;
	sa_sf_open(&in, dir, SA_SF_INSPECT);
	sa_sf_open(&fp, dir, SA_SF_FINGERPRINT);
	if (da_ledger_key_read(&in, &fp, &k, why, sizeof why) != 0)
		goto out;
	if (da_ledger_record(db, r->name, night, &k, &v, why, sizeof why) != 0)
		rc = sa_error("cannot record '%s' in the trial ledger: %s", r->name, why);
	else
		r->version = v.version;
out:
	sa_sf_close(&in);
	sa_sf_close(&fp);
	return rc;
}

/* Whether ledger.json (read through the stage-file table) places the version as the ledger
 * does now; a file breaking the table places it nowhere. */
static bool ledger_json_agrees(const char *dir, const struct da_ledger_view *v)
{
	struct sa_sf lj;
	bool used = false, same;
	const char *lineage = "";
	double version = -1, versions = -1, trials = -1;

	sa_sf_open(&lj, dir, SA_SF_LEDGER);
	sa_sf_bool(&lj, NULL, SA_FD_LG_USED, &used);
	sa_sf_str(&lj, NULL, SA_FD_LG_LINEAGE, &lineage);
	sa_sf_num(&lj, NULL, SA_FD_LG_VERSION, &version);
	sa_sf_num(&lj, NULL, SA_FD_LG_VERSIONS, &versions);
	sa_sf_num(&lj, NULL, SA_FD_LG_TRIALS, &trials);
	same = lj.ok && !lj.broken[0] && used && strcmp(lineage, v->lineage) == 0 &&
	       version == (double)v->version && versions == (double)v->versions &&
	       trials == (double)v->trials;
	sa_sf_close(&lj);
	return same;
}

int nightly_history_ledger_moved(sqlite3 *db, const char *dir, const char *name, bool *moved)
{
	char why[1024];
	struct sa_sf in, fp;
	struct da_ledger_key k;
	struct da_ledger_view v;
	int rc = -1;

	*moved = false;
	sa_sf_open(&in, dir, SA_SF_INSPECT);
	sa_sf_open(&fp, dir, SA_SF_FINGERPRINT);
	if (da_ledger_key_read(&in, &fp, &k, why, sizeof why) != 0) {
		/* no code the ledger counts: nothing of it can have moved (nor can since, the
		 * data's last bar at the first audit, without new data, which re-audits anyway) */
		rc = 0;
		goto out;
	}
	if (da_ledger_view(db, name, &k, "", &v, why, sizeof why) != 0) {
		sa_error("%s", why);
		goto out;
	}
	*moved = !ledger_json_agrees(dir, &v);
	rc = 0;
out:
	sa_sf_close(&in);
	sa_sf_close(&fp);
	return rc;
}
