#!/usr/bin/env bash
# tests/e2e/81-nightly-ledger.sh - the trial ledger over four nights of one folder: a retune, a
# renamed copy with new constants, a comment-only edit and an unrelated strategy, then a night
# with more bars; the trials and the forward figures recomputed by tests/e2e/ledger_check.py;
# make audit reading the same history (LEDGER), and off when LEDGER is empty; a damaged
# history refused, never recreated.
. "$(dirname "$0")/../lib.sh"

P=e2e81
N1=2099-03-01 N2=2099-03-02 N3=2099-03-03 N4=2099-03-04 N5=2099-03-05 N6=2099-03-06
export NIGHT_DB=$TMP/history.sqlite
cleanup() {
	rm -rf out/nightly/$N1 out/nightly/$N2 out/nightly/$N3 out/nightly/$N4 out/nightly/$N5 \
		out/nightly/$N6 out/${P}_* "$TMP"
}
trap cleanup EXIT

head -n 2001 data/ohlcv.csv >"$TMP/bars1.csv"
head -n 2601 data/ohlcv.csv >"$TMP/bars2.csv"
S=$TMP/strategies
mkdir -p "$S"
trend() { # FAST SLOW [fast-name slow-name]: a moving-average crossover
	cat <<PYEOF
# a moving-average crossover
def signals(df):
    ${3:-fast} = df["close"].rolling($1, min_periods=1).mean()
    ${4:-slow} = df["close"].rolling($2, min_periods=1).mean()
    return ((${3:-fast} > ${4:-slow}).astype(int) * 2 - 1).tolist()
PYEOF
}
trend 8 30 >"$S/${P}_trend.py"
cat >"$S/${P}_other.py" <<'PYEOF'
# a channel breakout: nothing like the crossover
def signals(df):
    hi = df["high"].rolling(24, min_periods=1).max().shift(1)
    lo = df["low"].rolling(24, min_periods=1).min().shift(1)
    pos, out = 0, []
    for c, h, l in zip(df["close"], hi, lo):
        if c > h:
            pos = 1
        elif c < l:
            pos = -1
        out.append(pos)
    return out
PYEOF

family() { # the declared variants' windows: a family whose every version counts its variants
	cat <<PYEOF
# a crossover whose windows were searched
VARIANTS = [{"fast": $1, "slow": $2}, {"fast": $3, "slow": $4}, {"fast": $5, "slow": $6}]
def signals(df, *, fast=$3, slow=$4):
    f = df["close"].rolling(fast, min_periods=1).mean()
    s = df["close"].rolling(slow, min_periods=1).mean()
    return ((f > s).astype(int) * 2 - 1).tolist()
PYEOF
}
family 5 20 8 30 13 50 >"$S/${P}_family.py"

night() { # NIGHT DATA: one night, its folder kept as it was for the recomputation
	mkdir -p "$TMP/folders/$1"
	cp "$S"/*.py "$TMP/folders/$1/"
	echo "$1 $TMP/folders/$1 $2" >>"$TMP/nights.txt"
	make --no-print-directory -j2 nightly STRATEGIES="$S" NIGHT="$1" DATA="$2" PERMUTATIONS=10 \
		>"$TMP/night-$1.log" 2>&1
}
row() { # NIGHT NAME KEY: a field of the index row of strategy NAME
	"$PY" -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["rows"] if r["name"]==sys.argv[2]][0]; v=r[sys.argv[3]]; print(json.dumps(v) if isinstance(v,bool) else v)' \
		out/nightly/$1/index.json "$2" "$3"
}
ledger() { # NAME: lineage version versions trials trials_source of its stats.json
	"$PY" -c 'import json,sys; s=json.load(open(sys.argv[1])); l=s["ledger"] or {}; print(l.get("lineage"), l.get("version"), l.get("versions"), l.get("trials"), s["trials"], s["trials_source"])' \
		out/$1/stats.json
}
txt_flag() { # NAME: whether index.txt says "edge decayed" under the row of NAME
	"$PY" - out/nightly/$N4/index.txt "$1" <<'PYEOF'
import sys
lines, mine, said = open(sys.argv[1]).read().splitlines(), False, False
for line in lines:
    if line and not line.startswith(" "):
        mine = line.split()[0] == sys.argv[2]
    elif mine and "edge decayed" in line:
        said = True
print("true" if said else "false")
PYEOF
}
recompute() { check "$1: the trials recomputed from the folders with Python's ast agree" \
	"$PY" tests/e2e/ledger_check.py ledger "$TMP/nights.txt" out; }

# --- night 1: two strategies, two lineages
check "night 1 completes" night $N1 "$TMP/bars1.csv"
expect_eq "night 1: the crossover starts its lineage" "${P}_trend 1 1 1 1 declared" "$(ledger ${P}_trend)"
expect_eq "night 1: the breakout starts another" "${P}_other 1 1 1 1 declared" "$(ledger ${P}_other)"
expect_eq "night 1: the family's three variants are its trials" "${P}_family 1 1 3 3 variants" "$(ledger ${P}_family)"
expect_eq "night 1: the index says which version" \
	"version 1 of this strategy since $N1: deflated for 1 trial" "$(row $N1 ${P}_trend ledger)"
recompute "night 1"

# --- night 2: the crossover retuned, and a renamed copy with new constants and new local names
trend 10 40 >"$S/${P}_trend.py"
trend 12 50 speed base >"$S/${P}_trend_copy.py"
family 6 24 9 36 14 60 >"$S/${P}_family.py"
check "night 2 completes" night $N2 "$TMP/bars1.csv"
expect_eq "night 2: the retune is version 2, deflated for 2 trials by the ledger" \
	"${P}_trend 2 2 2 2 ledger" "$(ledger ${P}_trend)"
expect_eq "night 2: the renamed copy joins the crossover's lineage" \
	"${P}_trend 2 2 2 2 ledger" "$(ledger ${P}_trend_copy)"
expect_eq "night 2: the family retuned counts both versions' variants, 3 + 3" "${P}_family 2 2 6 6 ledger" \
	"$(ledger ${P}_family)"
expect_eq "night 2: the unrelated strategy is not re-audited" skip \
	"$(jget out/nightly/$N2/work/${P}_other.json action)"
recompute "night 2"

# --- night 3: a comment-only edit of the retune, reformatted
"$PY" - "$S/${P}_trend.py" <<'PYEOF'
import sys
p = sys.argv[1]
src = open(p).read().replace("(10, min_periods=1)", "( 10,  min_periods = 1 )")
open(p, "w").write('"""The crossover, documented."""\n' + src + "# the slow line is the trend\n")
PYEOF
check "night 3 completes" night $N3 "$TMP/bars1.csv"
expect_eq "night 3: the comment-only edit is re-audited (its code changed)" audit \
	"$(jget out/nightly/$N3/work/${P}_trend.json action)"
expect_eq "night 3: it is still version 2, of a lineage of 3" "${P}_trend 2 3 3 3 ledger" "$(ledger ${P}_trend)"
expect_eq "night 3: the copy, unchanged, is re-audited: its lineage grew" \
	"audit the trial ledger has moved since: its lineage has more versions" \
	"$(jget out/nightly/$N3/work/${P}_trend_copy.json action) $(jget out/nightly/$N3/work/${P}_trend_copy.json why)"
expect_eq "night 3: the copy is version 3" "${P}_trend 3 3 3 3 ledger" "$(ledger ${P}_trend_copy)"
expect_eq "night 3: the index says so" \
	"version 2 of this strategy since $N1: deflated for 3 trials" "$(row $N3 ${P}_trend ledger)"
check "night 3: the report says so" grep -q "This is version 2 of this strategy since $N1: deflated for 3 trials" \
	out/${P}_trend/report.html
check "night 3: the DSR counts the ledger's trials" "$PY" -c '
import json, sys
s = json.load(open(sys.argv[1]))
assert s["trials"] == 3 and s["trials_source"] == "ledger", s["trials"]' out/${P}_trend/stats.json
expect_eq "night 3: the unrelated strategy is still version 1 and not re-audited" "skip" \
	"$(jget out/nightly/$N3/work/${P}_other.json action)"
recompute "night 3"
check "night 3: a bundle holds no forward section before the data grew" sh -c \
	"! grep -q 'Since first audited' out/${P}_trend/report.html"

# --- the same night again: nothing re-audited, the index byte-identical
cp out/nightly/$N3/index.html "$TMP/index3.html"
check "night 3 runs again" night $N3 "$TMP/bars1.csv"
expect_eq "nothing is re-audited" "skip skip skip skip" \
	"$(for f in out/nightly/$N3/work/*.json; do jget "$f" action; done | xargs)"
check "the index is byte-identical" cmp "$TMP/index3.html" out/nightly/$N3/index.html
sed -i '$d' "$TMP/nights.txt"

# --- night 4: 600 more bars: every version audited before is scored on them apart
check "night 4 completes" night $N4 "$TMP/bars2.csv"
recompute "night 4"
since=$(tail -n 1 "$TMP/bars1.csv" | cut -d, -f1)
for n in trend trend_copy other family; do
	expect_eq "night 4: $n's forward bars start after its first audit's last bar" "$since 600" \
		"$(jget out/${P}_$n/stats.json forward.since) $(jget out/${P}_$n/stats.json forward.bars)"
	check "night 4: $n's forward figures recomputed from trades.csv and equity.csv" \
		"$PY" tests/e2e/ledger_check.py forward out/${P}_$n
	check "night 4: $n's report has the section" grep -q "<h2>Since first audited (out-of-sample)</h2>" \
		out/${P}_$n/report.html
	check "night 4: $n's PDF has it too" sh -c "pdftotext out/${P}_$n/report.pdf - | grep -q 'Since first audited (out-of-sample)'"
	decayed=$("$PY" -c 'import json,sys; f=json.load(open(sys.argv[1]))["forward"]; print(json.dumps(f["net_return"] < f["band"][0]))' out/${P}_$n/stats.json)
	expect_eq "night 4: $n is flagged 'edge decayed' exactly when its forward return fell below its band" \
		"$decayed $decayed" "$(row $N4 ${P}_$n edge_decayed) $(txt_flag ${P}_$n)"
done

# --- the forward bars a night mails tell no version's forward score anything: an upload that
# remembers every forward bar of night 4's mailed bundle (the sign of each bar's move, read off
# its buy-and-hold curve) is a version first seen on the night it arrives, so its own forward
# bars start after the last bar of that night's data, past everything it remembers; what it
# remembers lies in its in-sample bars, judged and deflated as any other.
head -n 3201 data/ohlcv.csv >"$TMP/bars3.csv"
head -n 3801 data/ohlcv.csv >"$TMP/bars4.csv"
S2=$TMP/memory && mkdir -p "$S2"
unzip -p out/nightly/$N4/bundles/${P}_trend.zip ${P}_trend/benchmark.csv >"$TMP/mailed-benchmark.csv"
remembered=$("$PY" - "$TMP/mailed-benchmark.csv" "$since" "$S2/${P}_memory.py" <<'PYEOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
memory = {}
for a, b, c in zip(rows, rows[1:], rows[2:]):
    if a["time"] > sys.argv[2]:  # a forward bar: hold, from its next open, the way the bar after went
        memory[a["time"][:16]] = 1 if float(c["net_equity"]) > float(b["net_equity"]) else -1
assert len(memory) > 500, len(memory)
open(sys.argv[3], "w").write(
    "# the crossover, and the forward bars of a mailed bundle remembered\n"
    "MEMORY = %r\n"
    "def signals(df):\n"
    "    fast = df['close'].rolling(10, min_periods=1).mean()\n"
    "    slow = df['close'].rolling(40, min_periods=1).mean()\n"
    "    base = ((fast > slow).astype(int) * 2 - 1).tolist()\n"
    "    keys = df.index.strftime('%%Y-%%m-%%dT%%H:%%M')\n"
    "    return [MEMORY.get(k, b) for k, b in zip(keys, base)]\n" % memory)
print(max(memory))
PYEOF
)
memory_night() { # NIGHT DATA: a night of the memory upload alone, in the same history
	make --no-print-directory -j2 nightly STRATEGIES="$S2" NIGHT="$1" DATA="$2" PERMUTATIONS=10 \
		>"$TMP/night-$1.log" 2>&1
}
check "night 5 (the memory arrives) completes" memory_night $N5 "$TMP/bars3.csv"
expect_eq "night 5: the memory is a version first seen tonight, with no forward bars yet" "1 null" \
	"$(jget out/${P}_memory/stats.json ledger.version) $(jget out/${P}_memory/stats.json forward)"
check "night 6 (more bars) completes" memory_night $N6 "$TMP/bars4.csv"
since5=$(tail -n 1 "$TMP/bars3.csv" | cut -d, -f1)
expect_eq "night 6: the memory's forward bars start after night 5's last bar" "$since5 600" \
	"$(jget out/${P}_memory/stats.json forward.since) $(jget out/${P}_memory/stats.json forward.bars)"
check "night 6: every bar it remembers is before its forward bars ($remembered < $since5)" \
	"$PY" -c 'import sys; assert sys.argv[1] < sys.argv[2][:16], sys.argv[1:]' "$remembered" "$since5"
check "night 6: its forward figures recomputed from trades.csv and equity.csv" \
	"$PY" tests/e2e/ledger_check.py forward out/${P}_memory

# --- make audit reads the same history; LEDGER= turns it off
make --no-print-directory audit STRATEGY="$S/${P}_trend.py" NAME=${P}_solo DATA="$TMP/bars2.csv" \
	PERMUTATIONS=10 LEDGER="$NIGHT_DB" >"$TMP/solo.log" 2>&1
expect_eq "make audit with LEDGER reads the lineage" "${P}_trend 2 3 3 3 ledger" "$(ledger ${P}_solo)"
make --no-print-directory audit STRATEGY="$S/${P}_trend.py" NAME=${P}_solo DATA="$TMP/bars2.csv" \
	PERMUTATIONS=10 LEDGER= >"$TMP/solo-off.log" 2>&1
expect_eq "LEDGER empty: no ledger, the declared trials" "None None None None 1 declared" "$(ledger ${P}_solo)"

# --- a damaged history: refused with its path and the fix, left as it is
printf 'not a database, but someone'"'"'s history\n' >"$TMP/damaged.sqlite"
sha=$(sha256sum <"$TMP/damaged.sqlite")
NIGHT_DB=$TMP/damaged.sqlite make --no-print-directory nightly STRATEGIES="$S" NIGHT=$N4 \
	DATA="$TMP/bars2.csv" PERMUTATIONS=10 >"$TMP/damaged.log" 2>&1
check "the night with a damaged history names it and the fix" grep -q \
	"the history '$TMP/damaged.sqlite' is damaged .*move it aside" "$TMP/damaged.log"
expect_eq "the damaged file is never recreated" "$sha" "$(sha256sum <"$TMP/damaged.sqlite")"
make --no-print-directory audit STRATEGY="$S/${P}_trend.py" NAME=${P}_solo DATA="$TMP/bars2.csv" \
	PERMUTATIONS=10 LEDGER="$TMP/damaged.sqlite" >"$TMP/solo-damaged.log" 2>&1
rc=$?
check "make audit refuses a damaged LEDGER" sh -c "test $rc -ne 0 && grep -q 'is damaged' '$TMP/solo-damaged.log'"
check "ledger --help documents the exit codes" sh -c "'$BIN/ledger' --help | grep -q '^exit:'"
finish
