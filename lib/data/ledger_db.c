/* ledger_db.c - the trial ledger's tables and its lineage rule (ledger.h). Prints nothing. */
#include "ledger.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char schema_sql[] =
	"CREATE TABLE IF NOT EXISTS ledger_lineages ("
	" lineage TEXT PRIMARY KEY, first_seen TEXT NOT NULL);"
	"CREATE TABLE IF NOT EXISTS ledger_versions ("
	" version_sha256 TEXT PRIMARY KEY, structure_sha256 TEXT NOT NULL, lineage TEXT NOT NULL,"
	" version INTEGER NOT NULL, name TEXT NOT NULL, first_seen TEXT NOT NULL,"
	" variants INTEGER NOT NULL, data_last TEXT NOT NULL, UNIQUE (lineage, version));"
	"CREATE INDEX IF NOT EXISTS ledger_structure ON ledger_versions (structure_sha256);"
	"CREATE TABLE IF NOT EXISTS ledger_names (name TEXT PRIMARY KEY, lineage TEXT NOT NULL);";

static int fail(char *err, size_t errlen, const char *what, sqlite3 *db)
{
	snprintf(err, errlen, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
	return -1;
}

/* "ok" from PRAGMA quick_check, or the first problem it names. Returns 0 when sound. */
static int check_sound(sqlite3 *db, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (sqlite3_prepare_v2(db, "PRAGMA quick_check(1)", -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		goto out;
	}
	if (sqlite3_step(st) != SQLITE_ROW) {
		snprintf(err, errlen, "%s", sqlite3_errmsg(db));
		goto out;
	}
	snprintf(err, errlen, "%s", (const char *)sqlite3_column_text(st, 0));
	rc = strcmp(err, "ok") == 0 ? 0 : -1;
out:
	sqlite3_finalize(st);
	return rc;
}

int da_ledger_open(const char *path, bool create, sqlite3 **db, char *err, size_t errlen)
{
	char damage[256];
	int flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;

	*db = NULL;
	if (!create && access(path, F_OK) != 0)
		return 0;
	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open the history, '%s': %s", path,
			 *db ? sqlite3_errmsg(*db) : "out of memory");
		goto fail;
	}
	/* parallel audits read while the index step writes; wait rather than fail on a lock */
	sqlite3_busy_timeout(*db, 30000);
	if (check_sound(*db, damage, sizeof damage) != 0) {
		snprintf(err, errlen, "the history '%s' is damaged (%s) and is left as it is (hint: "
			 "restore it from a backup, or move it aside to start a new history: "
			 "mv '%s' '%s.damaged')", path, damage, path, path);
		goto fail;
	}
	if (create && da_ledger_schema(*db, err, errlen) != 0)
		goto fail;
	return 0;
fail:
	sqlite3_close(*db);
	*db = NULL;
	return -1;
}

int da_ledger_schema(sqlite3 *db, char *err, size_t errlen)
{
	char *e = NULL;

	if (sqlite3_exec(db, schema_sql, NULL, NULL, &e) != SQLITE_OK) {
		snprintf(err, errlen, "cannot set up the trial ledger: %s", e ? e : "unknown error");
		sqlite3_free(e);
		return -1;
	}
	return 0;
}

/* Runs sql (binding the text arguments, NULL-terminated) and copies the first row's first
 * n_out columns, as text, into outs (buffers of lens bytes, the caller's). Returns 1 for a row,
 * 0 for none (a table that does not exist yet reads as none), -1 with err. */
static int one_row(sqlite3 *db, const char *sql, const char *const *args, char **outs,
		   const size_t *lens, int n_out, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int rc = -1, step;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		if (strstr(sqlite3_errmsg(db), "no such table"))
			rc = 0;
		else
			fail(err, errlen, "the trial ledger cannot be read", db);
		goto out;
	}
	for (int i = 0; args[i]; i++)
		sqlite3_bind_text(st, i + 1, args[i], -1, SQLITE_STATIC);
	step = sqlite3_step(st);
	if (step == SQLITE_ROW) {
		for (int i = 0; i < n_out; i++) {
			const unsigned char *t = sqlite3_column_text(st, i);
			snprintf(outs[i], lens[i], "%s", t ? (const char *)t : "");
		}
		rc = 1;
	} else if (step == SQLITE_DONE) {
		rc = 0;
	} else {
		fail(err, errlen, "the trial ledger cannot be read", db);
	}
out:
	sqlite3_finalize(st);
	return rc;
}

/* The lineage a key belongs to, by the rule in ledger.h. Sets v->known, v->lineage, v->version
 * (when known) and v->since. Returns 1 when a lineage takes it, 0 when none does, -1. */
static int find_lineage(sqlite3 *db, const char *name, const struct da_ledger_key *k,
			struct da_ledger_view *v, char *err, size_t errlen)
{
	char num[32];
	char *outs[3] = { v->lineage, num, v->since };
	const size_t lens[3] = { sizeof v->lineage, sizeof num, sizeof v->since };
	const char *by_version[] = { k->version, NULL }, *by_name[] = { name, NULL },
		   *by_structure[] = { k->structure, NULL };
	int r;

	r = one_row(db, "SELECT lineage, version, data_last FROM ledger_versions WHERE version_sha256 = ?1",
		    by_version, outs, lens, 3, err, errlen);
	if (r != 0) {
		v->known = r == 1;
		v->version = r == 1 ? strtol(num, NULL, 10) : 0;
		return r;
	}
	r = one_row(db, "SELECT lineage FROM ledger_names WHERE name = ?1", by_name, outs, lens, 1,
		    err, errlen);
	if (r != 0)
		return r;
	return one_row(db, "SELECT lineage FROM ledger_versions WHERE structure_sha256 = ?1"
		       " ORDER BY first_seen, lineage, version LIMIT 1", by_structure, outs, lens, 1,
		       err, errlen);
}

/* The lineage's versions, trials and first night, as recorded. Returns 0 or -1. */
static int lineage_counts(sqlite3 *db, struct da_ledger_view *v, char *err, size_t errlen)
{
	char n[32], t[32];
	char *outs[3] = { n, t, v->first_seen };
	const size_t lens[3] = { sizeof n, sizeof t, sizeof v->first_seen };
	const char *args[] = { v->lineage, NULL };
	int r = one_row(db, "SELECT count(*), total(max(variants, 1)),"
			" (SELECT first_seen FROM ledger_lineages WHERE lineage = ?1)"
			" FROM ledger_versions WHERE lineage = ?1", args, outs, lens, 3, err, errlen);

	if (r < 0)
		return -1;
	v->versions = r == 1 ? strtol(n, NULL, 10) : 0;
	v->trials = r == 1 ? (long)strtod(t, NULL) : 0;
	return 0;
}

int da_ledger_view(sqlite3 *db, const char *name, const struct da_ledger_key *k, const char *today,
		   struct da_ledger_view *v, char *err, size_t errlen)
{
	int r;

	memset(v, 0, sizeof *v);
	r = find_lineage(db, name, k, v, err, errlen);
	if (r < 0)
		return -1;
	if (r == 0) {
		/* nothing recorded takes it: it starts a lineage of its own, tonight */
		v->new_lineage = true;
		snprintf(v->lineage, sizeof v->lineage, "%s", name);
		snprintf(v->first_seen, sizeof v->first_seen, "%s", today);
		v->versions = v->version = 1;
		v->trials = k->variants > 1 ? k->variants : 1;
		return 0;
	}
	if (lineage_counts(db, v, err, errlen) != 0)
		return -1;
	if (!v->first_seen[0])
		snprintf(v->first_seen, sizeof v->first_seen, "%s", today);
	if (!v->known) {
		v->versions++;
		v->version = v->versions;
		v->trials += k->variants > 1 ? k->variants : 1;
		v->since[0] = '\0';
	}
	return 0;
}

/* Runs sql with the text arguments (NULL-terminated) then the integers. Returns 0 or -1. */
static int exec_bound(sqlite3 *db, const char *sql, const char *const *args, const long *nums,
		      int n_nums, char *err, size_t errlen)
{
	sqlite3_stmt *st = NULL;
	int i = 0, rc = -1;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		goto out;
	for (; args[i]; i++)
		sqlite3_bind_text(st, i + 1, args[i], -1, SQLITE_STATIC);
	for (int j = 0; j < n_nums; j++)
		sqlite3_bind_int64(st, i + j + 1, nums[j]);
	if (sqlite3_step(st) == SQLITE_DONE)
		rc = 0;
out:
	if (rc != 0)
		fail(err, errlen, "cannot record in the trial ledger", db);
	sqlite3_finalize(st);
	return rc;
}

int da_ledger_record(sqlite3 *db, const char *name, const char *night, const struct da_ledger_key *k,
		     struct da_ledger_view *v, char *err, size_t errlen)
{
	const char *lin[] = { v->lineage, night, NULL };
	const char *ver[] = { k->version, k->structure, v->lineage, name, night, k->data_last, NULL };
	const char *nm[] = { name, v->lineage, NULL };
	long nums[2];

	if (da_ledger_schema(db, err, errlen) != 0 || da_ledger_view(db, name, k, night, v, err, errlen) != 0)
		return -1;
	nums[0] = v->version;
	nums[1] = k->variants;
	if (v->new_lineage &&
	    exec_bound(db, "INSERT INTO ledger_lineages VALUES (?1, ?2)", lin, NULL, 0, err, errlen) != 0)
		return -1;
	if (!v->known &&
	    exec_bound(db, "INSERT INTO ledger_versions (version_sha256, structure_sha256, lineage, name,"
		       " first_seen, data_last, version, variants) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
		       ver, nums, 2, err, errlen) != 0)
		return -1;
	if (!v->known)
		snprintf(v->since, sizeof v->since, "%s", k->data_last);
	return exec_bound(db, "INSERT INTO ledger_names VALUES (?1, ?2) ON CONFLICT (name)"
			  " DO UPDATE SET lineage = excluded.lineage", nm, NULL, 0, err, errlen);
}

/* Why f cannot give the ledger its key: its status when it is not a usable file, else "". */
static const char *unusable(const struct sa_sf *f)
{
	return f->ok ? "" : f->status;
}

int da_ledger_key_read(struct sa_sf *inspect, struct sa_sf *fingerprint, struct da_ledger_key *k,
		       char *err, size_t errlen)
{
	const char *last = "", *version = "", *structure = "";
	double variants = 0;
	bool parsed;

	memset(k, 0, sizeof *k);
	if (!inspect->ok || !fingerprint->ok) {
		snprintf(err, errlen, "inspect.json or fingerprint.json is unusable: %s%s%s",
			 unusable(inspect), inspect->ok ? "" : "; ", unusable(fingerprint));
		return -1;
	}
	parsed = sa_sf_obj_or_null(inspect, NULL, SA_FD_IN_NORMALISED) != NULL;
	last = sa_sf_str_or(fingerprint, NULL, SA_FD_FP_DATA_LAST, "");
	version = sa_sf_str_or(inspect, NULL, SA_FD_IN_NORM_VERSION, "");
	structure = sa_sf_str_or(inspect, NULL, SA_FD_IN_NORM_STRUCTURE, "");
	variants = sa_sf_num_or(inspect, NULL, SA_FD_IN_VARIANTS_COUNT, 0);
	if (inspect->broken[0] || fingerprint->broken[0]) {
		snprintf(err, errlen, "%s", inspect->broken[0] ? inspect->broken : fingerprint->broken);
		return -1;
	}
	if (!parsed) {
		snprintf(err, errlen, "no strategy code was parsed: the ledger counts versions of code");
		return -1;
	}
	if (!*last) {
		snprintf(err, errlen, "fingerprint.json names no last bar of the data");
		return -1;
	}
	snprintf(k->version, sizeof k->version, "%s", version);
	snprintf(k->structure, sizeof k->structure, "%s", structure);
	snprintf(k->data_last, sizeof k->data_last, "%s", last);
	k->variants = (long)variants;
	return 0;
}

char *da_ledger_sentence(struct sa_sf *stats, char *buf, size_t len)
{
	const cJSON *l = sa_sf_obj_or_null(stats, NULL, SA_FD_ST_LEDGER);
	double trials = 0, version = 0;
	const char *first = "";

	buf[0] = '\0';
	if (!l)
		return buf;
	sa_sf_num(stats, NULL, SA_FD_ST_TRIALS, &trials);
	sa_sf_num(stats, NULL, SA_FD_ST_LEDGER_VERSION, &version);
	sa_sf_str(stats, NULL, SA_FD_ST_LEDGER_FIRST, &first);
	if (!stats->broken[0])
		snprintf(buf, len, "version %.0f of this strategy since %s: deflated for %.0f trial%s",
			 version, first, trials, trials == 1 ? "" : "s");
	return buf;
}
