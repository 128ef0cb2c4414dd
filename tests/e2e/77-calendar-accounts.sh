#!/usr/bin/env bash
# 77-calendar-accounts.sh - markets, calendars and logs as people have them: the FX week is fx
# (no funding, weekends no gaps, its own fee and slippage), bars around the clock are spot
# unless a funding column or a -futures name says perpetual, weekly and monthly bars load by
# the calendar, pandas' index is the time, the data's warnings (zero volume, a split, a coarse
# tick) are said with their dates; an account log with stakes is scored as an account whose
# figures match the ones computed here independently (freqtrade's definitions), a log alone
# stands alone, and a log on data that does not cover it is refused with the reason.
. "$(dirname "$0")/../lib.sh"
F=tests/fixtures/calendar

check "make-calendar.py writes the fixtures" "$PY" $F/make-calendar.py "$TMP/cal"
check "make-stake-log.py writes the logs" "$PY" $F/make-stake-log.py "$TMP/cal"
for f in "$TMP"/cal/*; do
	check "$(basename "$f") is what the scripts write" cmp "$f" "$F/$(basename "$f")"
done
"$BIN/config" -o "$TMP/config.json" >/dev/null 2>&1
fp() { "$BIN/fingerprint" --data "$1" --config "$TMP/config.json" -o "$TMP/fp.json" >/dev/null 2>&1; }

fp $F/fx_week.csv
expect_eq "fx: the FX week" "fx week" "$(jget "$TMP/fp.json" data_format.calendar)"
expect_eq "fx: its weekends are no gaps" 0 "$(jget "$TMP/fp.json" data_format.gaps)"
expect_eq "fx: hourly bars" 1h "$(jget "$TMP/fp.json" data_format.bar)"
expect_eq "fx: pandas' unnamed index is the time" true "$(jget "$TMP/fp.json" data_format.pandas_index)"
fp $F/weekly_holiday.csv
expect_eq "weekly: 1w by the calendar" 1w "$(jget "$TMP/fp.json" data_format.bar)"
expect_eq "weekly: a holiday week is no gap" 0 "$(jget "$TMP/fp.json" data_format.gaps)"
fp $F/monthly.csv
expect_eq "monthly: 1M by the calendar" 1M "$(jget "$TMP/fp.json" data_format.bar)"
fp $F/zero_volume_split.csv
case $(jget "$TMP/fp.json" data_format.warnings) in
*"the volume is 0 on every bar"*"the largest on 2024-03-25, -75.0 %"*"likely a split or a bad tick (the file has an Adj Close column: ADJUSTED=1 reads prices adjusted)"*)
	ok "warnings: zero volume, the split named with its date, ADJUSTED=1 suggested" ;;
*) not_ok "warnings: zero volume, the split named with its date, ADJUSTED=1 suggested" "$(jget "$TMP/fp.json" data_format.warnings)" ;;
esac
fp $F/fx_week.csv
expect_eq "no warnings on clean bars" "[]" "$(jget "$TMP/fp.json" data_format.warnings)"

# replay: a long-only run on each file (every bar long but the last), market and costs
replay_on() { # data -> $TMP/rp.json
	local n
	n=$(( $(wc -l <"$1") - 1 ))
	"$PY" -c 'import json, sys; n = int(sys.argv[1]); print(json.dumps({"ok": True, "status": "ok", "n_bars": n, "signals": [1] * (n - 1) + [0]}))' "$n" >"$TMP/run.json"
	"$BIN/replay" --run "$TMP/run.json" --data "$1" --config "$TMP/config.json" -o "$TMP/rp.json" \
		--trades-out "$TMP/t.csv" --equity-out "$TMP/e.csv" >/dev/null 2>&1
}
replay_on $F/fx_week.csv
expect_eq "fx: the market is fx" fx "$(jget "$TMP/rp.json" costs.market)"
expect_eq "fx: its funding is the rollover of the nights held, at the default 100 bp a year / 360" "$(
	"$PY" -c 'import csv, sys; sys.path.insert(0, "tests"); from recompute_curves import rollover_nights, epoch
print(round(sum(rollover_nights(epoch(r["entry_time"]), epoch(r["exit_time"]))
                for r in csv.DictReader(open(sys.argv[1]))) * 100 / 1e4 / 360, 12))' "$TMP/t.csv" 2>/dev/null)" \
	"$("$PY" -c 'import json, sys; print(round(json.load(open(sys.argv[1]))["costs"]["funding"], 12))' "$TMP/rp.json")"
expect_eq "fx: the fx fee" 0 "$(jget "$TMP/rp.json" costs.fee_bps)"
expect_eq "fx: the fx slippage" 0.5 "$(jget "$TMP/rp.json" costs.slippage_bps)"
expect_eq "fx: the defaults named" "fx's defaults, FEE_BPS_FX and SLIPPAGE_BPS_FX" "$(jget "$TMP/rp.json" costs.cost_source)"
replay_on $F/coarse_tick.csv
expect_eq "around the clock, nothing says perpetual: spot" spot "$(jget "$TMP/rp.json" costs.market)"
expect_eq "spot: the spot fee" 10 "$(jget "$TMP/rp.json" costs.fee_bps)"
case $(jget "$TMP/rp.json" costs.price_step_warning) in
"the prices move in steps of 63.3 bp"*"is more than the "*" bp of slippage modelled per side"*) ok "a tick coarser than the slippage is said" ;;
*) not_ok "a tick coarser than the slippage is said" "$(jget "$TMP/rp.json" costs.price_step_warning)" ;;
esac
replay_on $F/funding.csv
case $(jget "$TMP/rp.json" costs.market_reason) in
"perp: the data says it is a perpetual future (a funding column, 'fundingRate')"*) ok "a funding column: perp" ;;
*) not_ok "a funding column: perp" "$(jget "$TMP/rp.json" costs.market_reason)" ;;
esac
replay_on $F/futures_1h-futures.csv
expect_eq "a -futures name: perp" perp "$(jget "$TMP/rp.json" costs.market)"
replay_on $F/weekly_holiday.csv
expect_eq "weekly stock bars: stock" stock "$(jget "$TMP/rp.json" costs.market)"
"$BIN/config" FEE_BPS=3 -o "$TMP/config3.json" >/dev/null 2>&1
"$BIN/replay" --run "$TMP/run.json" --data $F/weekly_holiday.csv --config "$TMP/config3.json" -o "$TMP/rp3.json" \
	--trades-out "$TMP/t3.csv" --equity-out "$TMP/e3.csv" >/dev/null 2>&1
expect_eq "FEE_BPS overrides the market's fee" 3 "$(jget "$TMP/rp3.json" costs.fee_bps)"

# --- account logs ----------------------------------------------------------------------------
log_alone() { # log dir
	mkdir -p "$2"
	"$BIN/replay" --run /dev/null --trades "$1" --config "$TMP/config.json" -o "$2/replay.json" \
		--trades-out "$2/trades.csv" --equity-out "$2/equity.csv" >/dev/null 2>&1
}
check "the freqtrade-shaped stake export replays alone" log_alone $F/stake_log.json "$TMP/acct"
check "the stake CSV replays alone" log_alone $F/stake_log.csv "$TMP/acsv"
"$PY" - "$F/stake_log.json" "$TMP/acct" "$TMP/acsv" <<'PYEOF' >"$TMP/acct.out" 2>&1
import csv, json, sys
export = json.load(open(sys.argv[1]))["strategy"]["StakeTen"]
tr = export["trades"]
def figures(balance):
    by = {}
    for t in tr:
        by[t["close_date"]] = by.get(t["close_date"], 0.0) + t["profit_abs"]
    cum, high, worst, at = 0.0, None, 0.0, 0.0
    curve = []
    for k in sorted(by):
        cum += by[k]
        curve.append(1 + cum / balance)
        high = cum if high is None or cum > high else high
        if cum - high < worst:
            worst, at = cum - high, high
    return cum / balance, -worst / (balance + at), curve
def most_stake():
    ev = sorted([(t["open_date"], 1, t["stake_amount"]) for t in tr] +
                [(t["close_date"], 0, -t["stake_amount"]) for t in tr])
    held = most = 0.0
    for _, _, s in ev:
        held += s
        most = max(most, held)
    return most
bad = 0
for d, balance in ((sys.argv[2], export["starting_balance"]), (sys.argv[3], most_stake())):
    r = json.load(open(d + "/replay.json"))
    profit, dd, curve = figures(balance)
    a = r["account"]
    eq = [float(row["net_equity"]) for row in csv.DictReader(open(d + "/equity.csv"))]
    times = [row["time"] for row in csv.DictReader(open(d + "/equity.csv"))]
    for name, got, want in (("balance", a["starting_balance"], balance), ("profit_total", a["profit_total"], profit),
                            ("max_drawdown_account", a["max_drawdown_account"], dd),
                            ("net_return", r["net_return"], profit), ("final equity", eq[-1], 1 + profit)):
        good = abs(got - want) <= 1e-8 * max(1, abs(want))
        bad |= not good
        print(f"{'ok' if good else 'not ok'} - {d.split('/')[-1]}: {name} {got} = {want}")
    good = times == sorted(set(times)) and len(eq) == len(curve) and all(abs(x - y) < 1e-8 for x, y in zip(eq, curve))
    bad |= not good
    print(f"{'ok' if good else 'not ok'} - {d.split('/')[-1]}: one equity row per close time, balance + realised profit")
print("claimed", export["profit_total"], export["max_drawdown_account"])
sys.exit(bad)
PYEOF
rc=$?
grep '^\(not \)\{0,1\}ok - ' "$TMP/acct.out"
[ "$rc" -eq 0 ] || not_ok "the account figures recomputed" "$(tail -n 3 "$TMP/acct.out")"
expect_eq "the export's own profit_total beside ours" "$(jget "$TMP/acct/replay.json" account.profit_total)" \
	"$(jget "$TMP/acct/replay.json" account.claimed_profit_total)"
expect_eq "the export's own max_drawdown_account beside ours" "$(jget "$TMP/acct/replay.json" account.max_drawdown_account)" \
	"$(jget "$TMP/acct/replay.json" account.claimed_max_drawdown_account)"
expect_eq "the CSV log's balance: the most staked at once" \
	"no starting balance given: the largest sum of stakes open at once" "$(jget "$TMP/acsv/replay.json" account.balance_from)"
expect_eq "a log alone has no bars" 0 "$(jget "$TMP/acct/replay.json" bars)"

# a log on data that does not cover it
"$BIN/replay" --run /dev/null --trades $F/stake_log.json --data $F/fx_week.csv --config "$TMP/config.json" \
	-o "$TMP/cover.json" --trades-out "$TMP/tc.csv" --equity-out "$TMP/ec.csv" >/dev/null 2>&1
expect_eq "uncovered: refused" false "$(jget "$TMP/cover.json" ok)"
expect_eq "uncovered: the reason" "the data (2024-01-07T21:00:00Z to 2024-01-26T21:00:00Z) does not cover the trade log (2024-03-01T00:00:00Z to 2024-03-08T18:00:00Z): give DATA that holds the log's whole span, or leave DATA out to score the log alone" \
	"$(jget "$TMP/cover.json" reason)"

# make audit of the export alone: no benchmark, no rolling charts, no word of the bundled data
N=e2e-stake-alone
rm -rf "out/$N"
check "make audit TRADES=stake_log.json alone exits 0" make --no-print-directory audit TRADES=$F/stake_log.json NAME=$N
expect_eq "alone: no benchmark" null "$(jget "out/$N/stats.json" benchmark)"
expect_no_match "alone: no rolling charts in the report" "out/$N/report.html" "Did the edge last"
expect_no_match "alone: no word of the bundled data" "out/$N/verdict.json" "bundled synthetic"
check "alone: recompute.py agrees, the account figures too" "$PY" tests/recompute.py "out/$N"
grep -q "Scored as an account: balance 1000" "out/$N/report.html" && ok "alone: the report states the account" ||
	not_ok "alone: the report states the account"
finish
