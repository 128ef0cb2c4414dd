#!/usr/bin/env bash
# 58-stage-files.sh - pipeline/README.md names every field of the stage-file table
# (lib/base/stagefile.h), and the verdict reads the stage files through that table:
# in the files of real audits, every field it reads removed, then mistyped, one at a time, makes
# the verdict INCOMPLETE naming the file and the field (stage_fields.py), never a default that
# lets the gates speak; a field the table says may be absent is not a break.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

# The field documentation of pipeline/README.md against the table: every file of the table has
# its paragraph there (**name**), and every field a reader takes is named in it.
"$BIN/verdict" --fields >"$TMP/fields.txt" || exit 3
docs=$("$PY" - "$TMP/fields.txt" lib/base/stagefile.h <<'PYEOF'
import re, sys
text = open("pipeline/README.md", encoding="utf-8").read()
paras = {}
for m in re.finditer(r"^\*\*([a-z_]+\.jsonl?)\*\*(.*?)(?=^\*\*[a-z_]+\.jsonl?\*\*|^## |\Z)", text, re.M | re.S):
    paras[m.group(1)] = paras.get(m.group(1), "") + m.group(2)
files = re.findall(r'^\s*X\([A-Z_]+, "([a-z_]+\.jsonl?)"', open(sys.argv[2]).read(), re.M)
bad = ["%s has no paragraph in pipeline/README.md" % f for f in files if f not in paras]
rows = [l.split("\t")[:2] for l in open(sys.argv[1]) if l.strip()]
for name, key in rows:
    leaf = [k for k in re.split(r"[.\[\]]+", key) if k][-1]
    if not re.search(r"(?<![A-Za-z_])%s(?![A-Za-z_])" % re.escape(leaf), paras.get(name, "")):
        bad.append("%s: %s is not named in its paragraph" % (name, key))
print(len(files), len(rows))
print("\n".join(bad))
PYEOF
)
read -r n_files n_rows <<<"$(echo "$docs" | head -n 1)"
if [ "${n_files:-0}" -ge 10 ] && [ "${n_rows:-0}" -gt 100 ] && [ -z "$(echo "$docs" | tail -n +2)" ]; then
	ok "pipeline/README.md describes the table's $n_files files and names its $n_rows fields"
else not_ok "pipeline/README.md describes the table's files and names its fields" \
	"${n_files:-0} files, ${n_rows:-0} rows" "$(echo "$docs" | tail -n +2 | head -n 8)"; fi

"$BIN/gendata" --seed 23 --bars 8760 --start 2026-01-01 -o "$TMP/sealed.csv" >/dev/null || exit 3

# audit FILE NAME TRIALS [SEALED [TRADES]]: make audit into out/NAME; prints the verdict
audit() {
	rm -rf "out/$2"
	make --no-print-directory audit STRATEGY="$1" NAME="$2" TRIALS="$3" PERMUTATIONS=20 \
		${4:+SEALED="$4"} ${5:+TRADES="$5"} LEDGER="$TMP/history.sqlite" >"$TMP/$2.log" 2>&1
	sed -n 's/^verdict: \([A-Z_]*\) .*/\1/p' "$TMP/$2.log"
}

H=e2e-fields-honest
expect_eq "honest, with sealed bars: WATCH" WATCH "$(audit demos/honest.py $H 3 "$TMP/sealed.csv")"
expect_eq "overfit: NOT_READY" NOT_READY "$(audit demos/overfit.py e2e-fields-overfit 50)"
expect_eq "lookahead: REJECTED_LOOKAHEAD" REJECTED_LOOKAHEAD \
	"$(audit demos/lookahead.py e2e-fields-lookahead 50)"
# a strategy and its trade log: the reconciliation's fields
check "honest with its trade log: a verdict" test -n \
	"$(audit demos/honest.py e2e-fields-both 3 "" tests/fixtures/replay/tradelog_honest.csv)"

# The effective trials taken out of an honest audit's stats.json: no longer WATCH on a default.
mkdir -p "$TMP/no-trials"
for f in out/$H/*.json out/$H/events.jsonl; do cp "$f" "$TMP/no-trials/"; done
"$PY" - "$TMP/no-trials/stats.json" <<'PYEOF' || exit 3
import json, sys
d = json.load(open(sys.argv[1]))
del d["trials"]
json.dump(d, open(sys.argv[1], "w"))
PYEOF
check "the verdict runs without stats.json's trials" \
	"$BIN/verdict" --dir "$TMP/no-trials" --sealed "$TMP/no-trials/sealed.json" -o "$TMP/no-trials/verdict.json"
expect_eq "without trials: INCOMPLETE" INCOMPLETE "$(jget "$TMP/no-trials/verdict.json" verdict)"
check "without trials: the summary names stats.json and the field" grep -q \
	'stats.json: the field \\"trials\\" is missing' "$TMP/no-trials/verdict.json"
expect_eq "without trials: verdict.json's inputs say the same of stats.json" \
	'stats.json: the field "trials" is missing' "$(jget "$TMP/no-trials/verdict.json" inputs.stats)"

# A file of another schema is refused whole, as its writer's version says.
"$PY" - "$TMP/no-trials/stats.json" "out/$H/stats.json" <<'PYEOF' || exit 3
import json, sys
d = json.load(open(sys.argv[2]))
d["schema"] = 2
json.dump(d, open(sys.argv[1], "w"))
PYEOF
"$BIN/verdict" --dir "$TMP/no-trials" -o "$TMP/no-trials/verdict.json" >/dev/null 2>&1
expect_eq "stats.json of schema 2: INCOMPLETE, naming the schema" \
	"INCOMPLETE stats.json: schema 2, where this reader knows schema 1" \
	"$(jget "$TMP/no-trials/verdict.json" verdict) $(jget "$TMP/no-trials/verdict.json" inputs.stats)"

# Every row of the table, removed and mistyped in turn, in the four audits.
check "verdict --fields lists the table's rows" test "$(wc -l <"$TMP/fields.txt")" -gt 100
mkdir -p "$TMP/work"
if "$PY" tests/e2e/stage_fields.py "$BIN/verdict" "$TMP/fields.txt" "$TMP/work" out/$H \
	out/e2e-fields-overfit out/e2e-fields-lookahead out/e2e-fields-both >"$TMP/fields.log" 2>&1; then
	ok "each field the verdict reads, removed or mistyped, is INCOMPLETE naming it ($(sed -n 's/^# \([0-9]* of [0-9]*\) rows.*/\1/p' "$TMP/fields.log") rows)"
else
	not_ok "each field the verdict reads, removed or mistyped, is INCOMPLETE naming it" \
		"$(grep -v '^# never' "$TMP/fields.log" | head -n 8)"
fi
finish
