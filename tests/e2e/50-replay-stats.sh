#!/usr/bin/env bash
# 50-replay-stats.sh - replay and stats end to end: the five-bar hand-checked series, hostile
# run.json, trade-log and reconciliation modes, the live decisions scored beside the backtest
# (and a hostile lookahead.json), reproducibility, and agreement with an independent numpy
# replay on the synthetic data.
. "$(dirname "$0")/../lib.sh"
F=tests/fixtures/replay

replay() { "$BIN/replay" "$@"; }
stats() { "$BIN/stats" "$@"; }
# run_pair DIR RUN [extra replay args...]: replay then stats into DIR.
run_pair() {
	local d=$1 run=$2; shift 2
	mkdir -p "$d"
	replay --run "$run" --data "$DATA" --config "$CFG" -o "$d/replay.json" \
		--trades-out "$d/trades.csv" --equity-out "$d/equity.csv" "$@" &&
	stats --replay "$d/replay.json" --config "$CFG" -o "$d/stats.json"
}
# near A B: equal within 1e-8 relative (outputs carry 10 significant digits), or both null.
near() {
	"$PY" -c 'import sys
a, b = sys.argv[1:]
sys.exit(not (a == b == "null" or "null" not in (a, b) and abs(float(a) - float(b)) <= 1e-8 * max(1, abs(float(b)))))' "$@"
}

DATA=$F/five_bars.csv CFG=$F/config.json
check "replay and stats run on the five-bar series" run_pair "$TMP/a" $F/run.json
expect_eq "replay says ok" true "$(jget "$TMP/a/replay.json" ok)"
expect_eq "two trades (a long, then a flip to short)" 2 "$(jget "$TMP/a/replay.json" trades)"
expect_eq "four units traded (the flip counts two)" 4 "$(jget "$TMP/a/replay.json" units_traded)"
expect_eq "the long pays the 08:00 funding" \
	"2024-01-01T07:00:00Z,2024-01-01T09:00:00Z,long,102,101,2,-0.009803921569,0.001,0.0004,0.0001,0,-0.01130392157,0,signal,," \
	"$(sed -n 2p "$TMP/a/trades.csv")"
expect_eq "the short is closed at the last close and flagged" \
	"2024-01-01T09:00:00Z,2024-01-01T11:00:00Z,short,101,98,2,0.0297029703,0.001,0.0004,0,0,0.0283029703,1,end,," \
	"$(sed -n 3p "$TMP/a/trades.csv")"
# compounded: (101/102) x (1 + 1 - 98/101) gross, (1 - 0.0113039) x (1 + 0.0283030) net
expect_eq "net equity ends at the product of (1 + net return)" \
	"2024-01-01T10:00:00Z,-1,1.019607843,1.016679114" "$(tail -n 1 "$TMP/a/equity.csv")"
expect_eq "net_return is the last equity - 1" 0.01667911417 "$(jget "$TMP/a/replay.json" net_return)"
expect_eq "sum_net_return is the plain sum" 0.01699904873 "$(jget "$TMP/a/replay.json" sum_net_return)"
expect_eq "not ruined" false "$(jget "$TMP/a/stats.json" ruined)"
expect_eq "total costs by hand: 14 bps x 2 + 1 bp funding" 0.0029 "$(jget "$TMP/a/replay.json" costs.total)"
expect_eq "open position at the end is reported" true "$(jget "$TMP/a/replay.json" open_at_end)"
expect_eq "stats counts two trades" 2 "$(jget "$TMP/a/stats.json" trades)"
expect_eq "win rate one in two" 0.5 "$(jget "$TMP/a/stats.json" win_rate)"
expect_eq "no deflation with one trial" 0 "$(jget "$TMP/a/stats.json" sr0)"
expect_eq "cost sensitivity at 0x is the gross compounded" 0.01960784314 \
	"$(jget "$TMP/a/stats.json" cost_sensitivity.0.net_return)"
expect_eq "without the prices the cost rows rescale the 1x trades" rescaled "$(jget "$TMP/a/stats.json" cost_basis)"
stats --replay "$TMP/a/replay.json" --config "$CFG" --data "$DATA" --run $F/run.json -o "$TMP/a/stats-replayed.json"
expect_eq "with the prices and the signals they are replayed" replayed "$(jget "$TMP/a/stats-replayed.json" cost_basis)"
# no mark comes near zero here, so a replay at k times the costs is the rescaled trades
for k in 0 2 3; do
	check "${k}x replayed equals ${k}x rescaled on a path far from ruin" near \
		"$(jget "$TMP/a/stats-replayed.json" cost_sensitivity.$k.net_return)" \
		"$(jget "$TMP/a/stats.json" cost_sensitivity.$k.net_return)"
done
# by hand: (1 + g1 - k c1)(1 + g2 - k c2) = 1, with g1 = 101/102 - 1, c1 = 15 bp (fees, slippage,
# one funding instant) and g2 = 1 - 98/101, c2 = 14 bp: the smaller root, k = 6.72258566
check "the break-even by hand, within its tolerance" near \
	"$(jget "$TMP/a/stats-replayed.json" breakeven_cost_multiple)" 6.722585659

check "same inputs give byte-identical files" run_pair "$TMP/b" $F/run.json
check "replay.json identical" cmp "$TMP/a/replay.json" "$TMP/b/replay.json"
check "trades.csv and equity.csv identical" cmp "$TMP/a/equity.csv" "$TMP/b/equity.csv"
check "stats.json identical" cmp "$TMP/a/stats.json" "$TMP/b/stats.json"

# Hostile or failed run.json: a reason, exit 0, every output still written.
printf '{"ok":true,"status":"ok","n_bars":5,"signals":[1,1,2,-1,0]}' >"$TMP/bad.json"
check "a signal of 2 still exits 0" run_pair "$TMP/c" "$TMP/bad.json"
expect_eq "a signal of 2 is refused" false "$(jget "$TMP/c/replay.json" ok)"
expect_eq "and says which" "nothing to replay: run.json signal 2 is not -1, 0 or 1" \
	"$(jget "$TMP/c/replay.json" reason)"
expect_eq "trades.csv holds the header only" 1 "$(wc -l <"$TMP/c/trades.csv")"
expect_eq "stats passes the reason on" false "$(jget "$TMP/c/stats.json" ok)"
printf '{"ok":true,"status":"ok","n_bars":4,"signals":[1,1,-1,0]}' >"$TMP/short.json"
run_pair "$TMP/d" "$TMP/short.json" >/dev/null 2>&1
expect_eq "a length mismatch is refused" "nothing to replay: run.json n_bars is 4 but the data has 5 bars" \
	"$(jget "$TMP/d/replay.json" reason)"
printf '{"ok":false,"status":"killed_cpu","n_bars":5}' >"$TMP/killed.json"

# A killed run with a trade log: the log is audited, its returns trusted and said to be.
check "trade log audited when the run was killed" run_pair "$TMP/e" "$TMP/killed.json" \
	--trades $F/tradelog_inflated.csv
expect_eq "mode is tradelog" tradelog "$(jget "$TMP/e/replay.json" mode)"
expect_eq "returns marked trusted" true "$(jget "$TMP/e/stats.json" trusted_returns)"
expect_eq "the killed run is named" \
	"the strategy run did not finish cleanly (status 'killed_cpu'); no signals to replay" \
	"$(jget "$TMP/e/replay.json" signals_error)"
expect_eq "claimed total as given" 0.051 "$(jget "$TMP/e/stats.json" sum_net_return)"
# exits 07:00, 09:00, 11:00, each claim on the equity at its entry: 1.012, x 1.004, x 1.035
expect_eq "claimed returns compounded" 0.05160968 "$(jget "$TMP/e/stats.json" net_return)"

# Both uploaded: the inflated log does not reconcile, the honest one does.
check "both uploaded, inflated log" run_pair "$TMP/f" $F/run.json --trades $F/tradelog_inflated.csv
expect_eq "mode is both" both "$(jget "$TMP/f/replay.json" mode)"
expect_eq "inflated log is not consistent" false "$(jget "$TMP/f/replay.json" reconcile.consistent)"
expect_eq "two of three claimed trades match" 2 "$(jget "$TMP/f/replay.json" reconcile.matched)"
expect_eq "the 06:00 long is a trade the code never made" 1 "$(jget "$TMP/f/replay.json" reconcile.claimed_only)"
expect_eq "the numbers support the replay" replay "$(jget "$TMP/f/replay.json" reconcile.supported_by_numbers)"
expect_eq "stats use the replay, not the claims" false "$(jget "$TMP/f/stats.json" trusted_returns)"
check "both uploaded, honest log" run_pair "$TMP/g" $F/run.json --trades $F/tradelog_honest.csv
expect_eq "honest log is consistent" true "$(jget "$TMP/g/replay.json" reconcile.consistent)"

# The live decisions (lookahead.json live.signals, each bar decided with only the bars up to it)
# are scored; run.json's full-history backtest is replayed beside them with the same costs.
# live_file FILE SIGNALS...: a lookahead.json whose live object holds those decisions.
live_file() {
	local f=$1; shift
	"$PY" - "$f" "$@" <<'PYEOF'
import json, sys
sig = [int(x) for x in sys.argv[2:]]
json.dump({"stage": "lookahead", "schema": 1, "ok": True, "clean": True,
           "live": {"ok": True, "reason": None, "bars": len(sig), "decided": len(sig), "complete": True,
                    "window": 1024, "differing": 1, "confirmed_leaks": 0, "memory_mismatches": 0,
                    "first_differences": [], "sample": None, "signals": sig}}, open(sys.argv[1], "w"))
PYEOF
}
live_file "$TMP/la.json" 1 0 -1 -1 0
check "replay scores the live decisions" run_pair "$TMP/l" $F/run.json --lookahead "$TMP/la.json" \
	--backtest-equity-out "$TMP/l/backtest_equity.csv"
expect_eq "replay.json says the live decisions were scored" "live null" \
	"$(jget "$TMP/l/replay.json" scored) $(jget "$TMP/l/replay.json" scored_reason)"
# bar 1 decided flat live: the long exits at bar 2's open (104) instead of flipping at 101
expect_eq "the live long exits at 104, before the 08:00 funding" \
	"2024-01-01T07:00:00Z,2024-01-01T08:00:00Z,long,102,104,1,0.01960784314,0.001,0.0004,0,0,0.01820784314,0,signal,," \
	"$(sed -n 2p "$TMP/l/trades.csv")"
# (1 + 0.0182078431) x (1 + 0.0283029703) by hand
expect_eq "net_return is the live decisions'" 0.04702614948 "$(jget "$TMP/l/replay.json" net_return)"
check "backtest_equity.csv is the backtest's replay, byte for byte" cmp "$TMP/a/equity.csv" "$TMP/l/backtest_equity.csv"
expect_eq "backtest: its trades, net and gross returns" "2 0.01667911417 0.01960784314" \
	"$(jget "$TMP/l/replay.json" backtest.trades) $(jget "$TMP/l/replay.json" backtest.net_return) $(jget "$TMP/l/replay.json" backtest.gross_return)"
expect_eq "live_vs_backtest: one bar differs, the difference is backtest less live" \
	"1 0.04702614948 0.01667911417 -0.03034703531" \
	"$(for k in differing_bars net_return_live net_return_backtest difference; do jget "$TMP/l/replay.json" live_vs_backtest.$k; done | tr '\n' ' ' | sed 's/ $//')"
expect_eq "stats score the live decisions too" "live 0.047026149" \
	"$(jget "$TMP/l/stats.json" scored) $(jget "$TMP/l/stats.json" net_return)"
stats --replay "$TMP/l/replay.json" --config "$CFG" --data "$DATA" --run $F/run.json \
	--lookahead "$TMP/la.json" -o "$TMP/l/stats-replayed.json"
expect_eq "the late fills and cost multiples replay the live decisions, not run.json's" \
	"replayed 0.047026149 0.047026149" \
	"$(jget "$TMP/l/stats-replayed.json" cost_basis) $(jget "$TMP/l/stats-replayed.json" delay_sensitivity.0.net_return) $(jget "$TMP/l/stats-replayed.json" cost_sensitivity.1.net_return)"
stats --replay "$TMP/l/replay.json" --config "$CFG" --data "$DATA" --run $F/run.json -o "$TMP/l/stats-nola.json"
expect_eq "without lookahead.json the stats do not replay run.json's signals in their place" \
	"null replay.json scored the live decisions, and no lookahead.json was given to replay them again" \
	"$(jget "$TMP/l/stats-nola.json" delay_sensitivity) $(jget "$TMP/l/stats-nola.json" delay_note)"
cp "$DATA" "$TMP/l/five.csv" && cp $F/run.json "$TMP/l/run.json" && cp "$TMP/la.json" "$TMP/l/lookahead.json"
check "recompute.py: the live figures and the backtest from backtest_equity.csv, the reruns from live.signals" \
	"$PY" tests/recompute.py "$TMP/l"
# The check fails when the backtest's curve is not the backtest's.
cp -r "$TMP/l" "$TMP/l2" && cp "$TMP/l/equity.csv" "$TMP/l2/backtest_equity.csv"
if "$PY" tests/recompute.py "$TMP/l2" >"$TMP/l2.out" 2>&1; then
	not_ok "recompute.py fails when backtest_equity.csv holds the live curve"
else
	ok "recompute.py fails when backtest_equity.csv holds the live curve ($(grep -c MISMATCH "$TMP/l2.out") mismatches)"
fi

# No usable live object: the backtest is scored, and replay.json says why.
printf '{"stage":"lookahead","schema":1,"ok":true,"clean":true}' >"$TMP/nolive.json"
check "replay without a live object" run_pair "$TMP/n" $F/run.json --lookahead "$TMP/nolive.json" \
	--backtest-equity-out "$TMP/n/backtest_equity.csv"
expect_eq "the backtest is scored, and why" "backtest lookahead.json has no live object: no bar was decided live" \
	"$(jget "$TMP/n/replay.json" scored) $(jget "$TMP/n/replay.json" scored_reason)"
check "then backtest_equity.csv is equity.csv" cmp "$TMP/n/equity.csv" "$TMP/n/backtest_equity.csv"
printf '{"stage":"lookahead","schema":1,"ok":true,"live":{"ok":false,"reason":"the bot answered twice"}}' >"$TMP/deadlive.json"
run_pair "$TMP/n2" $F/run.json --lookahead "$TMP/deadlive.json" --backtest-equity-out "$TMP/n2/bt.csv" >/dev/null 2>&1
expect_eq "a live replay that could not run: the backtest is scored, its reason quoted" \
	"the live replay could not run (lookahead.json live.reason: the bot answered twice)" \
	"$(jget "$TMP/n2/replay.json" scored_reason)"

# A malformed live object is an error naming the file and the field, never a quiet default.
bad_live() { # what json reason
	printf '%s' "$2" >"$TMP/badla.json"
	rm -rf "$TMP/b"
	check "$1: still exits 0" run_pair "$TMP/b" $F/run.json --lookahead "$TMP/badla.json" \
		--backtest-equity-out "$TMP/b/backtest_equity.csv"
	expect_eq "$1: the replay fails and says why" "false the live decisions cannot be scored: $3" \
		"$(jget "$TMP/b/replay.json" ok) $(jget "$TMP/b/replay.json" reason)"
	expect_eq "$1: every curve holds its header alone" "1 1" \
		"$(wc -l <"$TMP/b/equity.csv") $(wc -l <"$TMP/b/backtest_equity.csv")"
}
bad_live "four decisions for five bars" '{"ok":true,"live":{"ok":true,"signals":[1,0,-1,-1]}}' \
	"lookahead.json live.signals holds 4 values for 5 bars of data; one per bar is needed"
bad_live "a decision of 2" '{"ok":true,"live":{"ok":true,"signals":[1,0,2,-1,0]}}' \
	"lookahead.json live.signals value 2 is not -1, 0 or 1"
bad_live "live.ok not a boolean" '{"ok":true,"live":{"ok":"yes","signals":[1,0,-1,-1,0]}}' \
	"lookahead.json live.ok is not true or false"
bad_live "live not an object" '{"ok":true,"live":[1,0,-1,-1,0]}' "lookahead.json live is not an object"
rm -f "$TMP/badla.json"
run_pair "$TMP/b2" $F/run.json --lookahead "$TMP/badla.json" --backtest-equity-out "$TMP/b2/bt.csv" >/dev/null 2>&1
case $(jget "$TMP/b2/replay.json" reason) in
"the live decisions cannot be scored: lookahead.json: "*) ok "a missing lookahead.json fails the replay, naming it" ;;
*) not_ok "a missing lookahead.json fails the replay, naming it" "$(jget "$TMP/b2/replay.json" reason)" ;;
esac
replay --run $F/run.json --data "$DATA" --config "$CFG" -o "$TMP/u.json" --trades-out "$TMP/u.csv" \
	--equity-out "$TMP/ue.csv" --lookahead "$TMP/la.json" >/dev/null 2>&1
expect_eq "--lookahead without --backtest-equity-out is a usage error" 2 $?

stats --replay "$TMP/a/replay.json" --config "$CFG" --trades "$TMP/e/trades.csv" -o "$TMP/mix.json"
expect_eq "a trades.csv from another replay is refused" \
	"trades.csv holds 3 trades but replay.json says 2: the files are not from the same replay" \
	"$(jget "$TMP/mix.json" reason)"

# TRIALS = 0 is a clear error, not a number.
sed 's/"trials": 1/"trials": 0/' $F/config.json >"$TMP/cfg0.json"
stats --replay "$TMP/a/replay.json" --config "$TMP/cfg0.json" -o "$TMP/s0.json"
expect_eq "trials 0 gives ok false" false "$(jget "$TMP/s0.json" ok)"
case $(jget "$TMP/s0.json" reason) in *"trials must be a whole number from 1 to 1000000 (TRIALS)"*) ok "and says why" ;;
	*) not_ok "and says why" "$(jget "$TMP/s0.json" reason)" ;; esac

# The command line.
check "replay --help exits 0" replay --help
check "stats --help exits 0" stats --help
replay --run x >/dev/null 2>&1
expect_eq "replay without its arguments exits 2" 2 $?
stats --bogus >/dev/null 2>&1
expect_eq "stats with an unknown option exits 2" 2 $?
replay --run $F/run.json --data "$DATA" --config "$CFG" -o /nonexistent/dir/r.json \
	--trades-out "$TMP/t.csv" --equity-out "$TMP/e.csv" 2>/dev/null
expect_eq "replay that cannot write exits 3" 3 $?

# The synthetic series against the independent numpy replay.
if [ -f data/ohlcv.csv ]; then
	DATA=data/ohlcv.csv CFG="$TMP/cfg10.json"
	sed 's/"trials": 1/"trials": 10/' $F/config.json >"$CFG"
	"$PY" - "$DATA" "$TMP/ma.json" <<'PYEOF'
import json, sys
import pandas as pd
c = pd.read_csv(sys.argv[1])["close"]
f, s = c.rolling(24).mean(), c.rolling(96).mean()
sig = [0 if pd.isna(b) else (1 if a > b else -1) for a, b in zip(f, s)]
json.dump({"stage": "sandbox", "schema": 1, "ok": True, "status": "ok", "n_bars": len(sig), "signals": sig},
          open(sys.argv[2], "w"))
PYEOF
	check "replay and stats on the synthetic series" run_pair "$TMP/h" "$TMP/ma.json"
	check "the numpy replay runs" sh -c "'$PY' tests/bench/replay_ref.py '$DATA' '$TMP/ma.json' 5 2 1 10 >'$TMP/ref.json'"
	ref_trades=$(jget "$TMP/ref.json" trades 2>/dev/null)
	case $ref_trades in
	'' | *[!0-9]* | 0) not_ok "numpy finds trades to compare" "got '$ref_trades'" ;;
	*) expect_eq "same trade count as numpy" "$ref_trades" "$(jget "$TMP/h/stats.json" trades)" ;;
	esac
	# the reference counts every trade as independent, as the papers do: the _iid figures
	for k in net_return gross_return sharpe skew kurtosis psr dsr sr0 min_trl max_drawdown \
		sharpe_annualised; do
		case $k in psr | dsr | sr0 | min_trl) c=$(jget "$TMP/h/stats.json" ${k}_iid) ;;
		sharpe_annualised) c=$(jget "$TMP/h/stats.json" sharpe_annualised.value) ;;
		*) c=$(jget "$TMP/h/stats.json" $k) ;; esac
		r=$(jget "$TMP/ref.json" $k)
		check "$k agrees with numpy ($c vs $r)" near "$c" "$r"
	done
	check "the dependence-aware PSR, DSR and MinTRL and the concentration recomputed" \
		"$PY" tests/recompute.py "$TMP/h"
	# The same series with every 97th decision flat live: the statistics and every replayed
	# row are the live decisions', the backtest beside them, each recomputed from the files.
	"$PY" - "$TMP/ma.json" "$TMP/ma-live.json" <<'PYEOF'
import json, sys
run = json.load(open(sys.argv[1]))
live = [0 if i % 97 == 50 else s for i, s in enumerate(run["signals"])]
json.dump({"stage": "lookahead", "schema": 1, "ok": True, "clean": True,
           "live": {"ok": True, "bars": len(live), "decided": len(live), "complete": True,
                    "differing": sum(a != b for a, b in zip(live, run["signals"])),
                    "confirmed_leaks": 0, "memory_mismatches": 0, "first_differences": [],
                    "sample": None, "signals": live}}, open(sys.argv[2], "w"))
PYEOF
	mkdir -p "$TMP/hl" && cp "$TMP/ma.json" "$TMP/hl/run.json" && cp "$TMP/ma-live.json" "$TMP/hl/lookahead.json"
	replay --run "$TMP/hl/run.json" --data "$DATA" --config "$CFG" -o "$TMP/hl/replay.json" \
		--trades-out "$TMP/hl/trades.csv" --equity-out "$TMP/hl/equity.csv" \
		--lookahead "$TMP/hl/lookahead.json" --backtest-equity-out "$TMP/hl/backtest_equity.csv"
	stats --replay "$TMP/hl/replay.json" --config "$CFG" --data "$DATA" --run "$TMP/hl/run.json" \
		--lookahead "$TMP/hl/lookahead.json" -o "$TMP/hl/stats.json"
	expect_eq "the live decisions differ on some bars, and the difference is not zero" true \
		"$("$PY" -c 'import json,sys; d = json.load(open(sys.argv[1]))["live_vs_backtest"]; print(str(d["differing_bars"] > 50 and d["difference"] != 0).lower())' "$TMP/hl/replay.json")"
	check "recompute.py with DATA: the live decisions replayed, the backtest replayed from run.json" \
		"$PY" tests/recompute.py "$TMP/hl" "$DATA"
	# and it fails when the statistics replayed the backtest's signals instead
	cp -r "$TMP/hl" "$TMP/hb"
	"$PY" - "$TMP/hb" <<'PYEOF'
import json, sys
d = sys.argv[1]
la = json.load(open(d + "/lookahead.json"))
la["live"]["signals"] = json.load(open(d + "/run.json"))["signals"]
json.dump(la, open(d + "/la-backtest.json", "w"))
PYEOF
	stats --replay "$TMP/hb/replay.json" --config "$CFG" --data "$DATA" --run "$TMP/hb/run.json" \
		--lookahead "$TMP/hb/la-backtest.json" -o "$TMP/hb/stats.json"
	if "$PY" tests/recompute.py "$TMP/hb" "$DATA" >"$TMP/hb.out" 2>&1; then
		not_ok "recompute.py fails when the replayed rows are not the scored decisions'"
	else
		ok "recompute.py fails when the replayed rows are not the scored decisions' ($(grep -c MISMATCH "$TMP/hb.out") mismatches)"
	fi
else
	not_ok "the numpy comparison runs: data/ohlcv.csv is missing (make data/ohlcv.csv)"
fi
finish
