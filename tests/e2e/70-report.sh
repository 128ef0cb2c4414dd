#!/usr/bin/env bash
# 70-report: the report bundle (HTML, PNG, XLSX, sums, zip) is complete, reproducible, opens in
# real readers, sets the live decisions beside the backtest, and shows hostile upload text as
# text.
. "$(dirname "$0")/../lib.sh"

FIX=tests/fixtures/report
ART=tests/artifacts
mkdir -p "$ART"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)

# A fresh audit directory for one case: the fixture, optionally overlaid with other files.
make_case() { # dir [overlay-dir]
	mkdir -p "$1" && cp "$FIX"/out/* "$1"/ && touch "$1/.dir"
	if [ $# -gt 1 ]; then cp "$2"/* "$1"/; fi
}
render() { # dir name
	"$BIN/report" --dir "$1" --name "$2" --templates templates --data "$FIX/ohlcv.csv" &&
		"$BIN/bundle" --dir "$1" --name "$2"
}
# Runs headless Chromium on a page; stderr (with console messages) goes to $2.
chrome() { # url log [args...]
	local url=$1 log=$2; shift 2
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--enable-logging=stderr --v=0 --virtual-time-budget=5000 "$@" "$url" 2>"$log"
}
# Loads a copy of the page that may run one inline script reporting how many images decoded;
# prints "IMAGES ok/total". The image policy stays as in the real page.
images_loaded() { # dir
	sed -e "s|default-src 'none';|default-src 'none'; script-src 'unsafe-inline';|" \
		-e 's|</body>|<script>addEventListener("load",function(){var a=document.images,k=0;for(var i=0;i<a.length;i++)if(a[i].complete\&\&a[i].naturalWidth>0)k++;document.title="IMAGES "+k+"/"+a.length;});</script></body>|' \
		"$1/report.html" >"$1/.probe.html"
	chrome "file://$1/.probe.html" "$TMP/probe.log" --dump-dom | sed -n 's|.*<title>\(IMAGES [0-9]*/[0-9]*\)</title>.*|\1|p'
	rm -f "$1/.probe.html"
}

# Loads a copy of the page that may run one inline script naming every element that reaches
# past the page's width; prints "WIDTH w" and those elements. Headless windows are 500 px at
# least, so a narrower width narrows the page inside a 500 px window (its media queries those
# of a phone all the same).
page_width() { # dir width
	"$PY" - "$1" "$2" <<'PYEOF'
import os, re, subprocess, sys
d, w = sys.argv[1], int(sys.argv[2])
s = open(d + "/report.html").read().replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
if w < 500:
    s = s.replace("</head>", "<style>html { width: %dpx; }</style></head>" % w)
js = ('<script>addEventListener("load",function(){var m="";document.querySelectorAll("body *").forEach(function(e){'
      'var r=e.getBoundingClientRect();if(e.clientWidth>0&&(r.right>@W@+1||e.scrollWidth>e.clientWidth+1))m+=" "+e.tagName+"."+e.className;});'
      'document.title="WIDTH "+@W@+m.slice(0,300);});</script></body>').replace("@W@", str(w))
open(d + "/.width.html", "w").write(s.replace("</body>", js))
out = subprocess.run(["timeout", "120", os.environ["CHROMIUM"], "--headless", "--no-sandbox", "--disable-gpu",
                      "--hide-scrollbars", "--virtual-time-budget=5000", "--window-size=%d,2000" % max(w, 500),
                      "--dump-dom", "file://" + os.path.abspath(d) + "/.width.html"],
                     capture_output=True, text=True).stdout
os.remove(d + "/.width.html")
m = re.search(r"<title>(WIDTH[^<]*)</title>", out)
print(m.group(1) if m else "no title")
PYEOF
}
# Loads a copy of the page with a script that names every table reaching past the block that
# holds it, and measures the Statistics table's "what it means" column; prints "FIT" and those.
table_fit() { # dir width
	"$PY" - "$1" "$2" <<'PYEOF'
import os, re, subprocess, sys
d, w = sys.argv[1], int(sys.argv[2])
s = open(d + "/report.html").read().replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
if w < 500:
    s = s.replace("</head>", "<style>html { width: %dpx; }</style></head>" % w)
js = ('<script>addEventListener("load",function(){var m="";document.querySelectorAll("table").forEach(function(t){'
      'var p=t.parentElement.getBoundingClientRect(),r=t.getBoundingClientRect();'
      'if(r.right>p.right+1)m+=" over:"+(t.closest("section")||{}).id+":"+Math.round(r.right-p.right);});'
      'var h=document.querySelector("#statistics table.stats th:nth-child(3)");'
      'm+=" meaning:"+(h?Math.round(h.getBoundingClientRect().width):0);document.title="FIT"+m;});</script></body>')
open(d + "/.fit.html", "w").write(s.replace("</body>", js))
out = subprocess.run(["timeout", "120", os.environ["CHROMIUM"], "--headless", "--no-sandbox", "--disable-gpu",
                      "--hide-scrollbars", "--virtual-time-budget=5000", "--window-size=%d,2000" % max(w, 500),
                      "--dump-dom", "file://" + os.path.abspath(d) + "/.fit.html"], capture_output=True, text=True).stdout
os.remove(d + "/.fit.html")
m = re.search(r"<title>FIT([^<]*)</title>", out)
if not m:
    sys.exit("no title")
over = [x for x in m.group(1).split() if x.startswith("over:")]
meaning = int(m.group(1).split("meaning:")[1])
need = 200 if w >= 1000 else 120
print("FIT" if not over and meaning >= need else "FIT " + m.group(1).strip())
PYEOF
}
# Loads a copy of the page with a script that counts the words of prose broken across two lines
# (a break after a hyphen is a word's own; pre, code, hashes and folded-away text are not prose);
# prints "BREAKS n" and the first of them.
word_breaks() { # dir width
	"$PY" - "$1" "$2" <<'PYEOF'
import os, re, subprocess, sys
d, w = sys.argv[1], int(sys.argv[2])
s = open(d + "/report.html").read().replace("default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';")
if w < 500:
    s = s.replace("</head>", "<style>html { width: %dpx; }</style></head>" % w)
js = ('<script>addEventListener("load",function(){var m=[],n=0,tw=document.createTreeWalker(document.body,NodeFilter.SHOW_TEXT);'
      'while(tw.nextNode()){var t=tw.currentNode,p=t.parentElement;if(!p||p.closest("pre,code,.hash,details:not([open])"))continue;'
      'var re=/[^\\s-]+-?/g,x;while((x=re.exec(t.data))){var r=document.createRange();r.setStart(t,x.index);r.setEnd(t,x.index+x[0].length);'
      'var tops={},k=0;Array.prototype.forEach.call(r.getClientRects(),function(c){var y=Math.round(c.top);if(c.width>0&&!tops[y]){tops[y]=1;k++;}});'
      'if(k>1){n++;if(m.length<8)m.push(x[0]);}}}'
      'document.title="BREAKS "+n+(m.length?" "+m.join(" "):"");});</script></body>')
open(d + "/.breaks.html", "w").write(s.replace("</body>", js))
out = subprocess.run(["timeout", "120", os.environ["CHROMIUM"], "--headless", "--no-sandbox", "--disable-gpu",
                      "--hide-scrollbars", "--virtual-time-budget=5000", "--window-size=%d,2000" % max(w, 500),
                      "--dump-dom", "file://" + os.path.abspath(d) + "/.breaks.html"], capture_output=True, text=True).stdout
os.remove(d + "/.breaks.html")
m = re.search(r"<title>(BREAKS[^<]*)</title>", out)
print(m.group(1) if m else "no title")
PYEOF
}
# The order of the page's sections, by id.
section_order() { # html
	"$PY" - "$1" <<'PYEOF'
import re, sys
s = open(sys.argv[1]).read()
print(" ".join(re.findall(r'<(?:section|div class="banner bad fiction") id="([^"]+)"', s)))
PYEOF
}

# Every link of the contents list names an id of the page, and every section is linked.
contents_check() { # html
	"$PY" - "$1" <<'PYEOF'
import re, sys
s = open(sys.argv[1]).read()
nav = re.search(r'<nav class="contents"[^>]*>(.*?)</nav>', s, re.S).group(1)
links = re.findall(r'href="#([^"]+)"', nav)
ids = set(re.findall(r' id="([^"]+)"', s))
sections = re.findall(r'<section id="([^"]+)"', s)
bad = [l for l in links if l not in ids] + [x for x in sections if x not in links and x != "tearsheet"]
sys.exit("unmatched: %s" % bad if bad else 0)
PYEOF
}
export CHROMIUM

A=$TMP/a/demo B=$TMP/b/demo
make_case "$A"
make_case "$B"
check "report and bundle run on the fixture audit" render "$A" demo
check "a second run in another directory succeeds" render "$B" demo

for f in report.html report.pdf report.xlsx equity.png underwater.png rolling.png rolling_vol.png returns.png costs.png delay.png \
	signals.png permutation.png warmup.png sha256sums.txt demo.zip; do
	check "$f written" test -s "$A/$f"
done
diffs=$(cd "$A" && for f in *; do cmp -s "$f" "$B/$f" || echo "$f"; done)
expect_eq "two runs give byte-identical files, zip included" "" "$diffs"
check "two runs list the same files" diff <(ls -A "$A") <(ls -A "$B")

check "sha256sum -c --strict accepts the sums" sh -c "cd '$A' && sha256sum -c --strict --quiet sha256sums.txt"
expect_eq "the sums cover every file but the zip, the sums and dot-files" \
	"$(cd "$A" && ls | grep -vx 'demo.zip' | grep -vx sha256sums.txt)" "$(awk '{print $2}' "$A/sha256sums.txt")"
names=$(unzip -Z1 "$A/demo.zip")
expect_eq "the zip holds the bundle under demo/, sorted" \
	"$(cd "$A" && ls | grep -vx demo.zip | sed 's|^|demo/|' | LC_ALL=C sort)" "$names"
entries=$(zipinfo -T "$A/demo.zip" 2>/dev/null | grep -c '^-')
expect_eq "every zip entry carries the fixed time 2000-01-01 00:00" "$entries of $entries" \
	"$(zipinfo -T "$A/demo.zip" 2>/dev/null | grep '^-' | grep -c ' 20000101.000000 ') of $entries"
[ "${entries:-0}" -gt 0 ] || not_ok "zipinfo lists the zip's entries"
mkdir -p "$TMP/unz"
check "the unpacked zip verifies against its own sums" \
	sh -c "cd '$TMP/unz' && unzip -q '$A/demo.zip' && cd demo && sha256sum -c --strict --quiet sha256sums.txt"
touch -d '2011-11-11 11:11' "$B"/*.json
TZ=Asia/Tokyo "$BIN/bundle" --dir "$B" --name demo
check "the zip does not depend on file times or the time zone" cmp "$A/demo.zip" "$B/demo.zip"

# Charts: something is drawn inside each plot area. The chart PNG is decoded here (zlib, numpy,
# the five PNG row filters and the palette, no imaging library) and the coloured pixels inside the plot area are
# counted: grid, frame, axis labels and the "Not drawn" box are grey, every data series is in
# colour. A blank or data-less chart of the right size fails; a blank one is fed in to show it.
chart_ink() { # png: prints "W H coloured"; exits 1 below 2000 coloured pixels (0.15% of the area)
	"$PY" - "$1" <<'PYEOF'
import struct, sys, zlib
import numpy as np
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
i, idat, ihdr, plte = 8, b"", None, None
while i < len(b):
    n, t = struct.unpack(">I4s", b[i:i + 8])
    if t == b"IHDR":
        ihdr = struct.unpack(">IIBBBBB", b[i + 8:i + 8 + n])
    elif t == b"PLTE":
        plte = np.frombuffer(b[i + 8:i + 8 + n], dtype=np.uint8).reshape(-1, 3).astype(np.int64)
    elif t == b"IDAT":
        idat += b[i + 8:i + 8 + n]
    i += 12 + n
w, h, depth, ctype, _, _, interlace = ihdr
assert (w, h) == (2000, 1080), ("not the charts' size", w, h)
assert depth == 8 and ctype in (2, 3, 6) and interlace == 0, ("not 8-bit RGB/RGBA/palette", depth, ctype, interlace)
assert ctype != 3 or plte is not None, "a palette image without its palette"
bpp = {2: 3, 3: 1, 6: 4}[ctype]
raw = zlib.decompress(idat)
assert len(raw) == h * (w * bpp + 1), "the image data is not the size of its rows"
rows = np.frombuffer(raw, dtype=np.uint8).reshape(h, w * bpp + 1)
filt, data = rows[:, 0].astype(np.int64), rows[:, 1:].reshape(h, w, bpp).astype(np.int64)
assert filt.max() <= 4, "bad filter %d" % filt.max()
# Each pixel is filtered against its left (a), upper (b) and upper-left (c) neighbours, so the
# pixels on one anti-diagonal (y + x = d) depend only on earlier ones: decoded a diagonal at a
# time, every row's own filter. out has a zero row above and a zero column left of the image.
out = np.zeros((h + 1, w + 1, bpp), dtype=np.int64)
for d in range(w + h - 1):
    ys = np.arange(max(0, d - w + 1), min(h - 1, d) + 1)
    xs = d - ys
    a, up, c = out[ys + 1, xs], out[ys, xs + 1], out[ys, xs]
    p = a + up - c
    pa, pb, pc = np.abs(p - a), np.abs(p - up), np.abs(p - c)
    paeth = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, up, c))
    f = filt[ys][:, None]
    pred = np.select([f == 1, f == 2, f == 3, f == 4], [a, up, (a + up) // 2, paeth], 0)
    out[ys + 1, xs + 1] = (data[ys, xs] + pred) & 255
img = out[1:, 1:]
if ctype == 3:
    assert img.max() < len(plte), "a pixel names no colour of the palette"
    img = plte[img[:, :, 0]]
# Inside every chart's frame: logical x 80..926, y 82..486, drawn at twice the density.
px = img[164:972, 160:1852, :3]
coloured = int(np.count_nonzero(px.max(axis=2) - px.min(axis=2) > 24))
print(w, h, coloured)
sys.exit(coloured < 2000)
PYEOF
}
"$PY" -c 'import struct, sys, zlib
def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d))
row = b"\0" + b"\xff" * 6000
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 2000, 1080, 8, 2, 0, 0, 0))
    + chunk(b"IDAT", zlib.compress(row * 1080)) + chunk(b"IEND", b""))' >"$TMP/blank.png"
if chart_ink "$TMP/blank.png" >"$TMP/blank.out" 2>&1; then
	not_ok "the chart check fails on a blank 2000x1080 chart" "$(cat "$TMP/blank.out")"
else
	ok "the chart check fails on a blank 2000x1080 chart ($(tail -n 1 "$TMP/blank.out"))"
fi
for f in equity returns costs signals permutation warmup; do
	if chart_ink "$A/$f.png" >"$TMP/ink.out" 2>&1; then
		ok "$f.png has data drawn inside its plot area ($(cut -d' ' -f3 "$TMP/ink.out") coloured pixels)"
	else
		not_ok "$f.png has data drawn inside its plot area" "$(tail -n 3 "$TMP/ink.out")"
	fi
done

# HTML: the sections in order, each value escaped, no script.
order=$(grep -o '<section id="[a-z]*"' "$A/report.html" | sed 's/.*id="\(.*\)"/\1/' | tr '\n' ' ')
expect_eq "sections in the documented order" \
	"verdict gates vetoes containment lookahead tearsheet freqtrade robustness inspection costs statistics trials neighbourhood selection trades data fingerprint limitations " "$order"
expect_eq "no script element in the report" 0 "$(grep -ci '<script' "$A/report.html")"
check "the verdict from verdict.json is in the banner" grep -q "<div class=\"verdict\">$(jget "$A/verdict.json" verdict)</div>" "$A/report.html"
check "the strategy sha256 is in the fingerprint" grep -q "$(jget "$A/fingerprint.json" strategy_sha256)" "$A/report.html"

# XLSX through a real reader.
xlsx_check() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys, zipfile, datetime
import openpyxl
path, verdict = sys.argv[1], json.load(open(sys.argv[2]))
wb = openpyxl.load_workbook(path)
want = ["Summary", "Gates", "Vetoes", "Trades", "Equity", "LookAhead", "LookAhead mismatches", "Robustness",
        "Later starts", "Variants", "Trials", "Containment", "Inspection", "Metrics", "Long short", "Drawdowns",
        "Monthly", "Yearly", "Delay", "Costs", "Cost basis", "Tradeable prices", "Benchmark", "Selection",
        "Neighbourhood", "Neighbourhood measure", "Exit reasons", "Entry tags", "Account"]
assert wb.sheetnames == want, wb.sheetnames
g = wb["Gates"]
rows = list(g.iter_rows(min_row=2, values_only=True))
assert len(rows) == len(verdict["gates"]) == 6, rows
for row, gate in zip(rows, verdict["gates"]):
    assert row[0] == gate["name"], (row, gate)
    assert abs(row[1] - gate["value"]) < 1e-12 and abs(row[2] - gate["threshold"]) < 1e-12, (row, gate)
    assert row[3] is gate["pass"], (row, gate)
    assert row[4] in (gate["why"], "'" + gate["why"]), (row, gate)
for ws in wb.worksheets:
    assert ws.freeze_panes == "A2", (ws.title, ws.freeze_panes)
    for row in ws.iter_rows():
        for c in row:
            assert c.data_type != "f", ("formula cell", ws.title, c.coordinate, c.value)
t = wb["Trades"]
assert isinstance(t["A2"].value, datetime.datetime) and t["A2"].number_format == "yyyy-mm-dd hh:mm"
assert t["K1"].value == "borrow" and isinstance(t["L2"].value, float) and "%" in t["L2"].number_format
assert wb.properties.created == datetime.datetime(2000, 1, 1), wb.properties.created
z = zipfile.ZipFile(path)
assert any(n.startswith("xl/charts/chart") for n in z.namelist()), "no native chart"
assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}, {i.date_time for i in z.infolist()}
PYEOF
}
check "openpyxl reads report.xlsx; Gates agrees with verdict.json; dates, formats, chart, fixed times" \
	xlsx_check "$A/report.xlsx" "$A/verdict.json"
check "openpyxl: every sheet of report.xlsx one table with a filter over exactly it, the split figures the stage files'" \
	"$PY" tests/xlsx_tables.py "$A"

# Chromium: renders with no console message at all, every image decoded; screenshot kept.
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed (scripts/install-deps installs it)"
else
	rm -f "$ART/report.png" "$ART/report-hostile.png"
	chrome "file://$A/report.html" "$TMP/chrome.log" --window-size=1200,7000 --screenshot="$ROOT/$ART/report.png" >/dev/null
	check "chromium took a screenshot" test -s "$ART/report.png"
	expect_no_match "no console messages in chromium" "$TMP/chrome.log" CONSOLE
	expect_eq "chromium loaded every image" "IMAGES 10/10" "$(images_loaded "$A")"
	for w in 1280 375; do
		expect_eq "at $w px nothing sticks out: no horizontal scrolling" "WIDTH $w" "$(page_width "$A" "$w")"
		expect_eq "at $w px every table fits its column, and 'what it means' keeps its width" FIT \
			"$(table_fit "$A" "$w")"
		expect_eq "at $w px no word of prose breaks in the middle" "BREAKS 0" "$(word_breaks "$A" "$w")"
	done
	# the probe sees a break: cells forced to cut their words
	mkdir -p "$TMP/wb" && sed 's|</head>|<style>td { word-break: break-all; }</style></head>|' "$A/report.html" >"$TMP/wb/report.html"
	got=$(word_breaks "$TMP/wb" 375)
	check "the word-break probe notices words cut at 375 px (${got%% *} ${got#* })" test "$got" != "BREAKS 0"
	rm "$A/costs.png"
	expect_eq "the image probe notices a missing image" "IMAGES 9/10" "$(images_loaded "$A")"
fi
check "the contents list links only to places in the page, and to every section" contents_check "$A/report.html"

# A rejection leads with its finding: containment and look-ahead right after the verdict, then a
# heading saying the performance below describes a backtest that could not have been traded.
expect_eq "a report that passes its checks shows them before the performance, and no rejection heading" \
	"verdict gates vetoes containment lookahead tearsheet" "$(section_order "$A/report.html" | cut -d' ' -f1-6)"
for v in REJECTED_LOOKAHEAD REJECTED_UNSAFE; do
	R=$TMP/r/$v
	make_case "$R"
	"$PY" - "$R/verdict.json" "$v" <<'PYEOF'
import json, sys
v = json.load(open(sys.argv[1])); v["verdict"] = sys.argv[2]
json.dump(v, open(sys.argv[1], "w"))
PYEOF
	check "the report renders a $v verdict" render "$R" demo
	expect_eq "$v leads with its finding, the performance after a heading that says it could not be traded" \
		"verdict gates vetoes containment lookahead fiction tearsheet" "$(section_order "$R/report.html" | cut -d' ' -f1-7)"
	check "$v: the PDF has the heading before the performance" sh -c \
		"pdftotext '$R/report.pdf' - | tr '\n' ' ' | grep -q 'could not have been traded.*Against simply holding'"
done
expect_no_match "the look-ahead table lists each bar once, its headers aligned with its numbers" "$A/report.html" \
	'<th>truncation point</th>'

# Live against the backtest: the live decisions scored (replay.json "scored"), the backtest's
# curve beside them (backtest_equity.csv), the first bars that differ (lookahead.json live), in
# the page, the PDF, the XLSX and the bundle; and, when the live decisions were not scored, why.
L=$TMP/l/demo
make_case "$L"
"$PY" - "$L" REJECTED_LOOKAHEAD <<'PYEOF'
import csv, json, sys
d, verdict = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(d + "/equity.csv")))
with open(d + "/backtest_equity.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["time", "position", "gross_equity", "net_equity"])
    for i, r in enumerate(rows):
        k = 1 + 0.4 * i / (len(rows) - 1)
        w.writerow([r["time"], r["position"], "%.10g" % (float(r["gross_equity"]) * k), "%.10g" % (float(r["net_equity"]) * k)])
live, back = float(rows[-1]["net_equity"]) - 1, float(rows[-1]["net_equity"]) * 1.4 - 1
rp = json.load(open(d + "/replay.json"))
rp.update({"net_return": live, "scored": "live", "scored_reason": None,
           "backtest": {"trades": 41, "net_return": back, "gross_return": 0.5},
           "live_vs_backtest": {"differing_bars": 12, "net_return_live": live, "net_return_backtest": back,
                                "difference": back - live}})
json.dump(rp, open(d + "/replay.json", "w"))
la = json.load(open(d + "/lookahead.json"))
la["live"] = {"ok": True, "reason": None, "bars": 1500, "decided": 1200, "complete": False, "window": 1024,
              "differing": 12, "confirmed_leaks": 3, "memory_mismatches": 1,
              "first_differences": [{"bar": 812, "time": "2024-02-03T20:00:00Z", "backtest": 1, "live": 0, "confirmed": "leak"},
                                    {"bar": 901, "time": "2024-02-07T13:00:00Z", "backtest": -1, "live": 1, "confirmed": "unconfirmed"}],
              "sample": {"drawn": 299, "disagreeing": 0, "share": 0.01, "confidence": 0.95}, "signals": []}
json.dump(la, open(d + "/lookahead.json", "w"))
v = json.load(open(d + "/verdict.json"))
v["verdict"] = verdict
json.dump(v, open(d + "/verdict.json", "w"))
PYEOF
check "report and bundle run with the live decisions scored" render "$L" demo
check "live.png written" test -s "$L/live.png"
if chart_ink "$L/live.png" >"$TMP/ink.out" 2>&1; then
	ok "live.png has both curves drawn inside its plot area ($(cut -d' ' -f3 "$TMP/ink.out") coloured pixels)"
else
	not_ok "live.png has both curves drawn inside its plot area" "$(tail -n 3 "$TMP/ink.out")"
fi
expect_eq "the live section follows the look-ahead's, then the heading over the performance" \
	"verdict gates vetoes containment lookahead live fiction tearsheet" "$(section_order "$L/report.html" | cut -d' ' -f1-8)"
check "the contents list links the live section too" contents_check "$L/report.html"
live_page() {
	"$PY" - "$1" <<'PYEOF'
import html, json, re, sys
d = sys.argv[1]
page = html.unescape(open(d + "/report.html").read())
sec = re.search(r'<section id="live">(.*?)</section>', page, re.S).group(1)
rp = json.load(open(d + "/replay.json"))
lb = rp["live_vs_backtest"]
want = ["what the backtest's sight of bars it could not have had is worth",
        "makes %.2f %% net over 32 trades" % (100 * lb["net_return_live"]),
        "claims %.2f %% over 41 trades" % (100 * lb["net_return_backtest"]),
        "is %+.2f %%" % (100 * lb["difference"]), "12 bars were decided differently",
        "1200 of the 1500 bars were decided live",
        "299 of them, drawn from a secret seed, found 0 that disagree: a look-ahead acting on 1 % of the bars "
        "would have been caught with 95 % confidence",
        "The first: at bar 812 (2024-02-03T20:00:00Z) the backtest went long, while with only the past it stayed flat.",
        '<td class="num">901</td><td class="mono">2024-02-07T13:00:00Z</td><td>short</td><td>long</td><td>not confirmed</td>',
        'src="live.png"']
bad = [w for w in want if w not in sec]
if "Every figure from here on scores the live decisions" not in page:
    bad.append("the heading over the performance says the figures score the live decisions")
print("; ".join(bad) if bad else "ok")
PYEOF
}
expect_eq "the page says what the difference is worth, how the bars were decided, the first bars with both decisions" \
	ok "$(live_page "$L")"
check "the PDF has the section and the first bar with both decisions" sh -c \
	"pdftotext '$L/report.pdf' - | tr '\n' ' ' | grep -q 'Live against the backtest.*The first: at bar 812 (2024-02-03T20:00:00Z) the backtest went long, while with only the past it stayed flat.*The backtest could not have been traded'"
live_xlsx() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
import openpyxl
d = sys.argv[1]
wb = openpyxl.load_workbook(d + "/report.xlsx")
names = wb.sheetnames
assert names.index("Live") == names.index("LookAhead mismatches") + 1, names
assert names.index("Live differences") == names.index("Live") + 1, names
rows = {r[0]: r[1] for r in wb["Live"].iter_rows(min_row=2, values_only=True) if r[0]}
rp = json.load(open(d + "/replay.json"))
for k, v in rp["live_vs_backtest"].items():
    assert abs(rows["live_vs_backtest." + k] - v) <= 1e-12 * max(1, abs(v)), (k, rows.get("live_vs_backtest." + k), v)
assert rows["backtest.trades"] == 41 and rows["scored"] == "live", rows
assert rows["live.decided"] == 1200 and rows["live.sample.drawn"] == 299, rows
first = [r for r in wb["Live differences"].iter_rows(values_only=True) if r[0] == 812]
assert first and first[0][1:5] == ("2024-02-03T20:00:00Z", 1, 0, "leak"), first
assert wb["Live"].freeze_panes == "A2"
print("ok")
PYEOF
}
expect_eq "the XLSX has the sheets Live and Live differences after LookAhead's, its figures replay.json's and lookahead.json's" ok \
	"$(live_xlsx "$L" 2>&1 | tail -n 1)"
check "openpyxl: the live case's sheets each one filtered table of the stage files' figures" "$PY" tests/xlsx_tables.py "$L"
check "the bundle's sums list backtest_equity.csv" grep -q '  backtest_equity.csv$' "$L/sha256sums.txt"
check "the zip holds backtest_equity.csv and live.png" sh -c \
	"unzip -Z1 '$L/demo.zip' | grep -qx demo/backtest_equity.csv && unzip -Z1 '$L/demo.zip' | grep -qx demo/live.png"
check "the sums of the live bundle verify" sh -c "cd '$L' && sha256sum -c --strict --quiet sha256sums.txt"
if [ -n "$CHROMIUM" ]; then
	expect_eq "chromium loaded every image of the live page" "IMAGES 11/11" "$(images_loaded "$L")"
	expect_eq "at 375 px the live page's tables fit" FIT "$(table_fit "$L" 375)"
fi
# the live decisions not scored: the section says why, the chart draws no curve
N=$TMP/n/demo
make_case "$N"
"$PY" - "$N/replay.json" <<'PYEOF'
import json, sys
rp = json.load(open(sys.argv[1]))
rp.update({"scored": "backtest", "scored_reason": "lookahead.json has no live object: no bar was decided live",
           "backtest": {"trades": 32, "net_return": rp["net_return"], "gross_return": rp["gross_return"]},
           "live_vs_backtest": None})
json.dump(rp, open(sys.argv[1], "w"))
PYEOF
cp "$N/equity.csv" "$N/backtest_equity.csv"
check "report and bundle run with the backtest scored" render "$N" demo
check "the section says why the live decisions were not scored" grep -q \
	"The live decisions were not scored: lookahead.json has no live object: no bar was decided live." "$N/report.html"
if chart_ink "$N/live.png" >"$TMP/ink.out" 2>&1; then
	not_ok "live.png then draws no curve" "$(cat "$TMP/ink.out")"
else
	ok "live.png then draws no curve ($(tail -n 1 "$TMP/ink.out"))"
fi

# What the run printed folds away under one line that counts it; a gate's result says in words
# what failed, its threshold how the value must stand to it.
W=$TMP/w/noisy
make_case "$W"
"$PY" - "$W/run.json" <<'PYEOF'
import json, sys
r = json.load(open(sys.argv[1]))
warn = "strategy.py:9: PerformanceWarning: DataFrame is highly fragmented.\n  frame[c] = x\n"
r["stderr"] = warn * 3 + "strategy.py:12: FutureWarning: fillna(method=) is deprecated\n"
json.dump(r, open(sys.argv[1], "w"))
PYEOF
check "the report renders a run that printed warnings" render "$W" noisy
summary="The run&#39;s standard error, as far as the sandbox kept it: 7 lines, among them 3 PerformanceWarnings and 1 FutureWarning."
check "the printed text folds under a summary counting each kind of warning" \
	grep -q "<details class=\"log\"><summary>$summary Open to read it.</summary><pre>strategy.py:9: PerformanceWarning" "$W/report.html"
check "the PDF says the summary, and where the text is, not the text" sh -c \
	"pdftotext '$W/report.pdf' - | tr '\n' ' ' | grep -q 'among them 3 PerformanceWarnings and 1 FutureWarning. The text is in run.json' &&
	 ! pdftotext '$W/report.pdf' - | grep -q 'frame\[c\] = x'"
# A chart is drawn only when its sample supports it: a rolling Sharpe ratio over a window that
# holds a trade or two is said to be too thin, not drawn.
S=$TMP/s/sparse
make_case "$S"
"$PY" - "$S/stats.json" <<'PYEOF'
import json, sys
st = json.load(open(sys.argv[1]))
st["trades"] = 4
st["rolling_sharpe"] = {"window": 375, "basis": "bars", "min": -10.2, "max": 9.8, "last": 1.0, "share_positive": 0.5}
json.dump(st, open(sys.argv[1], "w"))
PYEOF
check "the report renders a strategy of 4 trades" render "$S" sparse
check "4 trades: the rolling Sharpe ratio is said to be too thin, not drawn" sh -c \
	"grep -q 'The rolling Sharpe ratio is not drawn: its window of 375 bars holds 1.0 trade on average (4 trades over 1500 bars)' '$S/report.html' &&
	 ! grep -q 'src=\"rolling.png\"' '$S/report.html' &&
	 pdftotext '$S/report.pdf' - | tr '\n' ' ' | grep -q 'The rolling Sharpe ratio is not drawn'"
check "32 trades: the rolling Sharpe ratio is drawn" grep -q 'src="rolling.png"' "$A/report.html"
gate_words() { # html verdict
	"$PY" - "$1" "$2" <<'PYEOF'
import html, json, re, sys
page = open(sys.argv[1]).read().split('<section id="gates">')[1].split("</section>")[0]
rows = re.findall(r"<tr><td class=\"mono\">([^<]*)</td><td class=\"num\">([^<]*)</td><td class=\"num\">([^<]*)</td>\s*"
                  r"<td><span class=\"(pass|fail)\">([^<]*)</span></td>", page)
gates = json.load(open(sys.argv[2]))["gates"]
assert len(rows) == len(gates), (rows, len(gates))
for (name, value, threshold, cls, result), g in zip(rows, gates):
    assert name == g["name"] and cls == ("pass" if g["pass"] else "fail"), (name, cls, g)
    assert result == "pass" if g["pass"] else result.startswith("fail: ") and len(result) > 12, result
    assert re.match(r"(at least|at most|above|below) ", html.unescape(threshold)), threshold
print(len(rows), "gates")
PYEOF
}
check "each gate's result says what failed, its threshold how to pass" gate_words "$A/report.html" "$A/verdict.json"

# Hostile upload text: never markup, never a formula.
H=$TMP/h/evil
make_case "$H" "$FIX/hostile"
check "report and bundle run on a hostile upload" render "$H" evil
expect_no_match "hostile markup never appears raw in the HTML" "$H/report.html" \
	'<img src=x' '<iframe' '</script>' '<b>bold'
check "hostile markup appears escaped, as text" grep -q '&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;' "$H/report.html"
check "containment events are listed as red rows" grep -q '<tr class="red"><td class="num">2</td><td class="mono">socket.connect</td>' "$H/report.html"
check "the undecodable events line is reported, not fatal" grep -q 'line(s) of events.jsonl were not JSON objects' "$H/report.html"
check "the hostile verdict is shown" grep -q '<div class="verdict">REJECTED_UNSAFE</div>' "$H/report.html"
hostile_xlsx() {
	"$PY" - "$1" <<'PYEOF'
import sys, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
found = 0
for ws in wb.worksheets:
    for row in ws.iter_rows():
        for c in row:
            assert c.data_type != "f", (ws.title, c.coordinate, c.value)
            if isinstance(c.value, str) and "HYPERLINK" in c.value:
                assert c.value.startswith("'="), c.value
                found += 1
assert found >= 2, found
assert wb["Inspection"]["F3"].value == "'@SUM(1+1)", wb["Inspection"]["F3"].value
assert wb["Containment"]["D2"].value.endswith("<img src=x onerror=alert(1)>")
PYEOF
}
check "hostile text in the xlsx is text, formula-like cells quoted" hostile_xlsx "$H/report.xlsx"
if [ -n "$CHROMIUM" ]; then
	chrome "file://$H/report.html" "$TMP/chrome-h.log" --window-size=1200,7000 --screenshot="$ROOT/$ART/report-hostile.png" >/dev/null
	check "chromium took a screenshot of the hostile page" test -s "$ART/report-hostile.png"
	expect_no_match "the hostile page logs nothing in chromium" "$TMP/chrome-h.log" CONSOLE
	expect_eq "the hostile page has exactly the ten chart images" "IMAGES 10/10" "$(images_loaded "$H")"
fi

# Missing and failed inputs are reported, never fatal.
M=$TMP/m/gone
make_case "$M"
rm "$M/stats.json" "$M/equity.csv" "$M/verdict.json"
long_reason="sandbox <failed> $(printf 'wordy %.0s' $(seq 80))END"
printf '{"stage":"lookahead","schema":1,"ok":false,"reason":"%s"}\n' "$long_reason" >"$M/lookahead.json"
check "report still renders with inputs missing" render "$M" gone
pdftotext "$M/report.pdf" "$TMP/gone.txt"
# nothing unmeasured is said as measured, and a reason too long to quote whole is cut at a word
check "look-ahead unchecked: page and PDF say so, and neither says none was found" sh -c \
	"grep -q 'look-ahead was not checked' '$M/report.html' && ! grep -q 'no look-ahead was found' '$M/report.html' &&
	 tr '\n' ' ' <'$TMP/gone.txt' | grep -q 'look-ahead was not checked' && ! grep -q 'no look-ahead was found' '$TMP/gone.txt'"
check "stats.json missing: Ruined is n/a, not no; no trials said counted" sh -c \
	"grep -q '<td>Ruined</td><td class=\"num\">n/a</td>' '$M/report.html' &&
	 grep -q 'No trials were counted and no Sharpe ratio was deflated' '$M/report.html' &&
	 ! grep -q 'counts n/a trials' '$M/report.html' && ! grep -q 'up to lag 0' '$M/report.html'"
check "a failed stage's long reason is cut after a whole word, marked [...]" sh -c \
	"grep -q 'wordy \[\.\.\.\]' '$M/report.html' && ! grep -q 'wordy END' '$M/report.html' && ! grep -qE ' (w|wo|wor|word) \[' '$M/report.html'"
for f in stats.json equity.csv verdict.json lookahead.json; do
	check "the page says $f is missing or failed" grep -q "Missing or failed: $f" "$M/report.html"
done
check "the failed stage's reason is escaped" grep -q 'sandbox &lt;failed&gt;' "$M/report.html"
if [ ! -s "$M/equity.png" ]; then
	not_ok "an equity chart without equity.csv is written"
elif chart_ink "$M/equity.png" >"$TMP/ink.out" 2>&1; then
	not_ok "an equity chart without equity.csv is not taken for a drawn one" "$(cat "$TMP/ink.out")"
else
	ok "an equity chart without equity.csv is not taken for a drawn one ($(tail -n 1 "$TMP/ink.out"))"
fi
check "the sums of a partial bundle verify" sh -c "cd '$M' && sha256sum -c --strict --quiet sha256sums.txt"

# The command line.
"$BIN/report" --dir "$A" >/dev/null 2>&1
expect_eq "report exits 2 on a bad command line" 2 $?
"$BIN/bundle" --dir "$A" --name ../x >/dev/null 2>&1
expect_eq "bundle refuses a name with a slash (exit 2)" 2 $?
"$BIN/bundle" --dir "$TMP/nonexistent" --name x >/dev/null 2>&1
expect_eq "bundle exits 3 when the directory cannot be read" 3 $?
check "report --help documents the exit codes" sh -c "'$BIN/report' --help | grep -q 'exit codes'"
check "bundle --help documents the exit codes" sh -c "'$BIN/bundle' --help | grep -q 'exit codes'"
finish
