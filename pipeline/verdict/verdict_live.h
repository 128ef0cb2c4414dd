/* verdict_live.h - what the verdict says of the live replay (lookahead.json "live": each bar
 * decided with only the bars up to it) and of the backtest beside it (replay.json): the first
 * bars where the two decisions differ, what the difference is worth, and how many bars were
 * decided live. */
#ifndef SA_VERDICT_LIVE_H
#define SA_VERDICT_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

#include "stagefile.h"

/* First differences the veto may name. */
#define VD_LIVE_NAMED 2
#define VD_LIVE_FIRST 10

struct vd_live {
	bool present;              /* lookahead.json has a live object */
	bool ok;                   /* its ok is true */
	char reason[160];          /* why it could not run, "" when it ran */
	long bars, decided;        /* bars of the series, bars decided live */
	bool complete;             /* live.complete: every bar decided or sampled, every
				    * difference settled, no live run failed */
	long differing, leaks, memory; /* differ from the backtest; confirmed leaks; memory */
	long unconfirmed, failed;  /* differences left unconfirmed; live runs that failed */
	bool sampled;              /* live.sample is an object */
	long drawn, disagreeing;   /* the sample past the budget */
	double share, confidence;  /* a look-ahead on share of the bars caught with confidence */
	struct vd_live_diff {
		long bar;
		char time[32];
		int backtest, live;    /* -1, 0, 1 */
		char confirmed[16];    /* "leak", "memory" or "unconfirmed" */
	} first[VD_LIVE_FIRST];
	size_t n_first;
	long call_leaks;           /* of leaks, the bars a freqtrade class's callbacks answered the
				    * same trade otherwise (live.call_leaks; 0 without callbacks) */
	struct vd_live_call {      /* the first of them, when call_leaks > 0 */
		long bar;
		char time[32];
		int exit[2], refused[2];   /* [0] the backtest's answer, [1] the live one */
		double stop[2];            /* NAN: no stop given */
	} call_first;
	bool has_call_first;
	bool scored;               /* replay.json scored the live decisions */
	double net_backtest, net_live; /* replay.json live_vs_backtest; NAN when unknown */
};

/* Fills l from lookahead.json, opened through the table (a break is recorded in la). Leaves the
 * replay's fields. */
void vd_live_from_lookahead(struct vd_live *l, struct sa_sf *la);

/* Fills the replay's fields of l from replay.json, opened through the table. */
void vd_live_from_replay(struct vd_live *l, struct sa_sf *rp);

/* The one clause of the summary on how the bars were decided ("every one of its 17544 bars was
 * decided live, with only the bars up to it", what left the check incomplete when every bar was
 * decided, or how many were and the sample's bound), into buf; "" when lookahead.json had no
 * live object. Returns buf. */
char *vd_live_clause(const struct vd_live *l, char *buf, size_t len);

/* The look-ahead veto's words for confirmed leaks: the first bar(s) with both decisions and
 * what the difference is worth, into buf; "" without a confirmed leak. Returns buf. */
char *vd_live_veto(const struct vd_live *l, char *buf, size_t len);

/* verdict.json's "live" object (null without a live object), the clause included. */
void vd_live_json(cJSON *root, const struct vd_live *l);

#endif
