/* nightly_index.h - one night's rows (one per strategy), gathered from each audit's out
 * directory, sorted worst news first, and written as index.json and index.txt. */
#ifndef NIGHTLY_INDEX_H
#define NIGHTLY_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "nightly_decide.h"

/* How a row compares with the last earlier night that audited the same strategy. */
enum nightly_news { NIGHTLY_NEW, NIGHTLY_CHANGED, NIGHTLY_UNCHANGED };

struct nightly_row {
	char name[128];
	char verdict[32];       /* a verdict, or "FAILED" when the audit did not reach one */
	char gate_verdict[32];  /* "" when unknown */
	double trades, psr, dsr;  /* NAN when unknown */
	double sharpe;          /* the report's headline: annualised, over per-bar returns; NAN when unknown */
	double sharpe_per_trade;  /* what the deflation is computed on; NAN when unknown */
	double net_return, max_drawdown;  /* compounded net return and worst fall, fractions; NAN when unknown */
	char data[256];         /* the data file the audit was given, as given; "" when none */
	char data_first[40], data_last[40];  /* its first and last bar (fingerprint.json), "" when unknown */
	long version;           /* the version's number in its lineage (the trial ledger), 0 when unknown */
	long blocked, mismatches;         /* -1 when unknown */
	long trials;            /* the trials the DSR counted (declared, or the variants that ran) */
	double pbo;             /* PBO over the declared variants; NAN when none or unknown */
	struct nightly_key key;
	bool audited;           /* audited tonight (false: the earlier results were reused) */
	int audit_rc;           /* exit status of the audit, 0 when reused */
	char bundle[160];       /* relative to the night's folder, "" when there is none */
	char report[200];       /* the bundle's report.html unpacked, relative to the night's folder, or "" */
	char bundle_sha[65];
	long long bundle_size;
	enum nightly_news news;
	char change[256];       /* for NIGHTLY_CHANGED: "verdict A -> B; code x -> y" */
	char note[256];         /* why a row FAILED, or other plain remarks */
	char ledger[160];       /* "version 7 of this strategy since 2099-03-01: deflated for 7
				   trials", "" without a trial ledger */
	char forward[200];      /* the bars since the version's first audit, "" when none */
	bool edge_decayed;      /* the forward return fell below its band */
	char reason[512];       /* why the verdict: the veto's finding, the error line, the failing gates */
};

struct nightly_index {
	/* the night names the folder only; no file holds it, so a re-run is byte-identical */
	char night[16];
	size_t n;
	struct nightly_row *rows;
};

/* Fills the verdict figures of r from the audit directory dir (verdict.json, stats.json: with
 * its ledger sentence and the bars since the first audit), each read through the stage-file
 * table. A missing or failed verdict, or a verdict.json breaking the table, makes r FAILED with
 * a note; another file breaking it leaves its figures unknown and names the file and the field
 * in the note. Never fails itself. */
void nightly_row_load_results(struct nightly_row *r, const char *dir);

/* Whether the audit directory dir's fingerprint.json (read through the stage-file table) is of
 * the code, trade log and data of k: its results are of these uploads. */
bool nightly_row_fingerprint_matches(const char *dir, const struct nightly_key *k);

/* The row as index.json holds it (caller frees). */
cJSON *nightly_row_json(const struct nightly_row *r);

/* Rank of a verdict, 0 worst: FAILED, REJECTED_UNSAFE, INCOMPLETE (nothing could be judged),
 * REJECTED_LOOKAHEAD, NOT_READY, WATCH, READY_FOR_MICRO_LIVE; an unknown verdict ranks with
 * FAILED. */
int nightly_verdict_rank(const char *verdict);

/* Sorts worst news first: by verdict rank, then changed before new before unchanged, then by
 * name, so the order never depends on the order of the files. */
void nightly_index_sort(struct nightly_index *ix);

/* "new", "changed" or "unchanged". */
const char *nightly_news_name(enum nightly_news n);

/* Appends a row (zeroed, figures unknown) and returns it, or NULL when out of memory. The row
 * is owned by ix. */
struct nightly_row *nightly_index_add(struct nightly_index *ix);

/* Frees the rows; safe on a zeroed index. */
void nightly_index_release(struct nightly_index *ix);

/* Writes index.json (stage "nightly") and index.txt (the plain-text table the mail carries)
 * atomically into dir. Returns 0 or -1 with a message printed. */
int nightly_index_write_json(const struct nightly_index *ix, const char *path);
int nightly_index_write_text(const struct nightly_index *ix, const char *path);

/* The row's data in a phrase: "prices.csv, FIRST to LAST" (the path as given, its first and last
 * bar), or "" without a data file. Writes into buf (always terminated). Returns buf. */
char *nightly_row_data_text(const struct nightly_row *r, char *buf, size_t len);

/* Counts rows per verdict into a one-line summary ("3 strategies: 1 REJECTED_UNSAFE, 2
 * NOT_READY"). Writes into buf (always terminated). Returns buf. */
char *nightly_index_summary(const struct nightly_index *ix, char *buf, size_t len);

#endif
