#!/usr/bin/env bash
# 58-stage-files.sh - pipeline/README.md names every field of the stage-file table
# (lib/base/stagefile.h), and the verdict and the nightly read the stage files through that
# table: in the files of real audits, every field they read removed, then mistyped, one at a
# time, makes the verdict INCOMPLETE naming the file and the field, and the nightly's row name
# them in its note (stage_fields.py), never a default that lets the gates speak, the report
# exit 3 naming them (for the rows its sources take), and lookahead, variants and
# variants_score write "ok": false naming them; a field the table says may be absent is not a
# break.
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

# The Makefile's prerequisites of the verdict and the report against the table: every file the
# table says the stage reads is a prerequisite of its target (a file its recipe does not make
# on its own, events.jsonl, through the target whose recipe writes it), with every upload and
# SEALED given so that no file is left out as not applying.
make -pnq STRATEGY=demos/honest.py TRADES=tests/fixtures/replay/tradelog_honest.csv \
	SEALED="$TMP/none.csv" NAME=e2e-fields-make out/e2e-fields-make/report.html \
	>"$TMP/make-db.txt" 2>/dev/null
prereqs=$("$PY" - "$TMP/make-db.txt" lib/base/stagefile.h <<'PYEOF'
import re, sys
db = open(sys.argv[1], encoding="utf-8", errors="replace").read()
table = re.findall(r'^\s*X\([A-Z_]+, "([a-z_]+\.jsonl?)", "([a-z_]+)", \d+, "([^"]*)"',
                   open(sys.argv[2]).read(), re.M)
out = "out/e2e-fields-make/"
rules, recipes, target = {}, {}, None
for line in db.splitlines():
    m = re.match(r"^(%s[^:\s]+)(?: [^:]*)?\s*&?:(?!=)(.*)$" % re.escape(out), line)
    if m:
        target = m.group(1)
        rules.setdefault(target, set()).update(m.group(2).split("|")[0].split())
    elif line.startswith("\t") and target:
        recipes.setdefault(target, []).append(line)
    elif not line.startswith("#"):
        target = None if not line.strip() else target
def maker(name):
    if out + name in rules:
        return out + name
    for t, lines in recipes.items():
        if any("$(OUT)/" + name in l for l in lines):
            return t
    return None
bad, n = [], 0
for stage, goal in (("verdict", "verdict.json"), ("report", "report.html")):
    pre = rules.get(out + goal, set())
    if not pre:
        bad.append("%s has no rule in the make database" % goal)
    for name, writer, readers in table:
        if stage not in readers.split():
            continue
        n += 1
        m = maker(name)
        if not m:
            bad.append("%s: no rule makes %s" % (goal, name))
        elif m not in pre:
            bad.append("%s does not list %s%s, which the table says %s reads" %
                       (goal, m.replace(out, "$(OUT)/"), "" if m.endswith(name) else
                        " (it makes %s)" % name, stage))
print(n)
print("\n".join(bad))
PYEOF
)
if [ "$(echo "$prereqs" | head -n 1)" -ge 15 ] && [ -z "$(echo "$prereqs" | tail -n +2)" ]; then
	ok "the Makefile's verdict and report rules list every file the table says they read ($(echo "$prereqs" | head -n 1))"
else not_ok "the Makefile's verdict and report rules list every file the table says they read" \
	"$(echo "$prereqs" | tail -n +2 | head -n 12)"; fi

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
cp -r "$TMP/no-trials" "$TMP/no-trials-row"
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

# The nightly's row of each audit (`nightly row`), every row of the table removed and mistyped.
if "$PY" tests/e2e/stage_fields.py --nightly "$BIN/nightly" "$TMP/fields.txt" "$TMP/work" out/$H \
	out/e2e-fields-overfit out/e2e-fields-lookahead out/e2e-fields-both >"$TMP/nightly.log" 2>&1; then
	ok "each field the nightly's row reads, removed or mistyped, is named in its note ($(sed -n 's/^# \([0-9]* of [0-9]*\) rows.*/\1/p' "$TMP/nightly.log") rows)"
else
	not_ok "each field the nightly's row reads, removed or mistyped, is named in its note" \
		"$(grep -v '^# never' "$TMP/nightly.log" | head -n 8)"
fi
# The report: each row its sources take (report/*.c), removed and mistyped in the overfit audit
# (its variants, PBO and gates), makes it exit 3 naming the file and the field.
if "$PY" tests/e2e/stage_fields.py --report "$BIN/report" "$TMP/fields.txt" "$TMP/work" \
	out/e2e-fields-overfit >"$TMP/report.log" 2>&1; then
	ok "each field the report reads by its row, removed or mistyped, stops it naming the field ($(sed -n 's/^# \([0-9]* of [0-9]*\) rows.*/\1/p' "$TMP/report.log") rows)"
else
	not_ok "each field the report reads by its row, removed or mistyped, stops it naming the field" \
		"$(grep -v '^# never' "$TMP/report.log" | head -n 8)"
fi
# The stages before the verdict read their inputs by their rows too: each row lookahead, variants
# (both families) and variants_score take, removed (where it may not be absent) and mistyped in a
# real audit's file, makes the stage write "ok": false naming the file and the field, before any
# run of the upload (stage_fields.py --stage: the rows are those the stage's source names).
stage_rows() {  # LABEL SOURCE ROWS AUDIT -- STAGE ARGS...: one ok/not ok line
	local label=$1 log="$TMP/stage-$1.log"
	shift
	if "$PY" tests/e2e/stage_fields.py --stage "$1" "$2" "$TMP/work" "$3" -- "${@:5}" >"$log" 2>&1; then
		ok "each row $label reads, removed or mistyped, makes it say so naming the field ($(sed -n 's/^# \([0-9]*\) rows tried/\1/p' "$log") rows)"
	else not_ok "each row $label reads, removed or mistyped, makes it say so naming the field" \
		"$(grep -v '^# ' "$log" | head -n 8)"; fi
}
D='{dir}'
stage_rows lookahead pipeline/lookahead/lookahead.c 'IN_.*' out/$H -- "$BIN/lookahead" \
	--strategy "$D/strategy.py" --run "$D/run.json" --inspect "$D/inspect.json" --data data/ohlcv.csv \
	--config "$D/config.json" --jobs 1 -o "$D/out.json"
stage_rows variants pipeline/variants/variants.c 'IN_VARIANTS.*' out/e2e-fields-overfit -- \
	"$BIN/variants" --strategy "$D/strategy.py" --inspect "$D/inspect.json" --data data/ohlcv.csv \
	--config "$D/config.json" --jobs 1 -o "$D/out.json" --signals "$D/out.bin"
stage_rows "variants --family neighbourhood" pipeline/variants/variants.c 'IN_NB.*' out/$H -- \
	"$BIN/variants" --strategy "$D/strategy.py" --inspect "$D/inspect.json" --data data/ohlcv.csv \
	--config "$D/config.json" --jobs 1 --family neighbourhood -o "$D/out.json" --signals "$D/out.bin"
stage_rows variants_score pipeline/variants/variants_score.c '.*' out/e2e-fields-overfit -- \
	"$BIN/variants_score" --runs "$D/variant_runs.json" --signals "$D/variant_signals.bin" \
	--inspect "$D/inspect.json" --data data/ohlcv.csv --config "$D/config.json" -o "$D/out.json" \
	--csv "$D/out.csv" --matrix "$D/out.bin"

# stats.json without its trials: the report names the break rather than showing the trials n/a
cp -r "$TMP/no-trials-row" "$TMP/no-trials-report"
"$BIN/report" --dir "$TMP/no-trials-report" --name x --templates templates >/dev/null 2>"$TMP/report-err.txt"
expect_eq "the report of an audit whose stats.json has no trials: exit 3 naming them" \
	'3 report: a stage file does not hold what its stage writes: stats.json: the field "trials" is missing' \
	"$? $(cat "$TMP/report-err.txt")"

# The statistics take the fields of their inputs they decide by (replay.json's mode and scored,
# ledger.json's used, variants.json's and neighbourhood.json's declared and matrix) by their
# rows: each mistyped in the honest audit makes stats.json "ok": false naming the file and field.
stats_break() {  # FILE KEY: stats.json's ok and reason with FILE's KEY a number
	local d="$TMP/stats-$1-$2"
	mkdir -p "$d" && cp out/$H/*.json out/$H/*.bin "$d/" || return 3
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); d[sys.argv[2]]=7; json.dump(d,open(sys.argv[1],"w"))' \
		"$d/$1" "$2" || return 3
	"$BIN/stats" --replay "$d/replay.json" --variants "$d/variants.json" \
		--neighbourhood "$d/neighbourhood.json" --config "$d/config.json" --data data/ohlcv.csv \
		--run "$d/run.json" --lookahead "$d/lookahead.json" --ledger "$d/ledger.json" \
		--inspect "$d/inspect.json" -o "$d/stats.json" --benchmark-out "$d/b.csv" \
		--rolling-out "$d/r.csv" --walkforward-out "$d/w.csv" --fan-out "$d/f.csv" || return 3
	"$PY" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["ok"], d.get("reason"))' "$d/stats.json"
}
for fk in "replay.json mode" "replay.json scored" "ledger.json used" "variants.json declared" \
	"variants.json matrix" "neighbourhood.json declared" "neighbourhood.json matrix"; do
	set -- $fk
	case $2 in declared | used) want=boolean ;; scored) want="string or null" ;; *) want=string ;; esac
	expect_eq "stats with $1's $2 a number: not ok, naming it" \
		"False $1: the field \"$2\" is not a $want" "$(stats_break "$1" "$2")"
done

# stats.json without its trials: the row names the break, and shows none of stats.json's figures
"$BIN/nightly" row --dir "$TMP/no-trials-row" >"$TMP/row.json" 2>/dev/null
expect_eq "the row of an audit whose stats.json has no trials: its note names them, no Sharpe ratio" \
	'stats.json: the field "trials" is missing None' \
	"$("$PY" -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["note"], r["sharpe"])' "$TMP/row.json")"
finish
