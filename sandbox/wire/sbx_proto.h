/* sbx_proto.h - what the driver, the zygote and a run child say to each other: the limits a
 * run gets, the control messages, the fixed descriptor numbers inside a run, and the result
 * and event framing. The wire stands alone: it includes no header of the project, and the
 * code inside the namespaces (sandbox/inside/) sees no host header but it. */
#ifndef SBX_PROTO_H
#define SBX_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define SBX_MAGIC 0x53425831u  /* "SBX1" */
/* Driver -> zygote: start a data zygote (sbi_prefix.c) on the channel the request carries. */
#define SBX_MAGIC_PREFIX 0x53425850u  /* "SBXP" */
/* Driver -> data zygote: n more bars follow the header, as rows (below). */
#define SBX_MAGIC_BARS 0x53425842u  /* "SBXB" */
/* Driver -> data zygote: forget the n oldest bars held (a window's start moved on); what is
 * left moves to the columns' start, so a later run is forked from bars held as any run's are. */
#define SBX_MAGIC_DROP 0x53425844u  /* "SBXD" */

/* Driver -> data zygote: fork a live run of the n bars held (the live replay, below). */
#define SBX_MAGIC_LIVE 0x5342584cu  /* "SBXL" */

/* The live replay: a live run decides one bar at a time, as a live bot's loop does. Descriptor
 * 0 brings, after the keyword arguments, a uint32 window (the most bars a decision sees), then
 * one bar at a time (SBX_LIVE_BAR_BYTES: t as int64 seconds, then open, high, low, close,
 * volume as float64), each sent by the driver only once the run has answered for the bar
 * before it, so no bar after the one being decided exists anywhere in the run. The result
 * descriptor carries SBX_TAG_LIVE, then one answer a decision, SBX_LIVE_ANSWER_BYTES each: the
 * decision's number (uint32, host byte order: 0 for the last bar held at the fork, k for the
 * k-th bar sent after it) and its value (-1, 0, 1, SBX_SIGNAL_NAN, or SBX_LIVE_RAISED when the
 * upload raised or gave a bad output at that bar: a live bot takes no position on a bar its
 * strategy could not decide, and goes on to the next). The number is the host's
 * own count echoed, so an answer given twice or early is seen at the next answer, whatever
 * arrives when; it carries nothing the host does not check. A run that cannot go on sends the
 * number SBX_LIVE_STOP and then an ordinary tagged error ('E', 'B' or 'M' and a text). End of
 * file on descriptor 0 ends the run. An answer for a bar not yet sent, a number out of turn or a
 * value other than those four is bad output; a bar not answered within the wall clock is killed
 * there (a framework run's values with events aside, below). At most 3 bits a bar cross back
 * (five values; a framework run's, 7 bits: 96 values to SBX_SIGNAL_EVENTS_MAX and the two marks). */
#define SBX_TAG_LIVE 'L'
#define SBX_LIVE_ANSWER_BYTES 5
#define SBX_LIVE_RAISED (-127)
#define SBX_LIVE_STOP 0xffffffffu
#define SBX_LIVE_BAR_BYTES SBX_BAR_BYTES
/* The most bars a live decision sees: its window is at most this (the driver's knob is lower). */
#define SBX_LIVE_WINDOW_MAX ((uint32_t)1 << 24)
/* A live run's CPU limit: it lives for many bars, each held to the wall clock instead. */
#define SBX_LIVE_CPU_S 604800

/* The live replay of a freqtrade class with per-trade callbacks (custom_stoploss with
 * use_custom_stoploss, custom_exit, confirm_trade_entry): the trade path is the host's, so before each bar it sends
 * after the fork, the driver first sends the trade its replay (lib/replay, the audit's costs and
 * exits) holds on that bar after the bar's open fills, SBX_LIVE_TRADE_BYTES in this order, host
 * byte order: the side (int8: 1, -1, or 0 when flat), what freqtrade would ask (uint8,
 * SBX_ASK_*), the entry's bar (uint32, counted as the run's bars are) and time (int64 seconds),
 * the bar's time (int64 seconds: freqtrade's current_time), then float64s: the entry price, the stop level held, the bar's open and the profit there
 * (custom_exit's current_rate and current_profit), the bar's best price (a long's high, a
 * short's low) and the profit there (custom_stoploss's). The run calls what is asked on the
 * frame up to the bar before (freqtrade's dataprovider cut at the candle), and its answer for
 * the bar then carries, between the number and the value, SBX_LIVE_CALL_BYTES: flags (uint8,
 * SBX_CALL_*), custom_stoploss's ratio (float64, finite, 0 < |ratio| <= 1; all zero bytes without
 * SBX_CALL_STOP), the exit's name length (uint8, 0 to SBX_CALL_NAME_MAX: 0 is freqtrade's
 * "custom_exit") and SBX_CALL_NAME_MAX bytes of its name (printable ASCII, zero after it, and all
 * zero without SBX_CALL_EXIT). A flag for a callback not asked, a ratio out of range, a name
 * that is no name, or any byte set past them is bad output, as any bad answer is: at most
 * 3 + 64 + 8 + 8 * SBX_CALL_NAME_MAX bits a bar cross back beside the decision. */
#define SBX_LIVE_TRADE_BYTES (1 + 1 + 4 + 8 + 8 + 6 * 8)
/* The driver asks for that exchange by this bit in the live run's window word; the run's first
 * answer (the bar held at the fork, no trade sent before it) carries zero call bytes. A stream's
 * stop (SBX_LIVE_STOP) is its number and one byte, as in any live run. */
#define SBX_LIVE_CALLS 0x80000000u
/* The claimed run: the same wire, answered by the backtest the author saw. Forked holding every
 * bar it is asked about, the run calls signals() once on them all (a framework class's
 * indicators analysed once over the whole history, as freqtrade's backtest does), and answers
 * decision k with that call's value at held bar k; with SBX_LIVE_CALLS its callbacks answer each
 * trade state on that frame cut before the bar (freqtrade's dataprovider in its backtest). The
 * bars sent after the fork are read and set aside. Asked by this bit in the window word. */
#define SBX_LIVE_CLAIMED 0x40000000u
enum {
	SBX_ASK_EXIT = 1,  /* custom_exit: no effective exit signal of the trade's side */
	SBX_ASK_STOP = 2,  /* custom_stoploss: the stop is not yet at the bar's worst price */
	SBX_ASK_ENTRY = 4, /* confirm_trade_entry: the trade entered at the bar's open */
};
/* SBX_CALL_REFUSED: confirm_trade_entry refused the entry asked (SBX_ASK_ENTRY); the trade is
 * then not entered, so nothing else may be answered for it: no other flag, all zero bytes. */
enum {
	SBX_CALL_STOP = 1,
	SBX_CALL_EXIT = 2,
	SBX_CALL_REFUSED = 4,
};
#define SBX_CALL_NAME_MAX 32
#define SBX_LIVE_CALL_BYTES (1 + 8 + 1 + SBX_CALL_NAME_MAX)

/* Descriptors inside a run child, fixed so the recipe can close everything else. */
enum {
	SBX_FD_PARAMS = 0,  /* the run's keyword arguments, JSON text (the bars are already in the
	                     * run's memory, forked from the data zygote), then /dev/null */
	SBX_FD_OUT = 1,     /* stdout, capped by the driver */
	SBX_FD_ERR = 2,     /* stderr, capped by the driver */
	SBX_FD_RESULT = 3,  /* one tag byte then the payload (below) */
	SBX_FD_EVENTS = 4,  /* SOCK_SEQPACKET: one event per message */
	SBX_RUN_FDS = 5,
};

/* Result tags: 'R' then n int8 signals, and after them, when the upload declared a parameter
 * search (a backtesting.py optimize() call in the file), a uint32 (host byte order): how many
 * combinations it searched, 1 to SBX_SEARCH_MAX; 'E' error text; 'B' bad-output text; 'M'
 * memory. */
#define SBX_SEARCH_MAX 100000000u

/* A signal byte that stands for NaN (or None) in signals()' output: the driver counts it and
 * takes it as flat (0). Any other byte than -1, 0, 1 and this one is bad output, but for a
 * zygote that loaded the framework shims (its ready reply's wstatus SBX_READY_SHIMS): there a
 * framework class's run answers position + 3 * events, -1 to SBX_SIGNAL_EVENTS_MAX, the events
 * its candle's signals make (SBX_EV_*, freqtrade's uncancelled entry and effective exit signals
 * of each side, and for ignore_roi_if_entry_signal its long entry signal as set), which a replay with exits follows once its stop or ROI closed a trade; wherever
 * a position is meant the value is ((v + 1) mod 3) - 1. */
#define SBX_SIGNAL_NAN (-128)
enum {
	SBX_EV_ENTER_LONG = 1,
	SBX_EV_ENTER_SHORT = 2,
	SBX_EV_EXIT_LONG = 4,
	SBX_EV_EXIT_SHORT = 8,
	SBX_EV_LONG_SIGNAL = 16,
};
#define SBX_SIGNAL_EVENTS_MAX (1 + 3 * 31)

/* A framework class's run may send, after its n values, its candles' entry and exit tags
 * (freqtrade's enter_tag and exit_tag columns) as a small table: SBX_TAGS_MARK, the count k
 * (uint8, 1 to SBX_TAGS_MAX), k names each as its length (uint8, 1 to SBX_TAG_NAME_MAX) and its
 * bytes (printable ASCII, 0x20 to 0x7e, no two the same), then n bytes of entry tags and n bytes
 * of exit tags, one a bar, each 0 (none) or a name's place in the table counted from 1; the
 * declared search's uint32, when there is one, after the table. Nothing else the upload chooses
 * crosses: the driver refuses the whole run's output as bad when the table is anything else. */
#define SBX_TAGS_MARK 'T'
#define SBX_TAGS_MAX 64
#define SBX_TAG_NAME_MAX 64
#define SBX_TAGS_TABLE_MAX (2 + SBX_TAGS_MAX * (1 + SBX_TAG_NAME_MAX))
#define SBX_READY_SHIMS 1
enum {
	SBX_TAG_RESULT = 'R',
	SBX_TAG_ERROR = 'E',
	SBX_TAG_BAD = 'B',
	SBX_TAG_MEMORY = 'M',
};

/* The run's setup, before the upload exists, sends the driver a descriptor of its scratch file
 * system on the events channel (SCM_RIGHTS; an upload can only send(), never sendmsg()), with
 * this text, as the channel's first message: the driver reads how full scratch is from outside
 * the run, after it, whatever the run did to its signals. */
#define SBX_SCRATCH_MSG "scratch"

/* An event message is "action" US "rule" US "detail" (US = 0x1f), at most this long. */
#define SBX_EVENT_SEP '\x1f'
#define SBX_EVENT_MAX 512

/* The data pipe carries the bars column by column: t, open, high, low, close, volume, each n
 * values of SBX_VALUE_BYTES (t as int64 seconds, the prices and volume as float64). */
#define SBX_BAR_COLUMNS 6
#define SBX_VALUE_BYTES 8
#define SBX_BAR_BYTES (SBX_BAR_COLUMNS * SBX_VALUE_BYTES)  /* bytes per bar on the data pipe */

/* A data zygote holds its bars as SBX_BAR_COLUMNS columns (t, open, high, low, close, volume),
 * column c at c * SBX_PREFIX_CAP values into one reservation, appended in time order: a fixed
 * size, so that nothing about it depends on the series. A run forked from it keeps only each
 * column's pages up to its last bar. */
#define SBX_PREFIX_CAP ((size_t)1 << 28)
#define SBX_PREFIX_RESERVE (SBX_BAR_COLUMNS * SBX_PREFIX_CAP * SBX_VALUE_BYTES)
/* Bars per SBX_MAGIC_BARS message (its payload the m values of t, then of open, ..., volume):
 * it stays under a socket's default buffer. */
#define SBX_BARS_CHUNK 2048

/* Per-run limits. */
struct sbx_limits {
	int wall_s;      /* wall clock per run; the driver SIGKILLs the run's namespace after it */
	int cpu_s;       /* RLIMIT_CPU */
	int mem_mb;      /* RLIMIT_AS */
	int scratch_mb;  /* RLIMIT_FSIZE and the scratch directory's budget */
	int nofile;      /* RLIMIT_NOFILE */
	double cpus;     /* CPU quota per run, in cores (the cgroup's; host side only) */
};

/* Runs in flight at once on one zygote: the driver never starts more (sbx_run_many clamps to
 * it; the stages' --jobs stops there too), and the zygote answers a request past it with
 * SBX_REP_FAILED (EAGAIN). */
#define SBX_MAX_JOBS 64


/* How a process on the far side of the pipes exits. A run child's outcome travels on
 * SBX_FD_RESULT, not in its exit code: these only say why a run may have sent nothing, and the
 * driver quotes the number when no result came back. */
enum sbx_exit {
	SBX_EXIT_DONE = 0,           /* a run wrote its result, or the upload's error, and ended */
	SBX_EXIT_RETIRED = 0,        /* a spare ended unused: the zygote is shutting down */
	SBX_EXIT_NO_FDS = 120,       /* a spare could not take its request's descriptors */
	SBX_EXIT_SETUP_FAILED = 121, /* a recipe step failed before the upload loaded ('E' result) */
	SBX_EXIT_NO_ZYGOTE = 125,    /* the launcher's child could not become the zygote (stderr) */
};

/* The zygote's source descriptor (a sealed memfd the launcher fills from the upload): a uint32
 * length of the strategy's source (host byte order), the source, then the rest, at most
 * SBX_PARAMS_FILE_MAX bytes: the text of freqtrade's parameter file beside the strategy (the
 * strategy's path with the ending .json), empty when there is none. Trusted code parses it
 * before the upload loads (the framework shims); it is the uploader's as the source is. */
#define SBX_PARAMS_FILE_MAX 65536

/* After the bars, the data pipe carries the keyword arguments of signals(df, **params): a
 * uint32 length (host byte order, 0 for none) then that many bytes of a JSON object, parsed by
 * trusted code before the upload loads. */
#define SBX_PARAMS_MAX 65536

/* Driver -> zygote: start a run of n bars; carries SBX_RUN_FDS descriptors (SCM_RIGHTS). */
struct sbx_req {
	uint32_t magic;
	uint32_t id;
	uint64_t n;
};

/* Zygote -> driver, instead of the ready reply when it cannot start: a SBX_REP_FAILED reply
 * with id 0, then one message of at most this many bytes of text saying why. */
#define SBX_START_ERROR_MAX 512

enum sbx_rep_kind {
	SBX_REP_STARTED = 1,  /* carries the run's pidfd (SCM_RIGHTS) */
	SBX_REP_EXITED = 2,   /* wstatus and cpu_ms are set */
	SBX_REP_FAILED = 3,   /* the zygote could not start the run; err is errno */
	SBX_REP_ROOTS = 4,    /* id 0, before the ready reply: one message of the read roots
			       * follows, '\n' between them; the driver answers with one message,
			       * the directory of their resident copy (SBX_MIRROR_MAX bytes at most) */
};

/* Zygote -> driver. */
struct sbx_rep {
	uint32_t magic;
	uint32_t id;
	int32_t kind;
	int32_t wstatus;
	int64_t cpu_ms;
	int32_t err;
	int32_t pad;
};

#define SBX_ROOTS_TEXT_MAX 8192
#define SBX_MIRROR_MAX 256

/* Inside the namespaces: the zygote is uid 0 (an unused outside uid); runs drop to SBX_RUN_UID. */
#define SBX_OUTSIDE_UID 100000
#define SBX_RUN_UID 1000
#define SBX_SCRATCH "/tmp"

#endif
