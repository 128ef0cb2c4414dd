/* config.h - the knob table: every setting of an audit once, with its make variable, its place
 * in config.json, its type, its range, its default and one line of help. The config writer,
 * every stage's reader, `make help` and the Makefile's defaults (build/knobs.mk) all come from
 * the rows below, so a range or a default exists in one place.
 *
 * This header needs no library: the knobs tool that writes build/knobs.mk is built from it
 * before any package is installed. */
#ifndef SA_CONFIG_H
#define SA_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

struct cJSON;

enum sa_knob_type {
	SA_KNOB_INT,   /* a whole number in [lo, hi] */
	SA_KNOB_NUM,   /* a finite number in [lo, hi] */
	SA_KNOB_STR,   /* text of at most hi bytes */
	SA_KNOB_MAKE,  /* a make variable only (a file name, a folder): never in config.json */
};

/* The table. One row a knob:
 *   X(id, make variable, config.json path or NULL, type, lo, hi, default, read by, help)
 * The path is "key" or "group.key". "read by" names the stages that read the knob from
 * config.json (tests/e2e/17-knob-readers.sh holds it to what the code reads): each of them
 * depends on the knob's stamp file, .knobs-<MAKE> (build/knobs.mk lists them per stage), so
 * changing a knob re-runs exactly its readers and what is made from their files. A default of
 * "cores" means the number of online processors. Rows are grouped as `make help` prints them. */
#define SA_KNOBS(X)                                                                              \
	X(STRATEGY, "STRATEGY", NULL, SA_KNOB_MAKE, 0, 0, "", "",                                     \
	  "strategy .py: signals(df), a freqtrade IStrategy or a backtesting.py Strategy class")  \
	X(TRADES, "TRADES", NULL, SA_KNOB_MAKE, 0, 0, "", "",                                         \
	  "trade-log .csv: entry_time,exit_time,side,return")                                    \
	X(DATA, "DATA", NULL, SA_KNOB_MAKE, 0, 0, "data/ohlcv.csv", "",                               \
	  "OHLCV csv, for a framework class at its timeframe or finer (the default is the bundled synthetic series)") \
	X(SEALED, "SEALED", NULL, SA_KNOB_MAKE, 0, 0, "", "",                                         \
	  "sealed OHLCV csv, read like DATA: the strategy is also run and scored there (aggregates only)") \
	X(SEALED_BUDGET, "SEALED_BUDGET", "sealed.budget", SA_KNOB_INT, 1, 1000, "5", "sealed_score",       \
	  "audits a sealed set answers (the ledger counts them by the set's sha256); then it is spent") \
	X(ADJUSTED, "ADJUSTED", "data.adjusted", SA_KNOB_INT, 0, 1, "0",                             \
	  "fingerprint sandbox lookahead robust robust_score sealed sealed_score variants variants_score replay stats report",                       \
	  "1: scale open, high, low, close by the data's Adj Close / Close, bar by bar")         \
	X(JUMP_SIGMAS, "JUMP_SIGMAS", "data.jump_sigmas", SA_KNOB_NUM, 3, 1e6, "15",                \
	  "fingerprint",                                                                             \
	  "warn of a bar opening this many robust volatilities from the previous close (a split, a bad tick)") \
	X(TRADES_COLUMNS, "TRADES_COLUMNS", "data.trades_columns", SA_KNOB_STR, 0, 512, "",          \
	  "inspect replay",                                                                          \
	  "trade-log column map: entry=COL,exit=COL,side=COL,return=COL (a trailing % on COL: percent)") \
	X(NAME, "NAME", NULL, SA_KNOB_MAKE, 0, 0, "", "",                                             \
	  "bundle name, out/NAME/ (default: the upload's file name without .py or .csv)")        \
	X(TRIALS, "TRIALS", "trials", SA_KNOB_INT, 1, 1e6, "1",                                      \
	  "stats",                                                                                   \
	  "variants tried, this one included: the Deflated Sharpe Ratio prices them in")         \
	X(TRIALS_SR_VARIANCE, "TRIALS_SR_VARIANCE", "deflation.sr_variance", SA_KNOB_NUM, 0, 1,   \
	  "0", "stats", "variance of the trials' per-trade Sharpe ratios, for trials run elsewhere " \
	  "(0: measured from VARIANTS, else 1/(T-1))")                                           \
	X(LEDGER, "LEDGER", "deflation.ledger", SA_KNOB_STR, 0, 1024, "out/nightly/history.sqlite", \
	  "ledger sealed sealed_score",                                                                                  \
	  "the nightly's history whose trial ledger counts this strategy's versions (empty: off)") \
	X(HYPEROPT_EPOCHS, "HYPEROPT_EPOCHS", "deflation.hyperopt_epochs", SA_KNOB_INT, 1, 1e9, "100", \
	  "stats",                                                                                   \
	  "points of a freqtrade hyperopt space counted as trials (freqtrade's default --epochs), at most the points the space holds") \
	X(PBO_BLOCKS, "PBO_BLOCKS", "deflation.pbo_blocks", SA_KNOB_INT, 2, 20, "16",                \
	  "stats",                                                                                   \
	  "PBO: contiguous blocks the variants' returns are cut into (even)")                    \
	X(NEIGHBOUR_KEEP, "NEIGHBOUR_KEEP", "deflation.neighbour_keep", SA_KNOB_NUM, 0, 1, "0.5",  \
	  "stats",                                                                                   \
	  "a peak: the audited parameters' neighbours (x0.8 to x1.2) keep, at their median, less than this share of its per-bar Sharpe ratio") \
	X(NEIGHBOUR_SPAN, "NEIGHBOUR_SPAN", "deflation.neighbour_span", SA_KNOB_NUM, 1, 1000, "8",    \
	  "stats",                                                                                   \
	  "the factor a parameter is assumed searched over (largest value over smallest): with how fast its neighbours' returns decorrelate, the family's independent trials the deflation counts at least (1: off)") \
	X(FEE_BPS, "FEE_BPS", "costs.fee_bps", SA_KNOB_NUM, 0, 1000, "",                             \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "fees per side, in bps of the traded notional (empty: the market's, FEE_BPS_<MARKET>)") \
	X(SLIPPAGE_BPS, "SLIPPAGE_BPS", "costs.slippage_bps", SA_KNOB_NUM, 0, 1000, "",              \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "slippage per side, in bps of the traded notional (empty: SLIPPAGE_BPS_<MARKET>)")     \
	X(FEE_BPS_PERP, "FEE_BPS_PERP", "costs.fee_bps_perp", SA_KNOB_NUM, 0, 1000, "5",            \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "perp's fee per side unless FEE_BPS: a perpetual exchange's taker fee (Binance USD-M 0.05 %)") \
	X(FEE_BPS_SPOT, "FEE_BPS_SPOT", "costs.fee_bps_spot", SA_KNOB_NUM, 0, 1000, "10",           \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "spot's fee per side unless FEE_BPS: a spot exchange's taker fee (Binance spot 0.10 %)") \
	X(FEE_BPS_STOCK, "FEE_BPS_STOCK", "costs.fee_bps_stock", SA_KNOB_NUM, 0, 1000, "1",         \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "stock's fee per side unless FEE_BPS: a broker's commission (USD 0.005 a share of USD 50)") \
	X(FEE_BPS_FX, "FEE_BPS_FX", "costs.fee_bps_fx", SA_KNOB_NUM, 0, 1000, "0",                  \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "fx's fee per side unless FEE_BPS: none, a retail FX broker is paid in the spread")    \
	X(SLIPPAGE_BPS_PERP, "SLIPPAGE_BPS_PERP", "costs.slippage_bps_perp", SA_KNOB_NUM, 0, 1000,  \
	  "2", "robust_score sealed_score variants_score replay stats",                          \
	  "perp's slippage per side unless SLIPPAGE_BPS")                                        \
	X(SLIPPAGE_BPS_SPOT, "SLIPPAGE_BPS_SPOT", "costs.slippage_bps_spot", SA_KNOB_NUM, 0, 1000,  \
	  "2", "robust_score sealed_score variants_score replay stats",                          \
	  "spot's slippage per side unless SLIPPAGE_BPS")                                        \
	X(SLIPPAGE_BPS_STOCK, "SLIPPAGE_BPS_STOCK", "costs.slippage_bps_stock", SA_KNOB_NUM, 0, 1000, \
	  "2", "robust_score sealed_score variants_score replay stats",                          \
	  "stock's slippage per side unless SLIPPAGE_BPS: half a quoted spread of about 4 bp")   \
	X(SLIPPAGE_BPS_FX, "SLIPPAGE_BPS_FX", "costs.slippage_bps_fx", SA_KNOB_NUM, 0, 1000, "0.5", \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "fx's slippage per side unless SLIPPAGE_BPS: half a 1-pip EUR/USD spread (0.9 bp)")    \
	X(MIN_COMMISSION_STOCK, "MIN_COMMISSION_STOCK", "costs.min_commission_stock", SA_KNOB_NUM, 0, 1000, "1", \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "stock: the least commission an order pays, in the stake's currency (Interactive Brokers' fixed pricing: USD 1); the fee per side is at least it over STAKE") \
	X(STAKE, "STAKE", "costs.stake", SA_KNOB_NUM, 1, 1e12, "10000",                            \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "the account in the stake's currency: the notional of one order, that MIN_COMMISSION_STOCK is set against, and the report's starting balance (as freqtrade's)") \
	X(SPREAD_FLOOR, "SPREAD_FLOOR", "costs.spread_floor", SA_KNOB_NUM, 0, 10, "1",               \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "slippage per side is at least this times half the spread the bars imply (the least of Roll's, Corwin-Schultz's and Abdi-Ranaldo's estimates); 0: no floor") \
	X(FUNDING_BPS_8H, "FUNDING_BPS_8H", "costs.funding_bps_8h", SA_KNOB_NUM, -1000, 1000,    \
	  "1", "robust_score sealed_score variants_score replay stats",                          \
	  "perp: funding per 8 h of held notional, in bps, paid by either side (see FUNDING_INCOME)") \
	X(FUNDING_INCOME, "FUNDING_INCOME", "costs.funding_income", SA_KNOB_INT, 0, 1, "0",          \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "1: funding is signed, a long pays FUNDING_BPS_8H and a short receives it; 0: never income") \
	X(MARKET, "MARKET", "costs.market", SA_KNOB_STR, 0, 5, "",                                   \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "perp, spot, stock or fx (empty: from the data: a funding column or -futures perp, weekday sessions stock, the FX week fx, else spot)") \
	X(BORROW_BPS_YEAR, "BORROW_BPS_YEAR", "costs.borrow_bps_year", SA_KNOB_NUM, 0, 100000, "30", \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "stock, spot: borrow fee of a short, bps a year of its notional, for the time it is held") \
	X(SWAP_LONG_BPS_YEAR, "SWAP_LONG_BPS_YEAR", "costs.swap_long_bps_year", SA_KNOB_NUM, -100000, 100000, "100", \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "fx: rollover (swap) of a long held over 17:00 New York, bps a year of its notional, a night 1/360 of it, Wednesday's three nights; negative: earned") \
	X(SWAP_SHORT_BPS_YEAR, "SWAP_SHORT_BPS_YEAR", "costs.swap_short_bps_year", SA_KNOB_NUM, -100000, 100000, "100", \
	  "robust_score sealed_score variants_score replay stats",                          \
	  "fx: rollover (swap) of a short held over 17:00 New York, bps a year of its notional, a night 1/360 of it, Wednesday's three nights; negative: earned") \
	X(RECONCILE_BPS, "RECONCILE_BPS", "reconcile.bps", SA_KNOB_NUM, 0, 10000, "1",               \
	  "replay",                                                                                  \
	  "reconciliation: largest gap per trade, in bps, between a logged return and the replay") \
	X(WALL_S, "WALL_S", "limits.wall_s", SA_KNOB_INT, 1, 3600, "20",                             \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: wall-clock seconds per run")                                                 \
	X(CPU_S, "CPU_S", "limits.cpu_s", SA_KNOB_INT, 1, 3600, "20",                                \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: CPU seconds per run")                                                        \
	X(MEM_MB, "MEM_MB", "limits.mem_mb", SA_KNOB_INT, 64, 65536, "1024",                         \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: address space per run, MB")                                                  \
	X(SCRATCH_MB, "SCRATCH_MB", "limits.scratch_mb", SA_KNOB_INT, 1, 4096, "16",                 \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: scratch tmpfs per run, MB")                                                  \
	X(NOFILE, "NOFILE", "limits.nofile", SA_KNOB_INT, 16, 4096, "64",                            \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: open files per run")                                                         \
	X(CPUS, "CPUS", "limits.cpus", SA_KNOB_NUM, 0.1, 64, "1.0",                                  \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "sandbox: CPU quota per run, cores (a cgroup's, where the machine allows one)")         \
	X(SANDBOX_JOBS, "SANDBOX_JOBS", NULL, SA_KNOB_MAKE, 0, 0, "cores", "",                        \
	  "sandbox runs at once (scheduling only: no result depends on it)")                     \
	X(LOOKAHEAD_MAX, "LOOKAHEAD_MAX", "lookahead.max", SA_KNOB_INT, 1, 1e9, "1000000",           \
	  "lookahead",                                                                               \
	  "look-ahead: truncated re-runs at most; every candidate up to a million bars, an even " \
	  "spread beyond (stated in the report)")                                                \
	X(LOOKAHEAD_SEED, "LOOKAHEAD_SEED", "lookahead.seed", SA_KNOB_INT, 0, 4294967295.0, "1",     \
	  "lookahead",                                                                               \
	  "look-ahead: seed of the random truncation points")                                    \
	X(LOOKAHEAD_STOP_AFTER, "LOOKAHEAD_STOP_AFTER", "lookahead.stop_after", SA_KNOB_INT, 1,    \
	  1e9, "32", "lookahead", "look-ahead: stop after this many mismatches (the leak is established)")    \
	X(LOOKAHEAD_WINDOW, "LOOKAHEAD_WINDOW", "lookahead.window", SA_KNOB_INT, 0, 1e9, "0",       \
	  "lookahead",                                                                               \
	  "look-ahead: bars of history each truncated run is given (0: measured from the "         \
	  "strategy's memory, at least 1024); a run that disagrees is confirmed on the whole prefix") \
	X(LIVE_BARS, "LIVE_BARS", "lookahead.live_bars", SA_KNOB_INT, 1, 1e9, "1000000",              \
	  "lookahead",                                                                               \
	  "live replay: bars decided live, each with only the bars up to it (every bar up to a "   \
	  "million); past it, and past the time budget, a sample drawn from a secret seed")        \
	X(AUDIT_S, "AUDIT_S", "budget.audit_s", SA_KNOB_INT, 10, 604800, "600",                      \
	  "sandbox lookahead robust sealed variants",                                                       \
	  "every audit ends: seconds the stages that run the upload share; a check cut short "   \
	  "is said, and its verdict cannot pass")                                                \
	X(ROLLING_WINDOW, "ROLLING_WINDOW", "tearsheet.rolling_window", SA_KNOB_INT, 0, 1e9, "0",    \
	  "stats",                                                                                   \
	  "rolling Sharpe: bars per window (0: a quarter of the data)")                          \
	X(BOOTSTRAP_SEED, "BOOTSTRAP_SEED", "tearsheet.bootstrap_seed", SA_KNOB_INT, 0,           \
	  4294967295.0, "1", "stats", "seed of the bootstrap resamples (Sharpe interval, SPA, Monte Carlo)")           \
	X(WALKFORWARD_WINDOWS, "WALKFORWARD_WINDOWS", "walk_forward.windows", SA_KNOB_INT, 1, 100,  \
	  "5", "stats", "walk-forward: stretches the variants are chosen before and traded on")  \
	X(MONTE_CARLO, "MONTE_CARLO", "monte_carlo.resamples", SA_KNOB_INT, 1, 100000, "1000",     \
	  "stats", "Monte Carlo: resampled sequences of the closed trades")                     \
	X(WARMUP_OFFSETS, "WARMUP_OFFSETS", "robust.warmup_offsets", SA_KNOB_STR, 1, 64,         \
	  "10,25,50", "robust", "robust: warm-up re-runs start at these % of the bars (each 1-60)")       \
	X(WARMUP_FLAG, "WARMUP_FLAG", "robust.warmup_flag", SA_KNOB_NUM, 0, 1, "0.01",               \
	  "robust_score",                                                                                  \
	  "robust: warm-up flagged above this share of tail bars disagreeing")                   \
	X(PERMUTATIONS, "PERMUTATIONS", "robust.permutations", SA_KNOB_INT, 1, 100000, "100",        \
	  "robust",                                                                                  \
	  "robust: permuted copies of the data the strategy is re-run on")                      \
	X(ROBUST_SEED, "ROBUST_SEED", "robust.seed", SA_KNOB_INT, 0, 4294967295.0, "1",              \
	  "robust",                                                                                  \
	  "robust: seed of the permutations")                                                    \
	X(GATE_MIN_TRADES, "GATE_MIN_TRADES", "gates.min_trades", SA_KNOB_INT, 1, 1e9, "100",        \
	  "verdict",                                                                                 \
	  "gate: closed trades at least")                                                        \
	X(GATE_PSR, "GATE_PSR", "gates.min_psr", SA_KNOB_NUM, 0, 1, "0.95",                          \
	  "verdict",                                                                                 \
	  "gate: Probabilistic Sharpe Ratio at least")                                           \
	X(GATE_DSR, "GATE_DSR", "gates.min_dsr", SA_KNOB_NUM, 0, 1, "0.95",                          \
	  "verdict",                                                                                 \
	  "gate: Deflated Sharpe Ratio at least")                                                \
	X(GATE_MAX_DD, "GATE_MAX_DD", "gates.max_dd", SA_KNOB_NUM, 0, 1, "0.25",                     \
	  "verdict",                                                                                 \
	  "gate: max drawdown of net equity at most (a fraction)")                               \
	X(GATE_PBO, "GATE_PBO", "gates.max_pbo", SA_KNOB_NUM, 0, 1, "0.5",                           \
	  "verdict",                                                                                 \
	  "gate: probability of backtest overfitting below (only with VARIANTS)")                \
	X(GATE_ALPHA_T, "GATE_ALPHA_T", "gates.min_alpha_t", SA_KNOB_NUM, 0, 100, "1.645",            \
	  "verdict",                                                                                 \
	  "gate: HAC t-statistic of the alpha over the instrument at least (one-sided; 1.645 = 5 %)") \
	X(NARRATE_URL, "NARRATE_URL", "narration.url", SA_KNOB_STR, 0, 512, "",                      \
	  "narrate",                                                                                 \
	  "OpenAI-compatible chat endpoint that rewords the summary into narration.json, beside the bundle (key: env LLM_API_KEY)")    \
	X(NARRATE_MODEL, "NARRATE_MODEL", "narration.model", SA_KNOB_STR, 1, 128,                 \
	  "llama-3.3-70b-instruct", "narrate", "the narrator's model")                                      \
	X(STRATEGIES, "STRATEGIES", NULL, SA_KNOB_MAKE, 0, 0, "demos", "",                            \
	  "nightly: the folder of uploads")                                                      \
	X(MAIL_TO, "MAIL_TO", NULL, SA_KNOB_MAKE, 0, 0, "", "", "nightly: where the bundles go")      \
	X(MAIL_FROM, "MAIL_FROM", NULL, SA_KNOB_MAKE, 0, 0, "", "", "nightly: the sender")            \
	X(SMTP_URL, "SMTP_URL", NULL, SA_KNOB_MAKE, 0, 0, "", "", "nightly: smtp:// or smtps:// server") \
	X(FUZZ_S, "FUZZ_S", NULL, SA_KNOB_MAKE, 0, 0, "60", "", "make fuzz: seconds per loader")     \
	X(CALIBRATE_NULL, "CALIBRATE_NULL", NULL, SA_KNOB_MAKE, 0, 0, "100", "",                      \
	  "make calibrate: audits of rules with no edge on data with none (half of them best-of-K)") \
	X(CALIBRATE_BEST_OF, "CALIBRATE_BEST_OF", NULL, SA_KNOB_MAKE, 0, 0, "10", "",                 \
	  "make calibrate: K, the rules a best-of-K null case picks from (TRIALS=K, VARIANTS)")     \
	X(CALIBRATE_SEARCH, "CALIBRATE_SEARCH", NULL, SA_KNOB_MAKE, 0, 0, "100", "",                  \
	  "make calibrate: audits of an undeclared search (the best of CALIBRATE_SEARCH_K rules picked on the bars, TRIALS=1)") \
	X(CALIBRATE_SEARCH_K, "CALIBRATE_SEARCH_K", NULL, SA_KNOB_MAKE, 0, 0, "200", "",              \
	  "make calibrate: the rules an undeclared search picks its best from")                    \
	X(CALIBRATE_WORLDS, "CALIBRATE_WORLDS", NULL, SA_KNOB_MAKE, 0, 0, "30", "",                   \
	  "make calibrate: audits in each world of a bid-ask bounce, stale prices, GARCH with t(4) shocks") \
	X(CALIBRATE_POWER, "CALIBRATE_POWER", NULL, SA_KNOB_MAKE, 0, 0, "3", "",                      \
	  "make calibrate: audits per power cell (an edge strength at a sample size)")             \
	X(CALIBRATE_EDGES, "CALIBRATE_EDGES", NULL, SA_KNOB_MAKE, 0, 0, "0.1,0.2,0.3", "",            \
	  "make calibrate: the power worlds' edges, each a per-trade Sharpe ratio built into the data") \
	X(CALIBRATE_POWER_BARS, "CALIBRATE_POWER_BARS", NULL, SA_KNOB_MAKE, 0, 0, "1500,3000,6000", "", \
	  "make calibrate: the power worlds' sample sizes, in hourly bars")                         \
	X(CALIBRATE_LOOKAHEAD, "CALIBRATE_LOOKAHEAD", NULL, SA_KNOB_MAKE, 0, 0, "2", "",              \
	  "make calibrate: look-ahead cases per family (four leaks, four causal look-alikes)")     \
	X(CALIBRATE_BARS, "CALIBRATE_BARS", NULL, SA_KNOB_MAKE, 0, 0, "3000", "",                     \
	  "make calibrate: hourly bars of each null and look-ahead world")                         \
	X(CALIBRATE_SEED, "CALIBRATE_SEED", NULL, SA_KNOB_MAKE, 0, 0, "1", "",                        \
	  "make calibrate: the seed every world is drawn from")                                    \
	X(CALIBRATE_PERMUTATIONS, "CALIBRATE_PERMUTATIONS", NULL, SA_KNOB_MAKE, 0, 0, "20", "",       \
	  "make calibrate: PERMUTATIONS of each audit (fewer keeps an audit cheap; no stage skipped)") \
	X(CALIBRATE_LOOKAHEAD_MAX, "CALIBRATE_LOOKAHEAD_MAX", NULL, SA_KNOB_MAKE, 0, 0, "100", "",     \
	  "make calibrate: LOOKAHEAD_MAX of the null and power audits (the look-ahead worlds: the default)") \
	X(CALIBRATE_JOBS, "CALIBRATE_JOBS", NULL, SA_KNOB_MAKE, 0, 0, "cores", "",                    \
	  "make calibrate: audits at once (each with SANDBOX_JOBS=1)")                             \
	X(CALIBRATE_DIR, "CALIBRATE_DIR", NULL, SA_KNOB_MAKE, 0, 0, "out/calibrate", "",              \
	  "make calibrate: the folder of cases/ and calibration.json")                             \
	X(CALIBRATE_SUMMARY, "CALIBRATE_SUMMARY", NULL, SA_KNOB_MAKE, 0, 0, "data/calibration.json", "", \
	  "make calibrate: the committed summary the report and README quote (empty: none)")

enum sa_knob_id {
#define SA_KNOB_ENUM(id, ...) SA_K_##id,
	SA_KNOBS(SA_KNOB_ENUM)
#undef SA_KNOB_ENUM
	SA_K_COUNT
};

struct sa_knob {
	const char *make;   /* the make variable */
	const char *path;   /* "key" or "group.key" in config.json; NULL for make-only knobs */
	enum sa_knob_type type;
	double lo, hi;      /* the range; for a string, its length */
	const char *def;    /* the default, as make would be given it */
	const char *readers; /* the stages that read it from config.json, space-separated */
	const char *help;
};

/* The values a string knob may take, space-separated (the empty text is allowed when its
 * shortest length is 0), or NULL when any text of the right length is. */
const char *sa_knob_choices(enum sa_knob_id k);

/* The table, SA_K_COUNT rows in the order above. */
extern const struct sa_knob sa_knobs[SA_K_COUNT];

/* The row whose make variable is name, or NULL. */
const struct sa_knob *sa_knob_by_make(const char *name);

/* Whether s looks like a plain decimal number: an optional sign, digits, a point and an
 * exponent, nothing else. strtod alone would take " 5", "0x10", "inf" and "nan"; every number
 * read from a file or the command line goes through this first. Returns 1 or 0. */
int sa_plain_number(const char *s);

/* Parses text as knob k's value and checks its type and range. Numbers are written without
 * padding or hex (strtod's "0x10" and " 5" are refused). Returns 0 and sets *num (numeric
 * knobs), or -1 with "MAKE 'text' should be ... from lo to hi" in err. */
int sa_knob_parse(enum sa_knob_id k, const char *text, double *num, char *err, size_t errlen);

/* Reads knob k (a numeric one) from a config.json tree (borrowed): the value at its path,
 * checked against its row; the row's default when the path is absent. Returns 0, or -1 with
 * "config.json: path ..." in err. */
int sa_config_num(const struct cJSON *cfg, enum sa_knob_id k, double *out, char *err,
		  size_t errlen);

/* The same for a whole-number knob, into a long long. */
int sa_config_int(const struct cJSON *cfg, enum sa_knob_id k, long long *out, char *err,
		  size_t errlen);

/* The same for a string knob: borrowed from cfg (or the row's default). Returns 0 or -1. */
int sa_config_str(const struct cJSON *cfg, enum sa_knob_id k, const char **out, char *err,
		  size_t errlen);

#endif
