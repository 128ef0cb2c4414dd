#!/usr/bin/env bash
# 15-data-formats.sh - every OHLCV layout in tests/data-formats/ is what make-layouts.py writes
# from bars.csv, and each one, run through the sandbox, replay and stats, gives byte-identical
# signals and statistics; every broken file is refused by fingerprint with its written error.
. "$(dirname "$0")/../lib.sh"
D=tests/data-formats

check "make-layouts.py writes the layouts" "$PY" $D/make-layouts.py $D/bars.csv "$TMP/layouts"
for f in $D/layouts/*; do
	check "$(basename "$f") is what make-layouts.py writes" cmp "$f" "$TMP/layouts/$(basename "$f")"
done

"$BIN/config" LOOKAHEAD_MAX=10 -o "$TMP/config.json" >/dev/null 2>&1
# audit DIR DATA: sandbox, replay and stats of a strategy using every field and the time
audit() {
	mkdir -p "$1"
	"$BIN/sandbox" --strategy $D/strategy.py --data "$2" --config "$TMP/config.json" --jobs 1 \
		-o "$1/run.json" --events "$1/events.jsonl" >/dev/null 2>&1 &&
	"$BIN/replay" --run "$1/run.json" --data "$2" --config "$TMP/config.json" -o "$1/replay.json" \
		--trades-out "$1/trades.csv" --equity-out "$1/equity.csv" >/dev/null 2>&1 &&
	"$BIN/stats" --replay "$1/replay.json" --config "$TMP/config.json" -o "$1/stats.json" >/dev/null 2>&1
}
signals() { "$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["signals"])' "$1"; }

check "the native layout audits" audit "$TMP/native" $D/layouts/native.csv
expect_eq "the native run is ok" true "$(jget "$TMP/native/run.json" ok)"
held=$("$PY" -c 'import json, sys; print(sum(map(abs, json.load(open(sys.argv[1]))["signals"])))' "$TMP/native/run.json")
[ "${held:-0}" -gt 100 ] && ok "the strategy holds positions on most bars ($held)" ||
	not_ok "the strategy holds positions on most bars" "$held"
[ "$(wc -l <"$TMP/native/trades.csv")" -gt 20 ] && ok "the native run trades" || not_ok "the native run trades"
for f in $D/layouts/*; do
	n=$(basename "$f")
	[ "$n" = native.csv ] && continue
	check "$n audits" audit "$TMP/$n" "$f"
	expect_eq "$n: the same signals as native.csv" "$(signals "$TMP/native/run.json")" \
		"$(signals "$TMP/$n/run.json")"
	check "$n: byte-identical trades" cmp "$TMP/native/trades.csv" "$TMP/$n/trades.csv"
	check "$n: byte-identical stats.json" cmp "$TMP/native/stats.json" "$TMP/$n/stats.json"
done

# what fingerprint.json records
fp() { "$BIN/fingerprint" --data "$1" --config "$TMP/config.json" -o "$TMP/fp.json" >/dev/null 2>&1; }
fp $D/layouts/binance-klines.csv.gz
expect_eq "klines: the layout is recorded" "headerless klines" "$(jget "$TMP/fp.json" data_format.layout)"
expect_eq "klines: gzip is recorded" true "$(jget "$TMP/fp.json" data_format.gzip)"
expect_eq "klines: epoch milliseconds" "epoch milliseconds" "$(jget "$TMP/fp.json" data_format.time_form)"
fp $D/layouts/yahoo.csv
expect_eq "yahoo: the Adj Close column is named" "Adj Close" "$(jget "$TMP/fp.json" data_format.columns.adj_close)"
expect_eq "yahoo: unadjusted by default" false "$(jget "$TMP/fp.json" data_format.adjusted)"
expect_eq "yahoo: one day apart" 86400 "$(jget "$TMP/fp.json" data_format.spacing_s)"
fp $D/layouts/metatrader4.csv
expect_eq "metatrader4: read by its shape" "headerless MetaTrader rows" "$(jget "$TMP/fp.json" data_format.layout)"
expect_eq "metatrader4: date and time joined" true "$(jget "$TMP/fp.json" data_format.joined)"
expect_eq "metatrader4: dotted dates" "dotted date (yyyy.mm.dd)" "$(jget "$TMP/fp.json" data_format.time_form)"
fp $D/layouts/metatrader5.csv
expect_eq "metatrader5: the time of day's column is named" "<TIME>" "$(jget "$TMP/fp.json" data_format.columns.time_of_day)"
expect_eq "metatrader5: <VOL> over <TICKVOL>" "<TICKVOL>" "$(jget "$TMP/fp.json" data_format.volume_left)"
fp $D/layouts/dukascopy.csv
expect_eq "dukascopy: day first" "day-first dotted date (dd.mm.yyyy)" "$(jget "$TMP/fp.json" data_format.time_form)"
fp $D/layouts/cryptodatadownload.csv
expect_eq "cryptodatadownload: the URL line is skipped and said" "https://www.CryptoDataDownload.com" "$(jget "$TMP/fp.json" data_format.skipped_line)"
expect_eq "cryptodatadownload: newest first, reversed" true "$(jget "$TMP/fp.json" data_format.reversed)"
expect_eq "cryptodatadownload: the base asset's volume" "Volume BTC" "$(jget "$TMP/fp.json" data_format.columns.volume)"
expect_eq "cryptodatadownload: the first bar in time" 2023-01-02T00:00:00Z "$(jget "$TMP/fp.json" data_first)"
fp $D/layouts/freqtrade.json.gz
expect_eq "freqtrade json: the layout is recorded" "freqtrade json" "$(jget "$TMP/fp.json" data_format.layout)"
expect_eq "freqtrade json: gzip is recorded" true "$(jget "$TMP/fp.json" data_format.gzip)"
for f in freqtrade.feather freqtrade-zstd.feather freqtrade-plain.feather; do
	fp $D/layouts/$f
	expect_eq "$f: read as freqtrade's feather, its columns named" "freqtrade feather date close 300" \
		"$(jget "$TMP/fp.json" data_format.layout) $(jget "$TMP/fp.json" data_format.columns.time) $(jget "$TMP/fp.json" data_format.columns.close) $(jget "$TMP/fp.json" data_format.bars)"
done
fp $D/layouts/yfinance.csv
expect_eq "yfinance: three header rows, the time column named by the third" "header 3 Date" \
	"$(jget "$TMP/fp.json" data_format.layout) $(jget "$TMP/fp.json" data_format.header_rows) $(jget "$TMP/fp.json" data_format.columns.time)"
# freqtrade's own files (its tests/testdata): the same candles as feather (LZ4) and as json.gz
F=$D/freqtrade
fp $F/XRP_USDT_USDT-1h-futures.feather
expect_eq "freqtrade's feather: 100 hourly bars, a perpetual by its name" \
	"freqtrade feather 100 1h 2021-11-17T01:00:00Z true" \
	"$(jget "$TMP/fp.json" data_format.layout) $(jget "$TMP/fp.json" data_format.bars) $(jget "$TMP/fp.json" data_format.bar) $(jget "$TMP/fp.json" data_format.first) $(jget "$TMP/fp.json" data_format.volume)"
check "freqtrade's feather audits" audit "$TMP/ft-feather" $F/XRP_USDT_USDT-1h-futures.feather
check "freqtrade's json.gz of the same candles audits" audit "$TMP/ft-json" $F/XRP_USDT_USDT-1h-futures.json.gz
expect_eq "freqtrade's feather: the same signals as its json.gz" "$(signals "$TMP/ft-json/run.json")" \
	"$(signals "$TMP/ft-feather/run.json")"
check "freqtrade's feather: byte-identical trades to its json.gz" cmp "$TMP/ft-json/trades.csv" "$TMP/ft-feather/trades.csv"
check "freqtrade's feather: byte-identical stats.json to its json.gz" cmp "$TMP/ft-json/stats.json" "$TMP/ft-feather/stats.json"
fp $F/UNITTEST_USDT_USDT-1h-mark.feather
expect_eq "freqtrade's mark candles: read, their volume (all missing) as none" "true false 100" \
	"$(jget "$TMP/fp.json" ok) $(jget "$TMP/fp.json" data_format.volume) $(jget "$TMP/fp.json" data_format.bars)"

fp $D/layouts/native.csv
expect_eq "native: nothing skipped, nothing reversed" "null false" \
	"$(jget "$TMP/fp.json" data_format.skipped_line) $(jget "$TMP/fp.json" data_format.reversed)"
fp $D/layouts/no-volume.csv
expect_eq "no volume is recorded" false "$(jget "$TMP/fp.json" data_format.volume)"
"$BIN/config" ADJUSTED=1 -o "$TMP/adj.json" >/dev/null 2>&1
"$BIN/fingerprint" --data $D/layouts/yahoo.csv --config "$TMP/adj.json" -o "$TMP/fp.json" >/dev/null 2>&1
expect_eq "ADJUSTED=1 is recorded" true "$(jget "$TMP/fp.json" data_format.adjusted)"
"$BIN/fingerprint" --data $D/layouts/native.csv --config "$TMP/adj.json" -o "$TMP/fp.json" >/dev/null 2>&1
expect_eq "ADJUSTED=1 without Adj Close is refused" \
	"line 1: ADJUSTED=1 but the header has no 'Adj Close' column" "$(jget "$TMP/fp.json" reason)"

# trade logs: every layout of the same trades is recorded as itself and replays the same
"$BIN/config" 'TRADES_COLUMNS=entry=opened,exit=closed,side=direction,return=pnl_pct%' -o "$TMP/map.json" >/dev/null 2>&1
check "make-trades.py writes the trade logs" "$PY" $D/make-trades.py "$TMP/trades"
# replay_log DIR LOG [CONFIG]: replay of a trade log alone (no strategy ran) on the native bars
"$BIN/sandbox" --data $D/layouts/native.csv --config "$TMP/config.json" -o "$TMP/not-run.json" \
	--events "$TMP/not-run.jsonl" >/dev/null 2>&1
replay_log() {
	mkdir -p "$1"
	"$BIN/replay" --run "$TMP/not-run.json" --trades "$2" --data $D/layouts/native.csv --config "${3:-$TMP/config.json}" \
		-o "$1/replay.json" --trades-out "$1/trades.csv" --equity-out "$1/equity.csv" >/dev/null 2>&1
}
replay_log "$TMP/tl-native" $D/trades/native.csv
expect_eq "native trade log: 5 trades replayed" 5 "$(jget "$TMP/tl-native/replay.json" trades)"
check "a trade log replays" test "$(wc -l <"$TMP/tl-native/trades.csv")" -eq 6
while read -r file format; do
	cfg=$TMP/config.json
	[ "$file" = generic.csv ] && cfg=$TMP/map.json
	check "trades/$file is what make-trades.py writes" cmp "$D/trades/$file" "$TMP/trades/$file"
	"$BIN/inspect" --trades "$D/trades/$file" --config "$cfg" -o "$TMP/in.json" >/dev/null 2>&1
	expect_eq "trades/$file: read as $format" "$format" "$(jget "$TMP/in.json" tradelog.format)"
	expect_eq "trades/$file: 5 closed trades" 5 "$(jget "$TMP/in.json" tradelog.rows)"
	replay_log "$TMP/tl-$file" "$D/trades/$file" "$cfg"
	check "trades/$file: the same replayed trades as native.csv" cmp "$TMP/tl-native/trades.csv" "$TMP/tl-$file/trades.csv"
done <<'LAYOUTS'
freqtrade.json freqtrade json
freqtrade.csv freqtrade csv
tradingview.csv tradingview
generic.csv column map
LAYOUTS

# the report's Data section says what the loader did with CryptoDataDownload's file
rm -rf out/e2e15_cdd
check "an audit on CryptoDataDownload's file exits 0" make --no-print-directory audit \
	STRATEGY=$D/strategy.py DATA=$D/layouts/cryptodatadownload.csv NAME=e2e15_cdd LOOKAHEAD_MAX=5
for said in "rows were newest first; read in time order" \
	"the first line, no part of the table: <code>https://www.CryptoDataDownload.com</code>" \
	"from &#39;Volume BTC&#39;, the base asset&#39;s; &#39;Volume USDT&#39; not used"; do
	check "the Data section says: $said" grep -qF "$said" out/e2e15_cdd/report.html
done
rm -rf out/e2e15_cdd

while IFS='|' read -r file said; do
	case $file in '#'*|'') continue ;; esac
	fp "$D/broken/$file"
	expect_eq "broken $file: refused" false "$(jget "$TMP/fp.json" ok)"
	expect_eq "broken $file: says why" "$said" "$(jget "$TMP/fp.json" reason)"
done <$D/broken/errors.txt

finish
