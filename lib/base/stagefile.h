/* stagefile.h - the stage-file table: every file the stages pass each other, with its writer,
 * its schema version and its readers, and every field a reader takes from it, with its key, its
 * type, its unit, whether it may be absent and one line of meaning. A reader takes a field by
 * its row (sa_sf_num, sa_sf_bool, ...), never by a string key: a present file whose field is
 * missing or of another type is an error naming the file and the field, never a default.
 *
 * The table is to the stage files what the knob table (config.h) is to the knobs: the writer
 * stamps its file with the table's schema (sa_sf_new), the reader checks it on open. */
#ifndef SA_STAGEFILE_H
#define SA_STAGEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>

/* The files. One row a file:
 *   X(id, file name, writing stage (its "stage" field), schema version, read by, meaning) */
#define SA_STAGE_FILES(X)                                                                        \
	X(CONFIG, "config.json", "config", 1, "every stage, through the knob table (config.h)",    \
	  "every knob's value for this audit, checked against the knob table")                  \
	X(FINGERPRINT, "fingerprint.json", "fingerprint", 1, "ledger verdict report nightly",              \
	  "what was audited: the uploads', data's and config's sha256, the data's span")        \
	X(INSPECT, "inspect.json", "inspect", 1, "sandbox lookahead variants variants_score ledger stats sealed_score verdict report nightly", \
	  "the static inspection of the upload (never runs it)")                                 \
	X(RUN, "run.json", "sandbox", 1, "lookahead robust sealed variants replay verdict report nightly", \
	  "the full run in the sandbox: its status, signals and refusals")                      \
	X(EVENTS, "events.jsonl", "sandbox", 1, "verdict report",                                   \
	  "the sandbox's refusal records, one JSON object a line (no head: sa_sf_line)")         \
	X(LOOKAHEAD, "lookahead.json", "lookahead", 1, "replay verdict report",                      \
	  "the truncated re-runs and the live replay, compared with the full run")                \
	X(ROBUSTNESS, "robustness.json", "robust", 1, "verdict report",                              \
	  "later starts, permuted data and hindsight")                                            \
	X(VARIANTS, "variants.json", "variants", 1, "stats verdict report",                          \
	  "the declared variants' runs")                                                          \
	X(NEIGHBOURHOOD, "neighbourhood.json", "variants", 1, "stats",                              \
	  "the neighbourhood family's runs, scored as variants.json's")                          \
	X(ROBUST_RUNS, "robust_runs.json", "robust", 1, "robust_score",                               \
	  "the robustness runs of the upload: each run's status and where its signals lie")       \
	X(VARIANT_RUNS, "variant_runs.json", "variants", 1, "variants_score",                        \
	  "the variants' runs of the upload: each set's status and where its signals lie")        \
	X(REPLAY, "replay.json", "replay", 1, "stats sealed_score verdict report", \
	  "the signals or the trade log replayed with honest fills and costs")                    \
	X(STATS, "stats.json", "stats", 1, "verdict report nightly",                                 \
	  "the statistics of the replayed trades, deflated for the trials")                       \
	X(SEALED_RUN, "sealed_run.json", "sealed", 1, "sealed_score",                                \
	  "that the upload was run on the sealed bars, and the run's key in the ledger's history")  \
	X(SEALED, "sealed.json", "sealed", 2, "verdict report",                                      \
	  "one outcome of a run on the sealed bars")                                              \
	X(LEDGER, "ledger.json", "ledger", 1, "stats nightly",                                       \
	  "the trial ledger's place for this version of the code: its lineage, number and trials") \
	X(VERDICT, "verdict.json", "verdict", 1, "narrate report nightly",                           \
	  "the gates, the vetoes and the verdict in plain English")                               \
	X(NARRATION, "narration.json", "narrate", 1, "people: it lies beside the bundle, unhashed",  \
	  "a language model's rewording of the verdict's summary, when NARRATE_URL asks for one")

enum sa_sfile_id {
#define SA_SF_ENUM(id, name, writer, schema, readers, help) SA_SF_##id,
	SA_STAGE_FILES(SA_SF_ENUM)
#undef SA_SF_ENUM
	SA_SF_COUNT
};

struct sa_sfile_row {
	const char *name;    /* "stats.json" */
	const char *writer;  /* its "stage" field */
	int schema;          /* its "schema" field */
	const char *readers; /* the stages that read it, space-separated */
	const char *help;
};

extern const struct sa_sfile_row sa_sfiles[SA_SF_COUNT];

enum sa_ftype {
	SA_FT_NUM,  /* a JSON number */
	SA_FT_BOOL, /* true or false */
	SA_FT_STR,  /* a string */
	SA_FT_OBJ,  /* an object */
	SA_FT_ARR,  /* an array */
};

/* Whether a field may be absent from a file that says "ok": true. */
enum sa_fabsent {
	SA_FA_NEVER, /* always there, never null */
	SA_FA_NULL,  /* always there; null when unknown or not applicable */
	SA_FA_MAY,   /* may be missing (or null): written only in some modes */
};

/* The fields. One row a field a reader takes:
 *   X(id, file, key, type, absent, unit, meaning)
 * The key is a path of object keys, "pbo.spread.min"; "refusals[].rule" is the field "rule" of an
 * element of the array "refusals" (read with the element as the base, sa_sf_num(f, e, ...)).
 * The unit is "" where none applies. Only what a file says when "ok": true is held to the
 * table; a failed file says "ok": false and its "reason". */
#define SA_REFUSAL_FIELDS(X, F, file)                                                             \
	X(F##_REFUSALS, file, "refusals", SA_FT_ARR, SA_FA_NEVER, "",                             \
	  "per rule of the sandbox: how often it refused and the first action")                 \
	X(F##_REFUSALS_RULE, file, "refusals[].rule", SA_FT_STR, SA_FA_NEVER, "",                 \
	  "the rule that refused")                                                                \
	X(F##_REFUSALS_COUNT, file, "refusals[].count", SA_FT_NUM, SA_FA_NEVER, "refusals",       \
	  "how often it refused")                                                                 \
	X(F##_REFUSALS_FIRST, file, "refusals[].first", SA_FT_OBJ, SA_FA_NEVER, "",               \
	  "the first refused action")                                                             \
	X(F##_REFUSALS_FIRST_ACTION, file, "refusals[].first.action", SA_FT_STR, SA_FA_MAY, "",   \
	  "what the upload tried")                                                                \
	X(F##_BLOCKED, file, "blocked_actions", SA_FT_NUM, SA_FA_NEVER, "actions",                \
	  "actions the sandbox refused in these runs")

#define SA_FIELDS(X)                                                                             \
	X(FP_SYNTHETIC, FINGERPRINT, "data_synthetic", SA_FT_BOOL, SA_FA_NEVER, "",                 \
	  "the data is the bundled synthetic series (by its sha256)")                             \
	X(FP_STRATEGY_SHA, FINGERPRINT, "strategy_sha256", SA_FT_STR, SA_FA_NULL, "",              \
	  "the strategy upload's sha256, null without one")                                      \
	X(FP_TRADELOG_SHA, FINGERPRINT, "tradelog_sha256", SA_FT_STR, SA_FA_NULL, "",              \
	  "the trade log's sha256, null without one")                                            \
	X(FP_DATA_SHA, FINGERPRINT, "data_sha256", SA_FT_STR, SA_FA_NULL, "", "the data's sha256") \
	X(FP_DATA_FIRST, FINGERPRINT, "data_first", SA_FT_STR, SA_FA_NEVER, "time",                \
	  "the data's first bar")                                                                 \
	X(FP_DATA_LAST, FINGERPRINT, "data_last", SA_FT_STR, SA_FA_NEVER, "time",                  \
	  "the data's last bar")                                                                  \
	X(IN_STRATEGY, INSPECT, "strategy", SA_FT_OBJ, SA_FA_NEVER, "", "the strategy .py")         \
	X(IN_STRATEGY_PRESENT, INSPECT, "strategy.present", SA_FT_BOOL, SA_FA_NEVER, "",            \
	  "a strategy was uploaded")                                                              \
	X(IN_SYNTAX, INSPECT, "strategy.syntax_error", SA_FT_OBJ, SA_FA_NULL, "",                  \
	  "why the file does not parse, null when it does")                                       \
	X(IN_SYNTAX_LINE, INSPECT, "strategy.syntax_error.line", SA_FT_NUM, SA_FA_NEVER, "line",   \
	  "the line of the syntax error")                                                         \
	X(IN_SYNTAX_MSG, INSPECT, "strategy.syntax_error.msg", SA_FT_STR, SA_FA_NEVER, "",         \
	  "Python's message")                                                                     \
	X(IN_NORMALISED, INSPECT, "strategy.normalised", SA_FT_OBJ, SA_FA_NULL, "",                \
	  "the parsed code's hashes, null when it did not parse")                                 \
	X(IN_NORM_VERSION, INSPECT, "strategy.normalised.version_sha256", SA_FT_STR, SA_FA_NEVER,  \
	  "", "the code's version: its tree with each literal")                                   \
	X(IN_NORM_STRUCTURE, INSPECT, "strategy.normalised.structure_sha256", SA_FT_STR,           \
	  SA_FA_NEVER, "", "the code's structure: its tree with every literal one mark")         \
	X(IN_FRAMEWORK, INSPECT, "strategy.framework", SA_FT_STR, SA_FA_MAY, "",                    \
	  "freqtrade or backtesting for a framework's class; null for a signals(df) file")       \
	X(IN_CALLBACKS, INSPECT, "strategy.callbacks", SA_FT_ARR, SA_FA_MAY, "",                    \
	  "the per-trade callbacks (custom_stoploss, custom_exit, confirm_trade_entry) it defines")\
	X(IN_VARIANTS, INSPECT, "strategy.variants", SA_FT_OBJ, SA_FA_MAY, "",                      \
	  "its VARIANTS declaration")                                                             \
	X(IN_VARIANTS_DECLARED, INSPECT, "strategy.variants.declared", SA_FT_BOOL, SA_FA_NEVER, "", \
	  "VARIANTS is declared")                                                                 \
	X(IN_VARIANTS_COUNT, INSPECT, "strategy.variants.count", SA_FT_NUM, SA_FA_NEVER, "variants", \
	  "how many it declares, well formed")                                                    \
	X(IN_VARIANTS_PARAMS, INSPECT, "strategy.variants.params", SA_FT_ARR, SA_FA_NEVER, "",      \
	  "the parameter sets it declares, each an object (empty when malformed)")               \
	X(IN_VARIANTS_ERROR, INSPECT, "strategy.variants.error", SA_FT_STR, SA_FA_NULL, "",         \
	  "why the declaration is malformed, null when it is not")                               \
	X(IN_NB, INSPECT, "strategy.neighbourhood", SA_FT_OBJ, SA_FA_MAY, "",                       \
	  "the audited parameters moved to nearby values")                                        \
	X(IN_NB_DECLARED, INSPECT, "strategy.neighbourhood.declared", SA_FT_BOOL, SA_FA_NEVER, "",  \
	  "there are sets to run")                                                                \
	X(IN_NB_PARAMS, INSPECT, "strategy.neighbourhood.params", SA_FT_ARR, SA_FA_NEVER, "",       \
	  "the sets, the centre first, each an object")                                           \
	X(IN_NB_ERROR, INSPECT, "strategy.neighbourhood.error", SA_FT_STR, SA_FA_NULL, "",          \
	  "why there are none, null when nothing went wrong")                                     \
	X(IN_EXITS, INSPECT, "strategy.exits", SA_FT_OBJ, SA_FA_NEVER, "",                          \
	  "the exits the strategy declares (stops, targets, ROI tables), as lib/replay reads them") \
	X(IN_STARTUP, INSPECT, "strategy.startup_candle_count", SA_FT_NUM, SA_FA_NULL, "bars",      \
	  "the warm-up a framework class declares, null where it declares none")                 \
	X(IN_TRADELOG, INSPECT, "tradelog", SA_FT_OBJ, SA_FA_NEVER, "", "the trade log")            \
	X(IN_TRADELOG_PRESENT, INSPECT, "tradelog.present", SA_FT_BOOL, SA_FA_NEVER, "",            \
	  "a trade log was uploaded")                                                             \
	X(RUN_STATUS, RUN, "status", SA_FT_STR, SA_FA_NEVER, "",                                    \
	  "how the run ended: ok, error, bad_output, killed_*, refused, not_run")                 \
	X(RUN_ERROR, RUN, "error", SA_FT_STR, SA_FA_NULL, "", "the run's error, when it had one")  \
	X(RUN_N_BARS, RUN, "n_bars", SA_FT_NUM, SA_FA_NEVER, "bars",                                \
	  "the bars the run was given (and its signals cover)")                                   \
	SA_REFUSAL_FIELDS(X, RUN, RUN)                                                                \
	X(EV_ACTION, EVENTS, "action", SA_FT_STR, SA_FA_MAY, "", "what the upload tried")            \
	X(EV_RULE, EVENTS, "rule", SA_FT_STR, SA_FA_MAY, "", "the rule that refused it")             \
	X(LA_MISMATCHES, LOOKAHEAD, "mismatches", SA_FT_ARR, SA_FA_NEVER, "",                        \
	  "the truncated re-runs that disagreed with the full run")                               \
	X(LA_MISMATCHES_BAR, LOOKAHEAD, "mismatches[].bar", SA_FT_NUM, SA_FA_NEVER, "bar",         \
	  "the bar where one disagreed")                                                          \
	X(LA_MISMATCHES_TIME, LOOKAHEAD, "mismatches[].time", SA_FT_STR, SA_FA_NEVER, "",          \
	  "that bar's time")                                                                      \
	X(LA_MISMATCH_COUNT, LOOKAHEAD, "mismatch_count", SA_FT_NUM, SA_FA_NEVER, "re-runs",        \
	  "truncated re-runs that disagreed")                                                     \
	SA_REFUSAL_FIELDS(X, LA, LOOKAHEAD)                                                           \
	X(LA_POINTS_CHECKED, LOOKAHEAD, "points_checked", SA_FT_NUM, SA_FA_NEVER, "bars",           \
	  "cut points compared")                                                                  \
	X(LA_POINTS_RUN, LOOKAHEAD, "points_run", SA_FT_NUM, SA_FA_NEVER, "runs",                   \
	  "truncated re-runs made")                                                               \
	X(LA_FAILED_COUNT, LOOKAHEAD, "failed_count", SA_FT_NUM, SA_FA_NEVER, "re-runs",            \
	  "re-runs that could not run where the full run had traded")                            \
	X(LA_COMPLETE, LOOKAHEAD, "complete", SA_FT_BOOL, SA_FA_NEVER, "",                          \
	  "every planned check was made")                                                         \
	X(LA_STOPPED, LOOKAHEAD, "stopped", SA_FT_STR, SA_FA_NULL, "", "why the check stopped early") \
	X(LA_EXPLANATION, LOOKAHEAD, "explanation", SA_FT_STR, SA_FA_NULL, "",                      \
	  "the finding in plain words")                                                           \
	X(LA_LIVE, LOOKAHEAD, "live", SA_FT_OBJ, SA_FA_MAY, "",                                     \
	  "the live replay: every bar decided with only the bars up to it")                      \
	X(LA_LIVE_OK, LOOKAHEAD, "live.ok", SA_FT_BOOL, SA_FA_NEVER, "", "the live replay was made") \
	X(LA_LIVE_REASON, LOOKAHEAD, "live.reason", SA_FT_STR, SA_FA_NULL, "",                      \
	  "why not, when it was not")                                                             \
	X(LA_LIVE_BARS, LOOKAHEAD, "live.bars", SA_FT_NUM, SA_FA_NEVER, "bars", "bars to decide")  \
	X(LA_LIVE_DECIDED, LOOKAHEAD, "live.decided", SA_FT_NUM, SA_FA_NEVER, "bars",               \
	  "bars decided live")                                                                    \
	X(LA_LIVE_COMPLETE, LOOKAHEAD, "live.complete", SA_FT_BOOL, SA_FA_NEVER, "",                \
	  "every bar was decided")                                                                \
	X(LA_LIVE_DIFFERING, LOOKAHEAD, "live.differing", SA_FT_NUM, SA_FA_NEVER, "bars",           \
	  "bars whose live decision differs from the backtest's")                                \
	X(LA_LIVE_LEAKS, LOOKAHEAD, "live.confirmed_leaks", SA_FT_NUM, SA_FA_NEVER, "bars",         \
	  "differences a run on the whole prefix confirmed as look-ahead")                       \
	X(LA_LIVE_MEMORY, LOOKAHEAD, "live.memory_mismatches", SA_FT_NUM, SA_FA_NEVER, "bars",      \
	  "differences from state kept between calls")                                            \
	X(LA_LIVE_UNCONFIRMED, LOOKAHEAD, "live.unconfirmed", SA_FT_NUM, SA_FA_NEVER, "bars",       \
	  "differences not confirmed either way")                                                 \
	X(LA_LIVE_FAILED, LOOKAHEAD, "live.failed_runs", SA_FT_NUM, SA_FA_NEVER, "runs",            \
	  "live runs that failed")                                                                \
	X(LA_LIVE_SAMPLE, LOOKAHEAD, "live.sample", SA_FT_OBJ, SA_FA_NULL, "",                      \
	  "the sample of bars checked when not every bar was")                                    \
	X(LA_LIVE_SAMPLE_DRAWN, LOOKAHEAD, "live.sample.drawn", SA_FT_NUM, SA_FA_NEVER, "bars",     \
	  "bars drawn")                                                                           \
	X(LA_LIVE_SAMPLE_DISAGREEING, LOOKAHEAD, "live.sample.disagreeing", SA_FT_NUM, SA_FA_NEVER, \
	  "bars", "drawn bars that disagreed")                                                    \
	X(LA_LIVE_SAMPLE_SHARE, LOOKAHEAD, "live.sample.share", SA_FT_NUM, SA_FA_NULL, "fraction",  \
	  "the share of disagreeing bars the sample bounds")                                      \
	X(LA_LIVE_SAMPLE_CONFIDENCE, LOOKAHEAD, "live.sample.confidence", SA_FT_NUM, SA_FA_NULL,    \
	  "probability", "the bound's confidence")                                                \
	X(LA_LIVE_FIRST, LOOKAHEAD, "live.first_differences", SA_FT_ARR, SA_FA_NEVER, "",           \
	  "the first differences")                                                                \
	X(LA_LIVE_FIRST_BAR, LOOKAHEAD, "live.first_differences[].bar", SA_FT_NUM, SA_FA_NEVER,     \
	  "bar", "where")                                                                         \
	X(LA_LIVE_FIRST_BACKTEST, LOOKAHEAD, "live.first_differences[].backtest", SA_FT_NUM,        \
	  SA_FA_NEVER, "signal", "the backtest's decision there, -1, 0 or 1")                    \
	X(LA_LIVE_FIRST_LIVE, LOOKAHEAD, "live.first_differences[].live", SA_FT_NUM, SA_FA_NEVER,   \
	  "signal", "the live decision there, -1, 0 or 1")                                        \
	X(LA_LIVE_FIRST_TIME, LOOKAHEAD, "live.first_differences[].time", SA_FT_STR, SA_FA_NEVER,   \
	  "", "that bar's time")                                                                  \
	X(LA_LIVE_FIRST_CONFIRMED, LOOKAHEAD, "live.first_differences[].confirmed", SA_FT_STR,      \
	  SA_FA_NEVER, "", "what the run on the whole prefix said of it")                        \
	X(LA_LIVE_CALL_LEAKS, LOOKAHEAD, "live.call_leaks", SA_FT_NUM,                              \
	  SA_FA_MAY, "bars", "bars where the callbacks answered the same trade otherwise")          \
	X(LA_LIVE_CALL_DIFF, LOOKAHEAD, "live.call_differences", SA_FT_ARR,                         \
	  SA_FA_MAY, "", "the first bars the callbacks answered otherwise")                         \
	X(LA_LIVE_CALL_DIFF_BAR, LOOKAHEAD, "live.call_differences[].bar", SA_FT_NUM,               \
	  SA_FA_NEVER, "bar", "where")                                                              \
	X(LA_LIVE_CALL_DIFF_TIME, LOOKAHEAD, "live.call_differences[].time", SA_FT_STR,             \
	  SA_FA_NEVER, "", "that bar's time")                                                       \
	X(LA_LIVE_CALL_DIFF_BT_EXIT, LOOKAHEAD, "live.call_differences[].backtest.exit", SA_FT_NUM, \
	  SA_FA_NEVER, "", "the backtest's custom_exit, 0 or 1")                                    \
	X(LA_LIVE_CALL_DIFF_BT_STOP, LOOKAHEAD, "live.call_differences[].backtest.stop", SA_FT_NUM, \
	  SA_FA_NULL, "ratio", "the backtest's custom_stoploss")                                    \
	X(LA_LIVE_CALL_DIFF_BT_REFUSED, LOOKAHEAD, "live.call_differences[].backtest.refused", SA_FT_NUM, \
	  SA_FA_NEVER, "", "the backtest's confirm_trade_entry refused, 0 or 1")                    \
	X(LA_LIVE_CALL_DIFF_LV_EXIT, LOOKAHEAD, "live.call_differences[].live.exit", SA_FT_NUM,     \
	  SA_FA_NEVER, "", "the live custom_exit, 0 or 1")                                          \
	X(LA_LIVE_CALL_DIFF_LV_STOP, LOOKAHEAD, "live.call_differences[].live.stop", SA_FT_NUM,     \
	  SA_FA_NULL, "ratio", "the live custom_stoploss")                                          \
	X(LA_LIVE_CALL_DIFF_LV_REFUSED, LOOKAHEAD, "live.call_differences[].live.refused", SA_FT_NUM, \
	  SA_FA_NEVER, "", "the live confirm_trade_entry refused, 0 or 1")                          \
	X(RB_COMPLETE, ROBUSTNESS, "complete", SA_FT_BOOL, SA_FA_NEVER, "",                         \
	  "every planned re-run was made")                                                        \
	SA_REFUSAL_FIELDS(X, RB, ROBUSTNESS)                                                          \
	X(RB_HINDSIGHT, ROBUSTNESS, "hindsight", SA_FT_OBJ, SA_FA_NEVER, "",                        \
	  "whether the signals are keyed to this data's own dates or prices")                    \
	X(RB_HINDSIGHT_FLAGGED, ROBUSTNESS, "hindsight.flagged", SA_FT_BOOL, SA_FA_NEVER, "",       \
	  "they are: a veto")                                                                     \
	X(RB_HINDSIGHT_REASON, ROBUSTNESS, "hindsight.reason", SA_FT_STR, SA_FA_NULL, "",           \
	  "why, in plain words")                                                                  \
	X(RB_LATER_START, ROBUSTNESS, "hindsight.later_start", SA_FT_OBJ, SA_FA_NEVER, "",          \
	  "the run started later")                                                                \
	X(RB_LATER_START_FLAGGED, ROBUSTNESS, "hindsight.later_start.flagged", SA_FT_BOOL,          \
	  SA_FA_NEVER, "", "started later, the signals differ far beyond a warm-up")             \
	X(RB_WARMUP, ROBUSTNESS, "warmup", SA_FT_OBJ, SA_FA_NEVER, "", "the later starts")          \
	X(RB_WARMUP_OK, ROBUSTNESS, "warmup.ok", SA_FT_BOOL, SA_FA_NEVER, "", "they were made")     \
	X(RB_WARMUP_FLAGGED, ROBUSTNESS, "warmup.flagged", SA_FT_BOOL, SA_FA_NEVER, "",             \
	  "they disagree beyond a warm-up")                                                       \
	X(RB_WARMUP_FAILED, ROBUSTNESS, "warmup.failed_runs", SA_FT_NUM, SA_FA_MAY, "runs",         \
	  "later starts that failed")                                                             \
	X(RB_WARMUP_DISAGREEMENT, ROBUSTNESS, "warmup.disagreement", SA_FT_ARR, SA_FA_NEVER,        \
	  "fraction", "per later start, the share of compared bars that disagree")               \
	X(RB_PERM, ROBUSTNESS, "permutation", SA_FT_OBJ, SA_FA_NEVER, "", "the permuted data")      \
	X(RB_PERM_OK, ROBUSTNESS, "permutation.ok", SA_FT_BOOL, SA_FA_NEVER, "", "it was made")     \
	X(RB_PERM_P, ROBUSTNESS, "permutation.p_value", SA_FT_NUM, SA_FA_NULL, "probability",       \
	  "the share of permuted runs at least as good as the real one")                         \
	X(RB_PERM_RUNS, ROBUSTNESS, "permutation.runs", SA_FT_NUM, SA_FA_MAY, "runs",               \
	  "permuted runs made")                                                                   \
	X(RB_PERM_FAILED, ROBUSTNESS, "permutation.failed_runs", SA_FT_NUM, SA_FA_MAY, "runs",      \
	  "permuted runs that failed")                                                            \
	X(RBR_BARS_SHA, ROBUST_RUNS, "bars_sha256", SA_FT_STR, SA_FA_NEVER, "",                     \
	  "the bars the runs were made on, their sha256")                                           \
	X(RBR_SIGNALS_SHA, ROBUST_RUNS, "signals_sha256", SA_FT_STR, SA_FA_NEVER, "",               \
	  "robust_signals.bin's sha256")                                                            \
	X(RBR_OFFSETS, ROBUST_RUNS, "warmup_offsets", SA_FT_ARR, SA_FA_NEVER, "percent",            \
	  "the later starts, in percent of the bars")                                               \
	X(RBR_PERMUTATIONS, ROBUST_RUNS, "permutations", SA_FT_NUM, SA_FA_NEVER, "runs",            \
	  "the permuted runs asked")                                                                \
	X(RBR_SEED, ROBUST_RUNS, "seed", SA_FT_NUM, SA_FA_NEVER, "",                                \
	  "the permutations' seed")                                                                 \
	X(RBR_NOT_RUN, ROBUST_RUNS, "runs_not_run", SA_FT_NUM, SA_FA_NEVER, "runs",                 \
	  "runs AUDIT_S left unrun")                                                                \
	X(RBR_WARMUP, ROBUST_RUNS, "warmup", SA_FT_ARR, SA_FA_NEVER, "",                            \
	  "the later starts' runs")                                                                 \
	X(RBR_WARMUP_STATUS, ROBUST_RUNS, "warmup[].status", SA_FT_STR, SA_FA_NEVER, "",            \
	  "how the run ended")                                                                      \
	X(RBR_WARMUP_ERROR, ROBUST_RUNS, "warmup[].error", SA_FT_STR, SA_FA_NEVER, "",              \
	  "its error line")                                                                         \
	X(RBR_HINDSIGHT, ROBUST_RUNS, "hindsight", SA_FT_ARR, SA_FA_NEVER, "",                      \
	  "the hindsight copies' runs")                                                             \
	X(RBR_HINDSIGHT_STATUS, ROBUST_RUNS, "hindsight[].status", SA_FT_STR, SA_FA_NEVER, "",      \
	  "how the run ended")                                                                      \
	X(RBR_HINDSIGHT_ERROR, ROBUST_RUNS, "hindsight[].error", SA_FT_STR, SA_FA_NEVER, "",        \
	  "its error line")                                                                         \
	X(RBR_PERM, ROBUST_RUNS, "permutation", SA_FT_ARR, SA_FA_NEVER, "",                         \
	  "the permuted runs")                                                                      \
	X(RBR_PERM_STATUS, ROBUST_RUNS, "permutation[].status", SA_FT_STR, SA_FA_NEVER, "",         \
	  "how the run ended")                                                                      \
	X(RBR_PERM_ERROR, ROBUST_RUNS, "permutation[].error", SA_FT_STR, SA_FA_NEVER, "",           \
	  "its error line")                                                                         \
	X(VRR_FAMILY, VARIANT_RUNS, "family", SA_FT_STR, SA_FA_NEVER, "",                           \
	  "declared or neighbourhood (neighbourhood_runs.json holds the same fields)")          \
	X(VRR_COUNT, VARIANT_RUNS, "count", SA_FT_NUM, SA_FA_NEVER, "sets", "the sets run or due")  \
	X(VRR_NOT_RUN, VARIANT_RUNS, "not_run", SA_FT_NUM, SA_FA_NEVER, "sets",                     \
	  "sets the time budget left unrun")                                                      \
	X(VRR_BARS_SHA, VARIANT_RUNS, "bars_sha256", SA_FT_STR, SA_FA_NULL, "",                     \
	  "the bars the runs were made on, their sha256; null when no set was declared")          \
	X(VRR_SIGNALS_SHA, VARIANT_RUNS, "signals_sha256", SA_FT_STR, SA_FA_NEVER, "",              \
	  "the signals file's sha256")                                                            \
	X(VRR_BLOCKED, VARIANT_RUNS, "blocked_actions", SA_FT_NUM, SA_FA_NEVER, "actions",          \
	  "actions the sandbox refused in the sets' runs")                                        \
	X(VRR_REFUSALS, VARIANT_RUNS, "refusals", SA_FT_ARR, SA_FA_NEVER, "",                       \
	  "per rule of the sandbox: how often it refused and the first action")                 \
	X(VRR_EVENTS, VARIANT_RUNS, "events", SA_FT_ARR, SA_FA_NEVER, "",                           \
	  "the first refusals, each with its set")                                                \
	X(VRR_VARIANTS, VARIANT_RUNS, "variants", SA_FT_ARR, SA_FA_NEVER, "", "one entry a set")    \
	X(VRR_VARIANTS_PARAMS, VARIANT_RUNS, "variants[].params", SA_FT_OBJ, SA_FA_NEVER, "",       \
	  "the set's parameters")                                                                 \
	X(VRR_VARIANTS_STATUS, VARIANT_RUNS, "variants[].status", SA_FT_STR, SA_FA_NEVER, "",       \
	  "how its run ended")                                                                    \
	X(VRR_VARIANTS_ERROR, VARIANT_RUNS, "variants[].error", SA_FT_STR, SA_FA_NEVER, "",         \
	  "its error line, empty when none")                                                      \
	X(VR_COMPLETE, VARIANTS, "complete", SA_FT_BOOL, SA_FA_NEVER, "",                           \
	  "every declared variant was run")                                                       \
	X(VR_DECLARED, VARIANTS, "declared", SA_FT_BOOL, SA_FA_NEVER, "", "VARIANTS is declared")     \
	X(VR_COUNT, VARIANTS, "count", SA_FT_NUM, SA_FA_NEVER, "variants", "the variants declared")   \
	X(VR_RAN, VARIANTS, "ran", SA_FT_NUM, SA_FA_NEVER, "variants", "variants that ran")           \
	X(VR_FAILED, VARIANTS, "failed", SA_FT_NUM, SA_FA_NEVER, "variants",                          \
	  "variants that did not run to the end")                                                     \
	X(VR_MATRIX, VARIANTS, "matrix", SA_FT_STR, SA_FA_NEVER, "",                                \
	  "the file name of the return matrix, beside it")                                       \
	SA_REFUSAL_FIELDS(X, VR, VARIANTS)                                                            \
	X(NB_DECLARED, NEIGHBOURHOOD, "declared", SA_FT_BOOL, SA_FA_NEVER, "",                      \
	  "the strategy has parameters to move")                                                  \
	X(NB_MATRIX, NEIGHBOURHOOD, "matrix", SA_FT_STR, SA_FA_NEVER, "",                           \
	  "the file name of its return matrix, beside it")                                       \
	X(RP_MODE, REPLAY, "mode", SA_FT_STR, SA_FA_NEVER, "", "signals, tradelog or both")         \
	X(RP_BARS, REPLAY, "bars", SA_FT_NUM, SA_FA_NEVER, "bars", "bars replayed")                 \
	X(RP_TRUSTED, REPLAY, "trusted_returns", SA_FT_BOOL, SA_FA_NEVER, "",                       \
	  "the returns are the replay's own, not a log's claims")                                 \
	X(RP_SIGNALS_ERROR, REPLAY, "signals_error", SA_FT_STR, SA_FA_MAY, "",                     \
	  "why the signals could not be used, when a log was scored instead")                    \
	X(RP_RECONCILE, REPLAY, "reconcile", SA_FT_OBJ, SA_FA_MAY, "",                             \
	  "both uploaded: the log reconciled with the replay")                                    \
	X(RP_RECONCILE_CONSISTENT, REPLAY, "reconcile.consistent", SA_FT_BOOL, SA_FA_NEVER, "",     \
	  "the log agrees with the replay within the tolerance")                                  \
	X(RP_RECONCILE_GAP, REPLAY, "reconcile.mean_gap", SA_FT_NUM, SA_FA_NULL, "return",          \
	  "the mean gap between the log's returns and the replay's")                              \
	X(RP_RECONCILE_TOLERANCE, REPLAY, "reconcile.tolerance_bps", SA_FT_NUM, SA_FA_NULL, "bps",  \
	  "the gap tolerated")                                                                    \
	X(RP_RECONCILE_STATEMENT, REPLAY, "reconcile.statement", SA_FT_STR, SA_FA_NEVER, "",        \
	  "the finding in plain words")                                                           \
	X(RP_TRADES, REPLAY, "trades", SA_FT_NUM, SA_FA_NEVER, "trades", "closed trades")          \
	X(RP_NET, REPLAY, "net_return", SA_FT_NUM, SA_FA_NULL, "return",                            \
	  "the compounded net return of the trades")                                              \
	X(RP_MEAN_NET, REPLAY, "mean_net_return", SA_FT_NUM, SA_FA_NULL, "return",                  \
	  "the mean net return per trade, null without trades")                                   \
	X(RP_RUINED, REPLAY, "ruined", SA_FT_BOOL, SA_FA_NEVER, "", "the account was ruined")        \
	X(RP_SCORED, REPLAY, "scored", SA_FT_STR, SA_FA_MAY, "",                                    \
	  "whose decisions were scored: live or backtest")                                        \
	X(RP_LIVE_VS_BACKTEST, REPLAY, "live_vs_backtest", SA_FT_OBJ, SA_FA_MAY, "",                \
	  "the live decisions' replay beside the backtest's")                                     \
	X(RP_NET_BACKTEST, REPLAY, "live_vs_backtest.net_return_backtest", SA_FT_NUM, SA_FA_NULL,   \
	  "return", "the backtest's total net return")                                            \
	X(RP_NET_LIVE, REPLAY, "live_vs_backtest.net_return_live", SA_FT_NUM, SA_FA_NULL, "return", \
	  "the live decisions' total net return")                                                 \
	X(ST_TRADES, STATS, "trades", SA_FT_NUM, SA_FA_NEVER, "trades", "closed trades")             \
	X(ST_TRIALS, STATS, "trials", SA_FT_NUM, SA_FA_NEVER, "trials",                              \
	  "the effective number of trials the deflation counts: decided here, read by all after") \
	X(ST_LEDGER, STATS, "ledger", SA_FT_OBJ, SA_FA_NULL, "",                                    \
	  "the trial ledger's place for this version, null without a ledger")                    \
	X(ST_LEDGER_VERSION, STATS, "ledger.version", SA_FT_NUM, SA_FA_NEVER, "",                   \
	  "the version's number in its lineage")                                                  \
	X(ST_LEDGER_FIRST, STATS, "ledger.first_seen", SA_FT_STR, SA_FA_NEVER, "date",              \
	  "when the lineage was first seen")                                                      \
	X(ST_FORWARD, STATS, "forward", SA_FT_OBJ, SA_FA_NULL, "",                                  \
	  "the bars since this version's first audit, null when there are none")                 \
	X(ST_FORWARD_SINCE, STATS, "forward.since", SA_FT_STR, SA_FA_NEVER, "time",                 \
	  "the data's last bar at that first audit")                                              \
	X(ST_FORWARD_BARS, STATS, "forward.bars", SA_FT_NUM, SA_FA_NEVER, "bars", "bars since")     \
	X(ST_FORWARD_TRADES, STATS, "forward.trades", SA_FT_NUM, SA_FA_NEVER, "trades",             \
	  "trades entered since")                                                                 \
	X(ST_FORWARD_NET, STATS, "forward.net_return", SA_FT_NUM, SA_FA_NULL, "return",             \
	  "their compounded net return")                                                          \
	X(ST_FORWARD_BAND, STATS, "forward.band", SA_FT_ARR, SA_FA_NULL, "return",                  \
	  "the 5 and 95 % of in-sample draws of as many trades")                                  \
	X(ST_FORWARD_INSIDE, STATS, "forward.inside", SA_FT_BOOL, SA_FA_NULL, "",                     \
	  "the forward return lies inside that band, null without one")                               \
	X(ST_FORWARD_SHARPE, STATS, "forward.sharpe_annualised", SA_FT_NUM, SA_FA_NULL, "",           \
	  "their Sharpe ratio, annualised")                                                           \
	X(ST_FORWARD_BAND_TRADES, STATS, "forward.band_trades", SA_FT_NUM, SA_FA_NEVER, "trades",     \
	  "the trades each in-sample draw holds")                                                     \
	X(ST_TRIALS_SOURCE, STATS, "trials_source", SA_FT_STR, SA_FA_NEVER, "",                     \
	  "where that count came from")                                                           \
	X(ST_V_SOURCE, STATS, "sr_variance_source", SA_FT_STR, SA_FA_NEVER, "",                     \
	  "where the trials' Sharpe variance came from: variants, knob or null")                 \
	X(ST_SR_VARIANCE, STATS, "sr_variance", SA_FT_NUM, SA_FA_NULL, "",                            \
	  "V[SR]: the spread of the trials' Sharpe ratios the deflation assumed")                     \
	X(ST_MEAN_NET, STATS, "mean_net_return", SA_FT_NUM, SA_FA_NULL, "return",                    \
	  "mean net return per trade")                                                            \
	X(ST_NET_RETURN, STATS, "net_return", SA_FT_NUM, SA_FA_NULL, "return",                       \
	  "total compounded net return")                                                          \
	X(ST_SHARPE, STATS, "sharpe", SA_FT_NUM, SA_FA_NULL, "per trade", "the per-trade Sharpe ratio") \
	X(ST_SHARPE_ANN, STATS, "sharpe_annualised", SA_FT_OBJ, SA_FA_NEVER, "",                   \
	  "the Sharpe ratio of the per-bar returns, annualised")                                  \
	X(ST_SHARPE_ANN_VALUE, STATS, "sharpe_annualised.value", SA_FT_NUM, SA_FA_NULL, "a year",   \
	  "its value: the report's headline")                                                     \
	X(ST_PSR, STATS, "psr", SA_FT_NUM, SA_FA_NULL, "probability", "PSR(SR* = 0)")                \
	X(ST_DSR, STATS, "dsr", SA_FT_NUM, SA_FA_NULL, "probability", "DSR for the trials")          \
	X(ST_SR0, STATS, "sr0", SA_FT_NUM, SA_FA_NULL, "per trade",                                  \
	  "the best Sharpe ratio luck gives over the trials")                                     \
	X(ST_PSR_IID, STATS, "psr_iid", SA_FT_NUM, SA_FA_NULL, "probability",                        \
	  "PSR with the trades taken as independent")                                             \
	X(ST_DSR_IID, STATS, "dsr_iid", SA_FT_NUM, SA_FA_NULL, "probability",                        \
	  "DSR with the trades taken as independent")                                             \
	X(ST_MIN_TRL, STATS, "min_trl", SA_FT_NUM, SA_FA_NULL, "trades",                             \
	  "the minimum track record length")                                                      \
	X(ST_MAX_DD, STATS, "max_drawdown", SA_FT_NUM, SA_FA_NULL, "fraction",                       \
	  "the worst drawdown of the net equity")                                                 \
	X(ST_RUINED, STATS, "ruined", SA_FT_BOOL, SA_FA_NEVER, "",                                   \
	  "the compounded net equity reached zero")                                               \
	X(ST_RUIN_TIME, STATS, "ruin_time", SA_FT_STR, SA_FA_NULL, "", "when")                       \
	X(ST_AUTOCORR, STATS, "autocorrelation", SA_FT_OBJ, SA_FA_NULL, "",                          \
	  "the trades' serial dependence")                                                        \
	X(ST_AC_EFFECTIVE, STATS, "autocorrelation.effective_trades", SA_FT_NUM, SA_FA_NULL,         \
	  "trades", "what the trades count as independent ones, by serial dependence")           \
	X(ST_AC_LAG1, STATS, "autocorrelation.trades_lag1", SA_FT_NUM, SA_FA_NULL, "",               \
	  "the lag-1 autocorrelation of the trades' returns")                                     \
	X(ST_EFFECTIVE, STATS, "effective_trades", SA_FT_NUM, SA_FA_NULL, "trades",                  \
	  "what the trades count as independent ones (serial dependence and overlap): the trades gate's count") \
	X(ST_BENCH, STATS, "benchmark_relative", SA_FT_OBJ, SA_FA_NULL, "",                          \
	  "the regression of the returns on the instrument's")                                    \
	X(ST_BENCH_ALPHA, STATS, "benchmark_relative.alpha_annualised", SA_FT_NUM, SA_FA_NULL,       \
	  "return a year", "the annualised alpha")                                                \
	X(ST_BENCH_ALPHA_T, STATS, "benchmark_relative.alpha_t", SA_FT_NUM, SA_FA_NULL, "",          \
	  "its HAC t-statistic")                                                                  \
	X(ST_BENCH_BETA, STATS, "benchmark_relative.beta", SA_FT_NUM, SA_FA_NULL, "", "the beta")    \
	X(ST_BENCH_BETA_T, STATS, "benchmark_relative.beta_t", SA_FT_NUM, SA_FA_NULL, "",            \
	  "its HAC t-statistic")                                                                  \
	X(ST_BENCH_EXCESS, STATS, "benchmark_relative.excess_return", SA_FT_NUM, SA_FA_NULL,         \
	  "return", "the net return beyond holding the instrument")                               \
	X(ST_BENCH_REASON, STATS, "benchmark_relative_reason", SA_FT_STR, SA_FA_NULL, "",            \
	  "why there is no regression, when there is none")                                       \
	X(ST_TAIL, STATS, "tail", SA_FT_OBJ, SA_FA_MAY, "", "the tail met or not")                   \
	X(ST_TAIL_UNSEEN, STATS, "tail.unseen", SA_FT_BOOL, SA_FA_NEVER, "",                         \
	  "no loss of the size the trades' own spread implies")                                   \
	X(ST_TAIL_REASON, STATS, "tail.reason", SA_FT_STR, SA_FA_NULL, "", "the finding in plain words") \
	X(ST_TAIL_LOSING, STATS, "tail.losing_trades", SA_FT_NUM, SA_FA_NULL, "trades", "losing trades") \
	X(ST_OVERLAP, STATS, "overlap", SA_FT_OBJ, SA_FA_MAY, "", "trades open at once")             \
	X(ST_OVERLAP_TRADES, STATS, "overlap.trades_overlapping", SA_FT_NUM, SA_FA_NEVER, "trades",  \
	  "trades open while another is")                                                         \
	X(ST_OVERLAP_MAX, STATS, "overlap.max_concurrent", SA_FT_NUM, SA_FA_NULL, "trades",          \
	  "most trades open at once")                                                             \
	X(ST_OVERLAP_EXPOSURE, STATS, "overlap.exposure_multiple", SA_FT_NUM, SA_FA_NULL, "",        \
	  "the time-weighted exposure, in stakes")                                                \
	X(ST_OVERLAP_EFFECTIVE, STATS, "overlap.effective_trades", SA_FT_NUM, SA_FA_NULL, "trades",  \
	  "what the trades count as independent ones, by overlap")                               \
	X(ST_PRICES, STATS, "tradeable_prices", SA_FT_OBJ, SA_FA_MAY, "",                            \
	  "whether the bars' prices are prices anyone could trade at")                            \
	X(ST_PRICES_SPREAD, STATS, "tradeable_prices.spread_estimate", SA_FT_NUM, SA_FA_NULL,        \
	  "fraction", "the bid-ask spread the bars imply")                                        \
	X(ST_PRICES_SLIPPAGE, STATS, "tradeable_prices.slippage_bps", SA_FT_NUM, SA_FA_NULL, "bps",  \
	  "the slippage per side modelled")                                                       \
	X(ST_PRICES_LAG1, STATS, "tradeable_prices.returns_lag1", SA_FT_NUM, SA_FA_NULL, "",         \
	  "the lag-1 autocorrelation of the bars' returns")                                       \
	X(ST_PRICES_ZERO, STATS, "tradeable_prices.zero_returns_share", SA_FT_NUM, SA_FA_NULL,       \
	  "fraction", "the share of bars that did not move")                                      \
	X(ST_PRICES_STALE, STATS, "tradeable_prices.stale", SA_FT_BOOL, SA_FA_NEVER, "",             \
	  "the prices lag the market")                                                            \
	X(ST_BOUNCE, STATS, "bounce", SA_FT_OBJ, SA_FA_MAY, "",                                      \
	  "the net return filled one bar later and at the spread's slippage")                     \
	X(ST_BOUNCE_LATE, STATS, "bounce.net_return_one_bar_later", SA_FT_NUM, SA_FA_NULL, "return", \
	  "filled one bar later")                                                                 \
	X(ST_BOUNCE_CONFIGURED, STATS, "bounce.net_return_configured_slippage", SA_FT_NUM,           \
	  SA_FA_NULL, "return", "at the configured slippage")                                     \
	X(ST_BOUNCE_SIGN_LATE, STATS, "bounce.sign_changes_late", SA_FT_BOOL, SA_FA_NEVER, "",       \
	  "one bar later turns the sign")                                                         \
	X(ST_BOUNCE_SIGN_SPREAD, STATS, "bounce.sign_changes_spread", SA_FT_BOOL, SA_FA_NEVER, "",   \
	  "the spread's slippage turns the sign")                                                 \
	X(ST_BOUNCE_INSIDE, STATS, "bounce.inside_bounce", SA_FT_BOOL, SA_FA_NEVER, "",              \
	  "a positive net return that either turns: not an edge anyone could trade")             \
	X(ST_NB, STATS, "neighbourhood", SA_FT_OBJ, SA_FA_MAY, "",                                   \
	  "the audited parameters' neighbours: plateau or peak")                                 \
	X(ST_NB_MEASURED, STATS, "neighbourhood.measured", SA_FT_BOOL, SA_FA_NEVER, "",              \
	  "the neighbours ran and were compared")                                                 \
	X(ST_NB_REASON, STATS, "neighbourhood.reason", SA_FT_STR, SA_FA_NULL, "",                    \
	  "why it was not measured")                                                              \
	X(ST_NB_SHAPE, STATS, "neighbourhood.shape", SA_FT_STR, SA_FA_NULL, "",                      \
	  "plateau, peak or no_edge")                                                             \
	X(ST_NB_KEEP, STATS, "neighbourhood.keep", SA_FT_NUM, SA_FA_NULL, "ratio",                   \
	  "the neighbours' median per-bar Sharpe ratio over the centre's")                       \
	X(ST_NB_KEEP_MIN, STATS, "neighbourhood.keep_min", SA_FT_NUM, SA_FA_NULL, "ratio",           \
	  "the least a plateau keeps (NEIGHBOUR_KEEP)")                                           \
	X(ST_NB_CENTRE, STATS, "neighbourhood.centre_sharpe", SA_FT_NUM, SA_FA_NULL, "",             \
	  "the audited parameters' per-bar Sharpe ratio")                                         \
	X(ST_NB_MEDIAN, STATS, "neighbourhood.median_sharpe", SA_FT_NUM, SA_FA_NULL, "",             \
	  "the neighbours' median per-bar Sharpe ratio")                                          \
	X(ST_NB_IMPLIED, STATS, "neighbourhood.implied_trials", SA_FT_NUM, SA_FA_NULL, "trials",     \
	  "the search a peak implies")                                                            \
	X(ST_NB_SPAN, STATS, "neighbourhood.span", SA_FT_NUM, SA_FA_NULL, "ratio",                   \
	  "the factor a parameter is assumed searched over (NEIGHBOUR_SPAN)")                     \
	X(ST_NB_FAMILY, STATS, "neighbourhood.family_trials", SA_FT_NUM, SA_FA_NULL, "trials",       \
	  "the family's independent trials over that span, from how fast the neighbours decorrelate") \
	X(ST_NB_NEIGHBOURS, STATS, "neighbourhood.neighbours", SA_FT_NUM, SA_FA_NEVER, "sets",       \
	  "the neighbours' sets")                                                                 \
	X(ST_NB_FAILED, STATS, "neighbourhood.failed", SA_FT_NUM, SA_FA_NEVER, "sets",               \
	  "neighbours whose run failed")                                                          \
	X(ST_CONC, STATS, "concentration", SA_FT_OBJ, SA_FA_NULL, "",                                \
	  "the edge without the best trades")                                                     \
	X(ST_CONC_WITHOUT, STATS, "concentration.mean_net_return_without", SA_FT_NUM, SA_FA_NULL,    \
	  "return", "the mean net return without the best 5 % (at least one)")                    \
	X(ST_CONC_REMOVED, STATS, "concentration.removed", SA_FT_NUM, SA_FA_NULL, "trades",          \
	  "how many best trades that leaves out")                                                 \
	X(ST_CONC_SHARE, STATS, "concentration.best_5pct_share", SA_FT_NUM, SA_FA_NULL, "fraction",  \
	  "their share of the summed net returns")                                                \
	X(ST_VARIANTS, STATS, "variants", SA_FT_OBJ, SA_FA_NEVER, "", "the declared variants")      \
	X(ST_VARIANTS_DECLARED, STATS, "variants.declared", SA_FT_BOOL, SA_FA_NEVER, "",             \
	  "VARIANTS is declared")                                                                 \
	X(ST_VARIANTS_RAN, STATS, "variants.ran", SA_FT_NUM, SA_FA_NEVER, "variants",                \
	  "variants that ran")                                                                    \
	X(ST_PBO, STATS, "pbo", SA_FT_OBJ, SA_FA_NULL, "",                                           \
	  "the probability of backtest overfitting of the variants")                              \
	X(ST_PBO_VALUE, STATS, "pbo.value", SA_FT_NUM, SA_FA_NULL, "probability", "PBO")             \
	X(ST_PBO_COMBINATIONS, STATS, "pbo.combinations", SA_FT_NUM, SA_FA_NEVER, "splits",          \
	  "the splits of the history measured")                                                   \
	X(ST_PBO_BLOCKS, STATS, "pbo.blocks", SA_FT_NUM, SA_FA_NULL, "blocks",                       \
	  "the block count the splits are made of")                                               \
	X(ST_PBO_OOS_LOSS, STATS, "pbo.prob_oos_loss", SA_FT_NUM, SA_FA_NULL, "probability",          \
	  "the best in-sample variant loses out of sample")                                           \
	X(ST_PBO_SLOPE, STATS, "pbo.degradation_slope", SA_FT_NUM, SA_FA_NULL, "",                    \
	  "out-of-sample Sharpe ratio against in-sample's, the fitted slope")                         \
	X(ST_PBO_AT_BLOCKS, STATS, "pbo.value_at_blocks", SA_FT_NUM, SA_FA_MAY, "probability",        \
	  "PBO at PBO_BLOCKS alone")                                                                  \
	X(ST_PBO_SPREAD, STATS, "pbo.spread", SA_FT_OBJ, SA_FA_MAY, "",                              \
	  "PBO's range over the block counts swept")                                              \
	X(ST_PBO_SPREAD_MIN, STATS, "pbo.spread.min", SA_FT_NUM, SA_FA_NULL, "probability", "lowest") \
	X(ST_PBO_SPREAD_MAX, STATS, "pbo.spread.max", SA_FT_NUM, SA_FA_NULL, "probability", "highest") \
	X(ST_PBO_BY_BLOCKS, STATS, "pbo.by_blocks", SA_FT_OBJ, SA_FA_MAY, "",                        \
	  "PBO by block count (keyed by the count)")                                              \
	X(ST_PBO_REASON, STATS, "pbo_reason", SA_FT_STR, SA_FA_NULL, "", "why PBO was not measured") \
	X(ST_SEARCH, STATS, "declared_search", SA_FT_OBJ, SA_FA_NULL, "",                            \
	  "the search the strategy file itself declares")                                         \
	X(ST_SEARCH_HYPEROPT, STATS, "declared_search.hyperopt", SA_FT_BOOL, SA_FA_NEVER, "",        \
	  "a freqtrade hyperopt space")                                                           \
	X(ST_SEARCH_HYPEROPT_GRID, STATS, "declared_search.hyperopt_grid", SA_FT_NUM, SA_FA_NULL,    \
	  "points", "its points (null: a continuous range)")                                      \
	X(ST_SEARCH_OPTIMIZE_GRID, STATS, "declared_search.optimize_grid", SA_FT_NUM, SA_FA_NULL,    \
	  "points", "a backtesting.py optimize() grid's points")                                  \
	X(ST_SEARCH_COUNTED, STATS, "declared_search.counted", SA_FT_NUM, SA_FA_NULL, "trials",      \
	  "the trials the search counts for")                                                     \
	X(SLR_RAN, SEALED_RUN, "ran", SA_FT_BOOL, SA_FA_NEVER, "",                                  \
	  "the upload was run on the sealed bars")                                                \
	X(SLR_RUN, SEALED_RUN, "run", SA_FT_STR, SA_FA_NULL, "",                                     \
	  "the run's key in the ledger's history, null when it did not run")                      \
	X(SL_OUTCOME, SEALED, "outcome", SA_FT_STR, SA_FA_NEVER, "",                                 \
	  "fails, weaker, as_open, stronger, spent, not_run, failed, cut_short or refused")        \
	X(SL_BARS, SEALED, "bars", SA_FT_NUM, SA_FA_NULL, "bars", "sealed bars")                     \
	X(SL_BOUND_BITS, SEALED, "bound_bits", SA_FT_NUM, SA_FA_NULL, "bits",                        \
	  "at most what an audit told back of the sealed bars")                                   \
	X(SL_BUDGET, SEALED, "budget", SA_FT_OBJ, SA_FA_NEVER, "", "the sealed set's budget")        \
	X(SL_BUDGET_USED, SEALED, "budget.used", SA_FT_NUM, SA_FA_NULL, "audits",                    \
	  "audits the set has answered, this one included")                                       \
	X(SL_BUDGET_OF, SEALED, "budget.of", SA_FT_NUM, SA_FA_NULL, "audits", "the set's budget")    \
	X(SL_BUDGET_LINEAGE, SEALED, "budget.lineage_used", SA_FT_NUM, SA_FA_NULL, "audits",         \
	  "of them, this strategy's lineage's")                                                   \
	X(SL_BUDGET_SPENT, SEALED, "budget.spent", SA_FT_BOOL, SA_FA_NEVER, "", "the set is spent") \
	X(SL_EDGE_HOLDS, SEALED, "edge_holds", SA_FT_BOOL, SA_FA_NEVER, "",                          \
	  "the net edge holds on the sealed bars")                                                \
	X(SL_REFUSED, SEALED, "refused", SA_FT_BOOL, SA_FA_NEVER, "",                                \
	  "the sandbox refused an action of the run there")                                       \
	X(SL_COMPLETE, SEALED, "complete", SA_FT_BOOL, SA_FA_NEVER, "",                              \
	  "the run there finished")                                                               \
	X(LG_USED, LEDGER, "used", SA_FT_BOOL, SA_FA_NEVER, "", "a trial ledger was read")          \
	X(LG_LINEAGE, LEDGER, "lineage", SA_FT_STR, SA_FA_MAY, "", "the version's lineage, when used") \
	X(LG_VERSION, LEDGER, "version", SA_FT_NUM, SA_FA_MAY, "", "its number in the lineage")     \
	X(LG_VERSIONS, LEDGER, "versions", SA_FT_NUM, SA_FA_MAY, "versions",                        \
	  "the lineage's versions so far, this one included")                                     \
	X(LG_TRIALS, LEDGER, "trials", SA_FT_NUM, SA_FA_MAY, "trials",                              \
	  "the lineage's trials: each version's declared variants, at least one")                \
	X(LG_FIRST_SEEN, LEDGER, "first_seen", SA_FT_STR, SA_FA_MAY, "date",                        \
	  "when the lineage was first seen")                                                      \
	X(LG_SINCE, LEDGER, "since", SA_FT_STR, SA_FA_MAY, "time",                                  \
	  "the data's last bar at this version's first recorded audit, null when new")           \
	X(VD_VERDICT, VERDICT, "verdict", SA_FT_STR, SA_FA_NEVER, "",                                \
	  "REJECTED_UNSAFE, INCOMPLETE, REJECTED_LOOKAHEAD, READY_FOR_MICRO_LIVE, WATCH or NOT_READY") \
	X(VD_GATE_VERDICT, VERDICT, "gate_verdict", SA_FT_STR, SA_FA_NEVER, "",                      \
	  "what the gates alone say")                                                             \
	X(VD_GATES, VERDICT, "gates", SA_FT_ARR, SA_FA_NEVER, "", "the readiness gates, in order")  \
	X(VD_GATES_NAME, VERDICT, "gates[].name", SA_FT_STR, SA_FA_NEVER, "", "the gate")           \
	X(VD_GATES_PASS, VERDICT, "gates[].pass", SA_FT_BOOL, SA_FA_NEVER, "", "it passed")         \
	X(VD_GATES_VALUE, VERDICT, "gates[].value", SA_FT_NUM, SA_FA_NULL, "",                        \
	  "its measured value, null when not measured")                                               \
	X(VD_GATES_THRESHOLD, VERDICT, "gates[].threshold", SA_FT_NUM, SA_FA_NULL, "",                \
	  "the value it is held to")                                                                  \
	X(VD_GATES_WHY, VERDICT, "gates[].why", SA_FT_STR, SA_FA_NEVER, "", "its one line")         \
	X(VD_VETOES, VERDICT, "vetoes", SA_FT_ARR, SA_FA_NEVER, "", "the vetoes that apply")        \
	X(VD_VETOES_NAME, VERDICT, "vetoes[].name", SA_FT_STR, SA_FA_NEVER, "", "unsafe or lookahead") \
	X(VD_VETOES_REASON, VERDICT, "vetoes[].reason", SA_FT_STR, SA_FA_NEVER, "", "why")          \
	X(VD_BLOCKED, VERDICT, "blocked_actions", SA_FT_NUM, SA_FA_NEVER, "actions",                 \
	  "the sandbox's refusals over every run of the upload")                                  \
	X(VD_MISMATCHES, VERDICT, "lookahead_mismatches", SA_FT_NUM, SA_FA_NEVER, "re-runs",         \
	  "truncated re-runs that disagreed")                                                     \
	X(VD_TRADES, VERDICT, "trades", SA_FT_NUM, SA_FA_NEVER, "trades", "closed trades")           \
	X(VD_TRIALS, VERDICT, "trials", SA_FT_NUM, SA_FA_NULL, "trials",                             \
	  "stats.json's trials, as the verdict read them")                                        \
	X(VD_SUMMARY, VERDICT, "summary", SA_FT_STR, SA_FA_NEVER, "",                                \
	  "the verdict in plain English, generated from the numbers")

enum sa_field_id {
#define SA_FIELD_ENUM(id, file, key, type, absent, unit, help) SA_FD_##id,
	SA_FIELDS(SA_FIELD_ENUM)
#undef SA_FIELD_ENUM
	SA_FD_COUNT
};

struct sa_field_row {
	enum sa_sfile_id file;
	const char *key;
	enum sa_ftype type;
	enum sa_fabsent absent;
	const char *unit;
	const char *help;
};

extern const struct sa_field_row sa_fields[SA_FD_COUNT];

/* "number", "boolean", "string", "object", "array". */
const char *sa_ftype_name(enum sa_ftype t);

/* A stage file opened for reading through the table. */
struct sa_sf {
	enum sa_sfile_id id;
	cJSON *root;       /* NULL when missing or unreadable */
	bool ok;           /* present, of this table's schema, and "ok": true */
	char status[512];  /* "ok", "missing", the stage's "reason", or why it could not be read */
	char broken[512];  /* the first field that broke the table: "stats.json: the field
			    * \"trials\" is missing"; "" while none did */
	bool borrowed;     /* root is the caller's (sa_sf_view): sa_sf_close leaves it */
};

/* A new object {"stage": the file's writer, "schema": the table's version}: what a writer
 * starts its file with. Caller frees. Never NULL (aborts on OOM). */
cJSON *sa_sf_new(enum sa_sfile_id id);

/* Opens dir/<the file's name> (sa_sf_open_path: path itself). A missing file is not an error
 * (f->status says "missing", nothing is read from it); a present file that is not a JSON object,
 * or whose "stage", "schema" or "ok" are not the table's, breaks the contract (f->broken).
 * Returns f->ok. */
bool sa_sf_open(struct sa_sf *f, const char *dir, enum sa_sfile_id id);
bool sa_sf_open_path(struct sa_sf *f, const char *path, enum sa_sfile_id id);
void sa_sf_close(struct sa_sf *f);

/* Opens path as sa_sf_open_path and keeps its tree: the tree (the caller's: cJSON_Delete it)
 * when the file is present and its head is the table's, a failed stage's record too (f->ok
 * false, its reason in f->status); NULL when the file is missing, unreadable or its head broke
 * the table, why in f->status. f stays a view of the kept tree, to take its fields by their
 * rows (its breaks in f->broken); sa_sf_close leaves the tree. */
cJSON *sa_sf_keep(struct sa_sf *f, const char *path, enum sa_sfile_id id);

/* A tree the caller read already (borrowed: it outlives f, and sa_sf_close leaves it), held to
 * the table as sa_sf_open would: its head checked, its fields read by their rows. root NULL is
 * a missing file. Returns f->ok. */
bool sa_sf_view(struct sa_sf *f, const cJSON *root, enum sa_sfile_id id);

/* One record of a JSON-lines file (events.jsonl), read like a file of its own: no head to check;
 * f->ok when the line is a JSON object. Close it with sa_sf_close. */
void sa_sf_line(struct sa_sf *f, enum sa_sfile_id id, const char *line);

/* Whether the file was present and parsed (ok or not): a failed stage's record is still read. */
bool sa_sf_present(const struct sa_sf *f);

/* The checked reads. base is NULL for a key from the file's root, or an element of an array
 * for a key with "[]." (its part after the last "[]." is read from base). Returns 1 with *out
 * set when the field is there. Returns 0, *out left as it was, when it is not there and need not
 * be: the file is missing or failed, the row may be absent, the field is null where the row
 * allows null, or an object on its path is not there (that object's own row speaks for it).
 * Returns -1, *out left, when a present file breaks the table: the field missing or of another
 * type; the first such is recorded in f->broken, naming the file and the field. */
int sa_sf_num(struct sa_sf *f, const cJSON *base, enum sa_field_id k, double *out);
int sa_sf_bool(struct sa_sf *f, const cJSON *base, enum sa_field_id k, bool *out);
int sa_sf_str(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const char **out);
int sa_sf_obj(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out);
int sa_sf_arr(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out);
/* The field of whatever type its row says (null where the row allows it reads 0). */
int sa_sf_item(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const cJSON **out);

/* The same, with def (NULL) where they return other than 1: for a field that is not there and
 * need not be. A break is recorded in f->broken all the same, and the caller checks it. */
double sa_sf_num_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, double def);
bool sa_sf_bool_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, bool def);
const char *sa_sf_str_or(struct sa_sf *f, const cJSON *base, enum sa_field_id k, const char *def);
const cJSON *sa_sf_obj_or_null(struct sa_sf *f, const cJSON *base, enum sa_field_id k);
const cJSON *sa_sf_arr_or_null(struct sa_sf *f, const cJSON *base, enum sa_field_id k);

#endif
