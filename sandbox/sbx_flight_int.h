/* sbx_flight_int.h - inside the sandbox room: one run in flight, as the driver holds it, and what
 * sbx_flight.c makes of what it sends back. */
#ifndef SBX_FLIGHT_H
#define SBX_FLIGHT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sbx.h"

#define LOG_CAP ((size_t)4096)  /* bytes kept of a run's stdout, and of its stderr: an excerpt */
#define EVENTS_FIRST_CAP 8            /* events room for at first; most runs record none or a few */
/* What a result may hold past its n signal bytes: the tag, or an error text (cut to
 * sizeof r->error when judged). */
#define RESULT_TEXT_MAX 1024
#define DRAIN_CHUNK 16384             /* bytes per read() from a run's pipe */
#define DRAIN_READS 64                /* reads of one pipe a turn of the driver's loop, at most */

struct sbx_buf {
	char *p;
	size_t len, cap;
	bool truncated;
};

struct sbx_flight {
	bool used;
	bool entries;         /* values with events (SBX_SIGNAL_EVENTS_MAX) are valid: a shims zygote's run */
	size_t idx;
	uint32_t id;
	size_t n;
	int data_w, out_r, err_r, res_r, ev_r, pidfd;
	int scratch_fd;       /* the run's scratch file system (O_PATH), sent by its setup; -1 */
	bool ev_seen;         /* a message has come on the events channel */
	int col;              /* the part of the keyword arguments being sent: 0 the length, 1 the text */
	size_t off;
	const char *params;   /* borrowed JSON text of the keyword arguments, or NULL */
	uint32_t params_len;
	long start, deadline;
	long cut_at;          /* the batch's deadline when it falls before the wall clock's, else 0 */
	long batch_deadline;  /* the batch's deadline (0: none): a live run's wall clock, restarted
			       * for each bar, never reaches past it */
	bool exited, killed_wall, failed;
	bool cut;             /* killed at cut_at: cut short, not judged */
	int wstatus, fail_errno;
	int64_t cpu_ms;
	long long oom_kills;       /* the cgroup's count when the run started (-1: no cgroup) */
	const struct sbx_cgroup *cg;
	struct sbx_buf out, err, res;
	struct sbx_result *r;
	size_t ev_cap;
	/* A live run (sbx_proto.h, the live replay): n is its decisions, one for the bar held at
	 * the fork and one for each of the live_total bars fed after it, one at a time. */
	bool live;
	uint32_t live_window;
	const struct da_ohlcv *live_s;  /* borrowed: the series the bars come from */
	size_t live_next;          /* the series' index of the next bar to feed */
	size_t live_total, live_sent;
	size_t live_scanned;       /* result bytes checked so far (after the tag) */
	bool live_stopped;         /* the run stopped its stream (SBX_LIVE_STOP) */
	char live_bad[160];        /* why the stream broke the wire (empty when it did not) */
	size_t live_ab;            /* bytes an answer takes: SBX_LIVE_ANSWER_BYTES, and with
				    * callbacks SBX_LIVE_CALL_BYTES more */
	size_t live_first;         /* the series' bar the first answer decides */
	struct sbx_calls *calls;   /* the record of a run with callbacks (its result's), or NULL */
	char pend[SBX_LIVE_TRADE_BYTES + SBX_LIVE_BAR_BYTES];
	size_t pend_len, pend_off;
};

/* A live run's answers so far: checks the bytes the result buffer gained (each a decision, or
 * the stop of the stream), and says what the driver does next: LIVE_WAIT for the answer to the
 * bar sent, LIVE_FEED to send the next bar, LIVE_END when every bar is answered, LIVE_BROKEN
 * when the run broke the wire (f->live_bad says how: an answer before its bar, a value other
 * than -1, 0, 1 or NaN). */
/* A live run's answer to the per-trade callbacks on one bar (sbx_proto.h, SBX_LIVE_CALL_BYTES),
 * as checked: the stop ratio (NAN: none) and whether to exit, with the exit's name (empty: none
 * given, freqtrade's "custom_exit"). */
struct sbx_call {
	double stop;
	bool exit;
	bool refused;  /* confirm_trade_entry refused the entry */
	char name[SBX_CALL_NAME_MAX + 1];
};

/* Checks the SBX_LIVE_CALL_BYTES at q, the answer to a bar whose trade state asked ask
 * (SBX_ASK_*; 0 when flat: nothing may be answered), into *c. Returns 0, or -1 with err saying
 * which field broke the wire. */
int sbx_flight_call_check(const char *q, unsigned ask, struct sbx_call *c, char *err, size_t errlen);

/* The trade state the host sends a run with callbacks before bar i of its series (sbx_proto.h,
 * SBX_LIVE_TRADE_BYTES) into out, from its replay of the decisions so far (f->calls), and what it
 * asked recorded there. Returns 0, or -1 when memory ran out. */
int sbx_flight_trade_state(struct sbx_flight *f, size_t i, char *out);

enum sbx_live_step { SBX_LIVE_WAIT, SBX_LIVE_FEED, SBX_LIVE_END, SBX_LIVE_BROKEN };
enum sbx_live_step sbx_flight_live_step(struct sbx_flight *f);

/* Reads what is there into b, keeping at most b->cap bytes (the rest is drained and dropped);
 * closes *fd at end of file. */
void sbx_flight_drain(int *fd, struct sbx_buf *b);

/* Makes a run's events channel: ev[0] the driver's end, ev[1] the run's. Every message on it
 * comes with its sender's credentials (SO_PASSCRED), an empty one too, which is how
 * sbx_flight_read_events tells a message from the end. Returns 0, or -1 with errno set and
 * nothing left open. */
int sbx_flight_channel(int ev[2]);

/* Takes the event lines waiting on the run's events pipe. Returns 0, or -1 when an event could
 * not be recorded for want of memory (the batch then fails rather than under-count). */
int sbx_flight_read_events(struct sbx_flight *f);

/* True when the run has ended (or never started) and every pipe of it is closed. */
bool sbx_flight_finished(const struct sbx_flight *f);

/* Fills the run's result from how it ended and frees the slot. Returns 0, or -1 when an event
 * it earned could not be recorded (the result is filled all the same). */
int sbx_flight_judge(struct sbx_flight *f, const struct sbx_limits *lim);

#endif
