/* tradelog.h - an uploaded trade log (one closed trade per row) and its loader (libcsv). */
#ifndef SA_TRADELOG_H
#define SA_TRADELOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct da_trade {
	int64_t entry, exit;  /* seconds since the epoch, UTC; exit >= entry */
	int side;             /* +1 long, -1 short */
	double ret;           /* claimed return as a fraction (0.01 = 1 %); of the account at the
			       * entry in an account log (da_tradelog_to_account) */
	size_t line;          /* the file's line it came from (1 is the header) */
	double stake, pnl;    /* an account log's stake and profit in the account's currency
			       * (NAN when the log has none) */
	double trade_ret;     /* the return on the trade's own stake, as claimed */
};

/* An account-level log: trades with stakes on one balance. */
struct da_account {
	bool on;              /* the log gives stakes and profits: scored as an account */
	double balance;       /* the starting balance */
	char balance_from[96];/* where it came from: the export's starting_balance, or the largest
			       * sum of stakes held at once */
	size_t most_open;     /* the most trades open at once */
	/* what the export says of itself (NAN when it says nothing): freqtrade's figures */
	double claimed_profit_total, claimed_max_drawdown_account;
};

struct da_tradelog {
	size_t n;
	struct da_trade *trades;
	char columns[256];    /* the header as found, for the inspect report */
	char format[32];      /* the layout it was read as (tradelog_formats.h), "" when unknown */
	struct da_account account;
};

/* Turns a log with stakes into returns on the account: each trade's ret becomes its profit
 * over the balance at its entry (the starting balance plus the profit of every trade closed
 * by then), so compounding the returns at each entry's equity gives balance + realised profit.
 * When the log gives no balance it is the largest sum of stakes open at once. Returns 0, or -1
 * with the reason in err (a balance that is not positive). */
int da_tradelog_to_account(struct da_tradelog *log, char *err, size_t errlen);

/* Loads path: a header holding at least entry_time,exit_time,side,return (any order, extra
 * columns ignored); side is long/short (any case); return a plain finite fraction above -1.
 * Refused as well: a row that repeats another exactly (both lines named), and returns whose
 * compounded equity would not stay finite. Returns 0 and
 * fills *log (release with da_tradelog_release), or -1 with "line N: reason" in err. */
int da_tradelog_load(const char *path, struct da_tradelog *log, char *err, size_t errlen);
int da_tradelog_parse(const char *buf, size_t len, struct da_tradelog *log, char *err, size_t errlen);

/* Frees and zeroes. Safe on a zeroed or released struct. */
void da_tradelog_release(struct da_tradelog *log);

#endif
