#!/usr/bin/env bash
# 75-tearsheet: the tearsheet figures (benchmark, drawdowns, months, rolling Sharpe, late fills,
# cost break-even, bootstrap interval, trade statistics) agree with an independent computation
# from the bundle's own files; report.pdf reads back, has ink and is reproducible; the XLSX
# sheets hold the same numbers; the page loads cleanly; an early stop is said once.
. "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
DATA=data/ohlcv.csv

audit() { # demo trials name
	rm -rf "out/$3"
	make --no-print-directory audit STRATEGY="demos/$1.py" TRIALS="$2" NAME="$3" >"$TMP/$3.log" 2>&1
}

# --- every figure, recomputed in Python from equity.csv, trades.csv, run.json and the data ---
for demo in honest overfit; do
	name=e2e-tearsheet-$demo
	check "$demo: make audit exits 0" audit "$demo" 3 "$name"
	"$PY" tests/e2e/tearsheet_check.py "out/$name" "$DATA" >"$TMP/$demo.check" 2>&1
	rc=$?
	sed "s/^\(\(not \)\{0,1\}ok - \)/\1$demo: /" "$TMP/$demo.check"
	[ "$rc" -eq 0 ] || not_ok "$demo: the independent check ran to the end" "$(tail -n 3 "$TMP/$demo.check")"
	check "$demo: late fills, cost multiples and the break-even replayed again, to 1e-9" \
		"$PY" tests/recompute.py "out/$name" "$DATA"
done
A=out/e2e-tearsheet-honest

# --- the bootstrap is seeded from the config: same seed same interval, another seed another ---
seeded() { # seed out
	"$PY" - "$A/config.json" "$TMP/cfg-$1.json" "$1" <<'PYEOF'
import json, sys
c = json.load(open(sys.argv[1]))
c.setdefault("tearsheet", {})["bootstrap_seed"] = int(sys.argv[3])
json.dump(c, open(sys.argv[2], "w"))
PYEOF
	"$BIN/stats" --replay "$A/replay.json" --config "$TMP/cfg-$1.json" --data "$DATA" --run "$A/run.json" \
		--lookahead "$A/lookahead.json" -o "$2"
}
seeded 1 "$TMP/s1.json" && seeded 2 "$TMP/s2.json"
expect_eq "seed 1 (the default) gives the bundle's interval" "$(jget "$A/stats.json" sharpe_ci95)" "$(jget "$TMP/s1.json" sharpe_ci95)"
check "another seed gives another interval" test "$(jget "$TMP/s1.json" sharpe_ci95.lo)" != "$(jget "$TMP/s2.json" sharpe_ci95.lo)"

# --- without the price data the stats still write, and say what is missing ---
"$BIN/stats" --replay "$A/replay.json" --config "$A/config.json" -o "$TMP/nodata.json"
expect_eq "no --data: stats still ok" true "$(jget "$TMP/nodata.json" ok)"
expect_eq "no --data: benchmark is null" null "$(jget "$TMP/nodata.json" benchmark)"
expect_eq "no --data: delay_sensitivity is null" null "$(jget "$TMP/nodata.json" delay_sensitivity)"
check "no --data: the notes say why" grep -q '"benchmark_note":.*no price data' "$TMP/nodata.json"

# --- report.pdf: text, pages, ink, sums, zip ---
check "report.pdf exists" test -s "$A/report.pdf"
pdftotext -layout "$A/report.pdf" "$TMP/report.txt"
check "pdftotext: the verdict is on the first page" sh -c "pdftotext -f 1 -l 1 '$A/report.pdf' - | grep -q '^$(jget "$A/verdict.json" verdict)\$'"
check "pdftotext: the gates table is there" grep -q '^The gates$' "$TMP/report.txt"
# the PDF is the whole report: every heading of the page is a heading of the PDF, in order
sections_in_order() { # html pdf.txt: the page's h2 and h3 headings, each found in the text after the one before
	"$PY" - "$1" "$2" <<'PYEOF'
import html, re, sys
page = open(sys.argv[1]).read().split("<main>", 1)[-1]
heads = [html.unescape(h) for h in re.findall(r'<h[23](?: id="[^"]*")?>([^<]*)</h[23]>', page)]
lines = [l.strip() for l in open(sys.argv[2])]
at = 0
for h in heads:
    if h not in lines[at:]:
        sys.exit("missing or out of order: %r" % h)
    at = lines.index(h, at)
print(len(heads), "headings")
PYEOF
}
pdftotext "$A/report.pdf" "$TMP/report-plain.txt"
check "pdftotext: no line of the PDF starts with a percent sign cut from its number" \
	sh -c "! grep -n '^ *%' '$TMP/report-plain.txt'"
gate_thresholds_whole() { # pdf.txt: in the gates table, every gate's row holds its whole threshold
	sed -n '/^The gates$/,/^Vetoes$/p' "$1" | grep -E '^[a-z_]+ +[-0-9]' >"$TMP/gate-rows.txt" &&
		test -s "$TMP/gate-rows.txt" &&
		! grep -vE '(at least|at most|above|below) -?[0-9.]+( %)? ' "$TMP/gate-rows.txt"
}
check "pdftotext: each gate's threshold stays whole on its row's first line" gate_thresholds_whole "$TMP/report.txt"
check "pdftotext: an empty table prints its one line, not a row of titles above it" \
	sh -c "! grep -B1 'No containment events' '$TMP/report.txt' | grep -q 'rule that refused it'"
check "pdftotext: every section of report.html is in the PDF, in its order" sections_in_order "$A/report.html" "$TMP/report.txt"
check "pdftotext: the first and last trades are listed, with a pointer to trades.csv" \
	sh -c "grep -q 'the first 10 and the last 10 are listed; all of them are in' '$TMP/report-plain.txt' && grep -q \"\$(tail -n 1 '$A/trades.csv' | cut -d, -f1)\" '$TMP/report-plain.txt'"
check "pdftotext: the fingerprint's hashes are there" grep -q "$(jget "$A/fingerprint.json" data_sha256)" "$TMP/report-plain.txt"
fill_check() { # pdf: no page but the last is left more than half empty
	"$PY" - "$1" "$TMP/fill" <<'PYEOF'
import glob, os, subprocess, sys
os.makedirs(sys.argv[2], exist_ok=True)
for f in glob.glob(sys.argv[2] + "/p*.pgm"):
    os.remove(f)
subprocess.run(["pdftoppm", "-r", "20", "-gray", sys.argv[1], sys.argv[2] + "/p"], check=True)
pages = sorted(glob.glob(sys.argv[2] + "/p*.pgm"))
for f in pages[:-1]:
    magic, w, h, mx, px = open(f, "rb").read().split(maxsplit=4)
    w, h = int(w), int(h)
    top, foot = int(h * 48 / 841.89), int(h * 800 / 841.89)
    last = max([y for y in range(top, foot) if min(px[y * w:(y + 1) * w]) < 200] or [top])
    if (last - top) / (foot - top) < 0.5:
        sys.exit("%s is more than half empty" % os.path.basename(f))
print(len(pages), "pages")
PYEOF
}
check "pdftoppm: no page but the last is half empty" fill_check "$A/report.pdf"
check "pdftotext: every page is numbered" sh -c "[ \$(grep -c 'strataudit report: .* page [0-9][0-9]*$' '$TMP/report.txt') -eq \$(pdfinfo '$A/report.pdf' | sed -n 's/^Pages: *//p') ]"
check "pdftotext: the benchmark sentence is there" grep -q 'Holding the instrument' "$TMP/report.txt"
check "pdftotext: the drawdown, delay and monthly tables are there" \
	sh -c "grep -q 'The bad stretches' '$TMP/report.txt' && grep -q 'What if every fill came later' '$TMP/report.txt' && grep -q 'Which months made the money' '$TMP/report.txt'"
check "pdfinfo: fixed creation date" sh -c "pdfinfo '$A/report.pdf' | grep -q '^CreationDate: *Sat Jan  1 00:00:00 2000'"
pdftoppm -f 1 -l 1 -r 40 -gray "$A/report.pdf" "$TMP/page1"
ink() { # pgm: the share of pixels darker than light grey, in per mille
	"$PY" - "$1" <<'PYEOF'
import sys
data = open(sys.argv[1], "rb").read()
parts, pos = [], 0
while len(parts) < 4:
    while data[pos:pos + 1].isspace():
        pos += 1
    end = pos
    while not data[end:end + 1].isspace():
        end += 1
    parts.append(data[pos:end]); pos = end
pix = data[pos + 1:]
print(sum(1 for b in pix if b < 200) * 1000 // len(pix))
PYEOF
}
permille=$(ink "$TMP"/page1*.pgm)
check "pdftoppm: the first page has ink ($permille per mille dark)" test "$permille" -ge 10 -a "$permille" -le 600
check "report.pdf is listed in sha256sums.txt" grep -q '  report.pdf$' "$A/sha256sums.txt"
check "sha256sums.txt checks" sh -c "cd '$A' && sha256sum -c --strict --quiet sha256sums.txt"
check "report.pdf is in the zip" "$PY" -c "import zipfile,sys; sys.exit(0 if any(n.endswith('/report.pdf') for n in zipfile.ZipFile('$A/e2e-tearsheet-honest.zip').namelist()) else 1)"

# --- two renders of the same audit are byte-identical ---
for d in r1 r2; do
	x=$TMP/$d/e2e-tearsheet-honest
	mkdir -p "$x"
	find "$A" -maxdepth 1 -type f ! -name '*.png' ! -name '*.zip' ! -name 'report.*' ! -name sha256sums.txt ! -name '.*' \
		-exec cp {} "$x/" \;
	"$BIN/report" --dir "$x" --name e2e-tearsheet-honest --templates templates --data "$DATA" &&
		"$BIN/bundle" --dir "$x" --name e2e-tearsheet-honest
done
check "two renders: report.pdf byte-identical" cmp "$TMP/r1/e2e-tearsheet-honest/report.pdf" "$TMP/r2/e2e-tearsheet-honest/report.pdf"
check "two renders: the whole bundle byte-identical" diff -r "$TMP/r1/e2e-tearsheet-honest" "$TMP/r2/e2e-tearsheet-honest"
check "two renders in other places: the same PDF as the audit's own" cmp "$TMP/r1/e2e-tearsheet-honest/report.pdf" "$A/report.pdf"

# --- the XLSX sheets hold stats.json's numbers ---
xlsx_tearsheet() { # xlsx stats
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
st = json.load(open(sys.argv[2]))
def rows(name):
    return [r for r in wb[name].iter_rows(min_row=2, values_only=True) if any(v is not None for v in r)]
def near(a, b):
    return abs(a - b) <= 1e-9 * max(1, abs(b))
dd = rows("Drawdowns")
assert len(dd) == len(st["drawdowns"]), "Drawdowns rows"
for r, e in zip(dd, st["drawdowns"]):
    assert near(r[4], e["depth"]) and r[5] == e["bars"], (r, e)
    assert r[1].strftime("%Y-%m-%dT%H:%M:%SZ") == e["start"], (r, e)
mo = [r for r in rows("Monthly") if r[0]]
assert [r[0] for r in mo] == [m["month"] for m in st["monthly"]], "Monthly months"
assert all(near(r[1], m["return"]) for r, m in zip(mo, st["monthly"])), "Monthly returns"
assert all(len(r) == 2 for r in wb["Monthly"].iter_rows(values_only=True)), "Monthly holds one table"
for name in ("Monthly", "Yearly", "Long short", "Metrics", "Drawdowns", "Delay"):
    ws = wb[name]
    assert ws.auto_filter.ref == "A1:%s%d" % (chr(64 + ws.max_column), ws.max_row), (name, ws.auto_filter.ref)
de = rows("Delay")
assert [r[0] for r in de] == [1, 2, 3, 5], de
assert all(near(r[2], d["sharpe"]) and near(r[3], d["net_return"]) and r[4] == d["ruined"]
           for r, d in zip(de, st["delay_sensitivity"]))
# the page's roundings: net returns to 0.01 %, Sharpe ratios to 4 decimals
assert {wb["Delay"].cell(row=2, column=c).number_format for c in (3, 4)} == {"0.0000", "0.00%"}
co = rows("Costs")
assert [r[0] for r in co] == [c["multiple"] for c in st["cost_sensitivity"]], co
for r, c in zip(co, st["cost_sensitivity"]):
    assert r[1] == c["trades"] and near(r[2], c["sharpe"]) and near(r[4], c["net_return"]) and r[6] == c["ruined"], (r, c)
meta = {r[0]: (i, r[1]) for i, r in enumerate(wb["Cost basis"].iter_rows(min_row=1, values_only=True))}
assert meta["cost_basis"][1] == st["cost_basis"]
be_row = meta["breakeven_cost_multiple"][0] + 1
assert near(wb["Cost basis"].cell(row=be_row, column=2).value, st["breakeven_cost_multiple"])
be_fmt = wb["Cost basis"].cell(row=be_row, column=2).number_format
assert be_fmt.endswith('"x"'), be_fmt
bm = {r[0]: r for r in rows("Benchmark")}
for k in ("gross_return", "net_return", "max_drawdown", "sharpe_annualised"):
    assert near(bm[k][2], st["benchmark"][k]), k
assert near(bm["excess_return"][2], st["benchmark"]["excess_return"])
me = {r[0]: r[1] for r in rows("Metrics") if r[0]}
for k in ("volatility_annualised", "var_95", "cvar_95", "best_bar", "worst_bar", "best_month", "worst_month", "cagr"):
    assert near(me[k], st[k]), k
for k in ("window", "min", "max", "last"):
    assert near(me["rolling_volatility." + k], st["rolling_volatility"][k]), k
su = {r[0]: r[1] for r in rows("Summary") if r[0]}
assert near(su["Sharpe ratio (annualised, not Lo-corrected)"], st["sharpe_annualised"]["value"]), su
assert near(su["Sharpe ratio (annualised, Lo-corrected)"], st["sharpe_annualised_lo"]["value"]), su
ls = {r[0]: r for r in rows("Long short")}
for side in ("long", "short"):
    g, e = ls[side], st["long_short"][side]
    assert g[1] == e["trades"] and all(e[k] is None and g[i] is None or near(g[i], e[k])
                                       for i, k in ((2, "net_return"), (3, "win_rate"), (4, "sharpe"))), (g, e)
ys = rows("Yearly")
bench = {y["year"]: y["return"] for y in st["yearly_benchmark"]}
assert len(ys) == len(st["yearly"]) and all(r[0] == y["year"] and near(r[1], y["return"]) and near(r[2], bench[y["year"]])
                                            for r, y in zip(ys, st["yearly"])), ys
PYEOF
}
check "XLSX: Drawdowns, Monthly, Delay, Costs, Benchmark and Metrics hold stats.json's numbers" xlsx_tearsheet "$A/report.xlsx" "$A/stats.json"
check "XLSX: every sheet one filtered table; Tradeable prices, Cost basis, Trials and Robustness hold the stage files' figures" \
	"$PY" tests/xlsx_tables.py "$A"
# freqtrade's tables: one table a sheet, filtered over exactly its rows, stats.json's numbers
xlsx_freqtrade() { # xlsx stats
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
st = json.load(open(sys.argv[2]))
cols = ["key", "trades", "mean_return", "sum_return", "mean_bars_held", "wins", "draws", "losses"]
for sheet, key in (("Exit reasons", "by_exit_reason"), ("Entry tags", "by_entry_tag")):
    ws = wb[sheet]
    got = list(ws.iter_rows(values_only=True))
    assert list(got[0]) == cols, got[0]
    assert ws.auto_filter.ref == "A1:H%d" % (len(st[key]) + 1), (sheet, ws.auto_filter.ref)
    assert len(got) == len(st[key]) + 1, (sheet, len(got))
    for g, e in zip(got[1:], st[key]):
        assert (g[0] or "") == e["key"] and list(g[1:]) == [e[c] for c in cols[1:]], (g, e)
ws = wb["Account"]
acc = {r[0]: r[1] for r in ws.iter_rows(min_row=2, values_only=True)}
assert ws.auto_filter.ref == "A1:B%d" % (len(acc) + 1), ws.auto_filter.ref
for k in ("starting_balance", "final_balance", "profit_abs"):
    assert acc["balance." + k] == st["balance"][k], k
for k in ("market_change", "max_consecutive_wins", "max_consecutive_losses"):
    assert acc[k] == st[k], k
print(len(st["by_exit_reason"]), "exit reasons")
PYEOF
}
check "XLSX: Exit reasons, Entry tags and Account each one filtered table of stats.json's numbers" \
	xlsx_freqtrade "$A/report.xlsx" "$A/stats.json"
# the page and the PDF print each exit reason's row and the account as stats.json has them
freqtrade_shown() { # html pdf.txt stats
	"$PY" - "$1" "$2" "$3" <<'PYEOF'
import html, json, re, sys
page = html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[1]).read().split('<section id="freqtrade">')[1].split("</section>")[0]))
pdf = open(sys.argv[2]).read().split("As freqtrade reports it")[1]
st = json.load(open(sys.argv[3]))
for text, where in ((re.sub(r"\s+", " ", page), "page"), (re.sub(r"\s+", " ", pdf), "pdf")):
    for r in st["by_exit_reason"]:
        row = "%s %d %.3f %% %.2f %%" % (r["key"], r["trades"], 100 * r["mean_return"], 100 * r["sum_return"])
        assert row in text, (where, row)
    bal = "ends at %.2f" % st["balance"]["final_balance"]
    assert bal in text, (where, bal)
    assert "Most losses in a row %d trade" % st["max_consecutive_losses"] in text, where
PYEOF
}
check "the page and the PDF: freqtrade's tables, each exit reason and the final balance" \
	freqtrade_shown "$A/report.html" "$TMP/report.txt" "$A/stats.json"
# quantstats' figures: the page and the PDF print them as stats.json has them, the XLSX holds them
quant_shown() { # html pdf.txt stats xlsx
	"$PY" - "$1" "$2" "$3" "$4" <<'PYEOF'
import html, json, re, sys, openpyxl
st = json.load(open(sys.argv[3]))
page = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[1]).read())))
pdf = re.sub(r"\s+", " ", open(sys.argv[2]).read())
b = st["trade_durations"]["bars"]
rows = ["Kelly fraction %.1f %%" % (100 * st["kelly"]), "Ulcer index %.2f %%" % (100 * st["ulcer_index"]),
        "Recovery factor %.2f" % st["recovery_factor"],
        "Trade length, bars median %.0f; middle half %.0f to %.0f; all %.0f to %.0f" % (b["median"], b["p25"], b["p75"], b["min"], b["max"])]
for r in rows:
    assert r in page, ("page", r)
for r in rows[:3]:  # the PDF wraps the longer value inside its narrow column
    assert r in pdf, ("pdf", r)
me = {r[0]: r[1] for r in openpyxl.load_workbook(sys.argv[4])["Metrics"].iter_rows(min_row=2, values_only=True) if r[0]}
for k in ("kelly", "ulcer_index", "recovery_factor"):
    assert me[k] == st[k], k
assert me["trade_durations.hours.median"] == st["trade_durations"]["hours"]["median"]
PYEOF
}
check "the page, the PDF and the XLSX: Kelly, ulcer index, recovery factor and trade lengths as stats.json has them" \
	quant_shown "$A/report.html" "$TMP/report.txt" "$A/stats.json" "$A/report.xlsx"
# the page and the PDF show the risk figures as stats.json has them
risk_shown() { # html pdf.txt stats
	"$PY" - "$1" "$2" "$3" <<'PYEOF'
import html, json, re, sys
page, pdf, st = open(sys.argv[1]).read(), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
pct = lambda x, d: "%.*f %%" % (d, 100 * x)
want = {"VaR 95 % (per bar)": pct(st["var_95"], 3), "CVaR 95 % (per bar)": pct(st["cvar_95"], 3),
        "Volatility (annualised)": pct(st["volatility_annualised"], 2), "Worst month": pct(st["worst_month"], 2),
        "Sharpe ratio (annualised)": "%.3f" % st["sharpe_annualised"]["value"],
        "Sharpe ratio (annualised, Lo-corrected)": "%.3f" % st["sharpe_annualised_lo"]["value"]}
for label, value in want.items():
    row = re.search(r"<td>%s</td><td class=\"num\">([^<]*)</td>" % re.escape(html.escape(label)), page)
    assert row, label
    got = html.unescape(row.group(1))
    assert got == value, (label, got, value)
    # a long label wraps in its cell: its first line and the value share a line
    assert any(line.strip().startswith(label[:25]) and got in line for line in pdf.splitlines()), (label, got)
for side in ("long", "short"):
    assert re.search(r"<tr><td>%s</td><td class=\"num\">%d</td>" % (side, st["long_short"][side]["trades"]), page), side
# the annualised Sharpe ratio says it is not Lo-corrected, wherever it is shown, and on what basis
assert "per-bar returns of compounded net equity, scaled by the square root of bars per year; not Lo-corrected" in page
assert "Sharpe ratio (annualised, not Lo-corrected)" in page and "changes" not in re.sub(r"<[^>]+>", "", page).split("Sharpe ratio (annualised)")[1][:300]
assert "rolling_vol.png" in page and "Rolling volatility" in pdf and "Longs and shorts" in pdf
assert "buy and hold (net)" in page and "buy and hold (net)" in pdf
PYEOF
}
check "the page and the PDF show VaR, CVaR, volatility, the worst month, longs and shorts and the years" \
	risk_shown "$A/report.html" "$TMP/report.txt" "$A/stats.json"
# glitches: each said once, and the same way everywhere
check "the layout names the delimiter in words, in the page and the PDF" sh -c \
	"grep -q 'delimiter comma (,); times as' '$A/report.html' && grep -q 'delimiter comma (,); times as' '$TMP/report.txt'"
check "plain upload names: no note about copying under a safe name" sh -c \
	"! grep -q 'cannot hold is copied in' '$A/report.html' && ! grep -q 'cannot hold is copied in' '$TMP/report.txt'"
breakeven_same() { # html pdf.txt stats xlsx: every place says the multiple one way
	"$PY" - "$1" "$2" "$3" "$4" <<'PYEOF'
import html, json, math, re, sys, openpyxl
page, pdf, st = html.unescape(open(sys.argv[1]).read()), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
pdf = " ".join(pdf.split())
be = st["breakeven_cost_multiple"]
a = abs(be)
# 0 decimals from 100 up, 1 from 10, 2 from 1, three significant figures below 1
d = 0 if a >= 100 else 1 if a >= 10 else 2 if a >= 1 else 2 - math.floor(math.log10(a))
m = "%.*fx" % (d, be)
said = re.search(r"survives up to ([0-9.]+x)|at ([0-9.]+x) the configured", page)
assert said and m in said.groups(), (said and said.groups(), m)
assert "Break-even: %s the configured costs." % m in page, m
assert "break-even %s" % m in pdf and "compounded net return is zero at %s" % m in pdf, m
assert "Break-even: %s the configured costs." % m in pdf, m
ws = openpyxl.load_workbook(sys.argv[4])["Cost basis"]
cell = [r[1] for r in ws.iter_rows(min_row=1) if r[0].value == "breakeven_cost_multiple"][0]
assert cell.number_format == ("0" + ("." + "0" * d if d else "") + '"x"'), (cell.number_format, d)
PYEOF
}
delay_same() { # html pdf.txt stats: the late-fill sentence quotes the table's cells, the chart labels them so
	"$PY" - "$1" "$2" "$3" <<'PYEOF'
import html, json, re, sys
page, pdf, st = html.unescape(open(sys.argv[1]).read()), open(sys.argv[2]).read(), json.load(open(sys.argv[3]))
pdf = " ".join(pdf.split())
rows = re.findall(r"<tr><td>(t\+\d+)[^<]*</td><td class=\"num\">(\d+)</td><td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td></tr>", page)
assert [r[0] for r in rows] == ["t+%d" % r["delay_bars"] for r in st["delay_sensitivity"]], rows
for (_, trades, sharpe, net), r in zip(rows, st["delay_sensitivity"]):
    assert sharpe == "%.4f" % r["sharpe"] and trades == str(r["trades"]), (sharpe, r)
    assert net == "%.2f %%" % (100 * r["net_return"]) + (" (ruined)" if r["ruined"] else ""), (net, r)
    assert net in pdf, net  # the chart's label and the PDF's table
said = re.search(r"goes from (\S+) to (\S+) and the compounded net return to (.+?): ", page)
assert said and said.groups() == (rows[0][2], rows[-1][2], rows[-1][3]), (said and said.groups(), rows)
PYEOF
}
ticks_on_months() { # pdf.txt: the date axes of a two-year chart tick on the first of a month
	"$PY" - "$1" <<'PYEOF'
import re, sys
axes = [l.split() for l in open(sys.argv[1]) if re.fullmatch(r"\s*(\d{4}-\d\d-\d\d\s+){2,}", l + " ")]
assert len(axes) >= 5, axes
bad = [d for a in axes for d in a if not d.endswith("-01")]
assert not bad, bad
PYEOF
}
check "date ticks fall on the first of a month" ticks_on_months "$TMP/report.txt"
check "the break-even multiple reads the same in the sentence, the Costs section, the chart, the PDF and the XLSX" \
	breakeven_same "$A/report.html" "$TMP/report.txt" "$A/stats.json" "$A/report.xlsx"
check "the late-fill sentence quotes the table's figures, and the chart labels them so" \
	delay_same "$A/report.html" "$TMP/report.txt" "$A/stats.json"

# --- a path ruined at 2x costs but not at 1x: replayed, 2x and 3x are -100 % and ruined ---
D=out/e2e-tearsheet-dip
rm -rf "$D"
check "make-dip.py writes the dip's prices" "$PY" tests/fixtures/costs/make-dip.py "$TMP/dip.csv"
check "dip: make audit with 10 % fees and 5 % slippage a side exits 0" \
	make --no-print-directory audit STRATEGY=tests/fixtures/costs/dip.py DATA="$TMP/dip.csv" \
	NAME=e2e-tearsheet-dip TRIALS=1 FEE_BPS=1000 SLIPPAGE_BPS=500 PERMUTATIONS=20 LOOKAHEAD_MAX=20
expect_eq "dip: the cost rows are replayed" replayed "$(jget "$D/stats.json" cost_basis)"
expect_eq "dip: 1x is not ruined" false "$(jget "$D/stats.json" cost_sensitivity.1.ruined)"
check "dip: 1x makes money" "$PY" -c "assert $(jget "$D/stats.json" cost_sensitivity.1.net_return) > 0"
for k in 2 3; do
	expect_eq "dip: ${k}x is ruined" true "$(jget "$D/stats.json" cost_sensitivity.$k.ruined)"
	expect_eq "dip: ${k}x loses everything, -100 %" -1 "$(jget "$D/stats.json" cost_sensitivity.$k.net_return)"
done
hidden() { # trades.csv: the 1x trades with their costs doubled never reach zero, compounded
	"$PY" - "$1" <<'PYEOF'
import csv, sys
eq = 1.0
for r in csv.DictReader(open(sys.argv[1])):
    eq *= 1 + float(r["gross_return"]) - 2 * sum(float(r[k]) for k in ("fees", "slippage", "funding", "borrow"))
assert 0 < eq < 1, eq
print("rescaled 2x:", eq - 1)
PYEOF
}
check "dip: rescaling the 1x trades to 2x would not have seen the ruin" hidden "$D/trades.csv"
check "dip: every late fill, cost row and the break-even replayed again, to 1e-9" \
	"$PY" tests/recompute.py "$D" "$TMP/dip.csv"
expect_eq "dip: the page's cost table says ruined at 2x and 3x" 2 \
	"$(grep -o '<td class="num">-100.00 % (ruined)</td></tr>' "$D/report.html" | wc -l)"
check "dip: the PDF's cost table says it too" sh -c "pdftotext -layout '$D/report.pdf' - | grep -q -- '-100.00 % (ruined)'"
rm -rf "$D"

# --- the page: one static page, verdict first, each new table and chart with its line ---
check "the page reads verdict, then the checks, then the tearsheet" "$PY" - "$A/report.html" <<'PYEOF'
import sys
h = open(sys.argv[1]).read().split("<main>", 1)[-1]  # after the contents list
order = ['id="verdict"', 'id="containment"', 'id="lookahead"', 'id="tearsheet"', 'Against simply holding',
         'The bad stretches', 'Which months made the money', 'Did the edge last',
         'What if every fill came later', 'How much more could costs rise', 'Trade statistics']
at = [h.find(s) for s in order]
sys.exit(0 if all(a >= 0 for a in at) and at == sorted(at) else 1)
PYEOF
check "the page shows the interval beside the Sharpe ratio" grep -q 'Sharpe ratio (per trade), 95 % interval' "$A/report.html"
check "the month cells are coloured" grep -q '<td class="num p[123]">' "$A/report.html"
check "the page says the break-even in words" grep -q 'The edge survives up to' "$A/report.html"
for png in underwater rolling delay; do
	check "$png.png is drawn and shown" sh -c "test -s '$A/$png.png' && grep -q 'src=\"$png.png\"' '$A/report.html'"
done
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed (scripts/install-deps installs it)"
else
	mkdir -p "$TMP/chrome"
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$TMP/chrome" \
		--enable-logging=stderr --v=0 --dump-dom "file://$ROOT/$A/report.html" >"$TMP/dom.html" 2>"$TMP/chrome.log"
	check "chromium loaded the page" grep -q 'Which months made the money' "$TMP/dom.html"
	expect_eq "no console messages in chromium" "" "$(grep 'CONSOLE' "$TMP/chrome.log" || true)"
fi

# --- an audit that stopped early says why once ---
M=out/e2e-tearsheet-malicious
check "malicious: make audit exits 0" audit malicious 1 e2e-tearsheet-malicious
reason=$(jget "$M/run.json" reason 2>/dev/null)
check "malicious: the page says the audit stopped early" grep -q 'The audit stopped early at run.json' "$M/report.html"
expect_eq "malicious: no 'missing or failed' box repeats it" 0 "$(grep -c 'class="missing"' "$M/report.html")"
expect_eq "malicious: the replay's reason is said nowhere in the page" 0 "$(grep -c 'nothing to replay' "$M/report.html")"
expect_eq "malicious: each gate points up instead of repeating" 7 "$(grep -c 'not measured: the audit stopped early (above)' "$M/report.html")"
check "malicious: the PDF says it too" sh -c "pdftotext '$M/report.pdf' - | grep -q 'The audit stopped early'"
pdftotext -layout "$M/report.pdf" "$TMP/malicious.txt"
check "malicious: every section of its page is in its PDF" sections_in_order "$M/report.html" "$TMP/malicious.txt"
check "malicious: the PDF names each kind of refusal" sh -c "for r in \$('$PY' -c \"import json; print(' '.join(sorted({e['rule'] for e in json.load(open('$M/run.json')).get('refusals', [])})))\"); do grep -q \"\$r\" '$TMP/malicious.txt' || exit 1; done"
check "malicious: no page but the last is half empty" fill_check "$M/report.pdf"

# --- inspect's SA101 claims no refusal the sandbox does not make ---
printf 'import os\n\ndef signals(df):\n    return [0] * len(df)\n' >"$TMP/os.py"
"$BIN/inspect" --strategy "$TMP/os.py" -o "$TMP/inspect.json"
msg=$("$PY" -c "import json;print([f['message'] for f in json.load(open('$TMP/inspect.json'))['strategy']['flags'] if f['code']=='SA101'][0])")
check "SA101 no longer says the sandbox refuses the import" sh -c "[ -n \"$msg\" ] && ! echo \"$msg\" | grep -q 'refuses it'"
check "SA101 says what the sandbox refuses: what the module reaches" sh -c "echo \"$msg\" | grep -q 'refuses what it reaches'"

rm -rf out/e2e-tearsheet-honest out/e2e-tearsheet-overfit out/e2e-tearsheet-malicious
finish
