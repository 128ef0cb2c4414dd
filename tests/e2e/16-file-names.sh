#!/usr/bin/env bash
# 16-file-names.sh - uploads named as users name them (spaces, parentheses, quotes, non-ASCII)
# audit under a safe NAME the report states, in `make audit` and in the nightly batch; a missing
# file is named plainly.
. "$(dirname "$0")/../lib.sh"

U=$TMP/uploads
export NIGHT_DB=$TMP/history.sqlite
mkdir -p "$U"
cp demos/honest.py "$U/my strategy.py"
cp demos/honest.py "$U/strat(v2).py"
cp demos/honest.py "$U/it's \"quoted\" stratégie.py"
cp tests/data-formats/layouts/yahoo.csv "$U/BTC daily (yahoo).csv"
cp tests/fixtures/replay/tradelog_honest.csv "$U/my trades (1).csv"
names=()
cleanup() { for n in "${names[@]}"; do rm -rf "out/$n"; done; rm -rf out/nightly/2099-03-01 "$TMP"; }
trap cleanup EXIT

# audit NAME make-args...: make audit, expecting the bundle under out/NAME
audit() {
	local n=$1; shift
	names+=("$n")
	rm -rf "out/$n"
	if make --no-print-directory audit LOOKAHEAD_MAX=5 "$@" >"$TMP/audit.log" 2>&1; then
		ok "$n: make audit exits 0"
	else
		not_ok "$n: make audit exits 0" "$(tail -n 5 "$TMP/audit.log")"
	fi
	check "$n: the bundle is out/$n/$n.zip" test -s "out/$n/$n.zip"
}

audit e2e16_my_strategy STRATEGY="$U/my strategy.py" NAME="e2e16 my strategy"
expect_eq "a space: the strategy as given" "my strategy.py" \
	"$(jget out/e2e16_my_strategy/fingerprint.json uploads.strategy)"
expect_eq "a space: the safe name" e2e16_my_strategy "$(jget out/e2e16_my_strategy/fingerprint.json uploads.name)"
grep -q 'strategy uploaded as <code>my strategy.py</code>' out/e2e16_my_strategy/report.html &&
	ok "the report says what the upload was called" || not_ok "the report says what the upload was called"
check "a space: the report says the upload was copied in under the safe name" \
	grep -q 'my strategy.py</code>.*(a name make and the shell cannot hold is copied in under the safe one)' out/e2e16_my_strategy/report.html

audit strat_v2 STRATEGY="$U/strat(v2).py" DATA="$U/BTC daily (yahoo).csv"
expect_eq "parentheses: the data as given" "BTC daily (yahoo).csv" "$(jget out/strat_v2/fingerprint.json uploads.data)"
expect_eq "parentheses: the data read" 300 "$(jget out/strat_v2/fingerprint.json data_bars)"
check "the data is linked in under a safe name, out of the bundle" test -L out/strat_v2/.inputs/BTC_daily_yahoo.csv
if unzip -l out/strat_v2/strat_v2.zip | grep -q '\.inputs'; then not_ok "no staged input in the bundle"; else ok "no staged input in the bundle"; fi

audit it_s_quoted_strat_gie STRATEGY="$U/it's \"quoted\" stratégie.py"
expect_eq "quotes and non-ASCII: the strategy as given" "it's \"quoted\" stratégie.py" \
	"$(jget out/it_s_quoted_strat_gie/fingerprint.json uploads.strategy)"
grep -q 'it&#39;s &quot;quoted&quot; stratégie.py\|it&#x27;s &quot;quoted&quot; stratégie.py' out/it_s_quoted_strat_gie/report.html &&
	ok "the report escapes the name" || not_ok "the report escapes the name" "$(grep 'uploaded as' out/it_s_quoted_strat_gie/report.html)"

audit my_trades_1 TRADES="$U/my trades (1).csv"
expect_eq "a trade log with a space: read" true "$(jget out/my_trades_1/replay.json ok)"

# a second audit with nothing changed re-runs nothing
make --no-print-directory audit LOOKAHEAD_MAX=5 STRATEGY="$U/strat(v2).py" DATA="$U/BTC daily (yahoo).csv" >"$TMP/again.log" 2>&1
if grep -q STAGE "$TMP/again.log"; then not_ok "nothing changed: no stage re-runs" "$(grep STAGE "$TMP/again.log")"; else ok "nothing changed: no stage re-runs"; fi

# missing files, named plainly
for arg in "STRATEGY=$U/no such file.py" "STRATEGY=$U/nope.py" "TRADES=$U/gone (2).csv"; do
	rc=0
	make --no-print-directory audit "$arg" >"$TMP/missing.log" 2>&1 || rc=$?
	expect_eq "missing ${arg%%=*}: exit 2" 2 "$rc"
	grep -qF "make: ${arg%%=*} '${arg#*=}': no such file" "$TMP/missing.log" &&
		ok "missing ${arg%%=*}: named plainly" || not_ok "missing ${arg%%=*}: named plainly" "$(cat "$TMP/missing.log")"
	if grep -q "No rule to make target" "$TMP/missing.log"; then not_ok "not make's own words"; else ok "not make's own words"; fi
done
rc=0
make --no-print-directory audit STRATEGY=demos/honest.py DATA="$U/no data.csv" NAME=e2e16_nodata >"$TMP/missing.log" 2>&1 || rc=$?
names+=(e2e16_nodata)
expect_eq "missing DATA: exit 2" 2 "$rc"
grep -qF "make: DATA '$U/no data.csv': no such file" "$TMP/missing.log" && ok "missing DATA: named plainly" ||
	not_ok "missing DATA: named plainly" "$(cat "$TMP/missing.log")"

# the nightly batch over a folder of such names
N=$TMP/night
mkdir -p "$N"
cp demos/honest.py "$N/e2e16 night (v1).py"
names+=(e2e16_night_v1)
make --no-print-directory nightly STRATEGIES="$N" NIGHT=2099-03-01 LOOKAHEAD_MAX=5 >"$TMP/night.log" 2>&1
expect_eq "nightly: the odd name is audited under its safe name" true \
	"$(test -s out/e2e16_night_v1/verdict.json && echo true)"
expect_eq "nightly: the strategy as given" "e2e16 night (v1).py" "$(jget out/e2e16_night_v1/fingerprint.json uploads.strategy 2>/dev/null)"

finish
