#!/usr/bin/env bash
# 70-report: the report bundle (HTML, PNG, XLSX, sums, zip) is complete, reproducible, opens in
# real readers and shows hostile upload text as text.
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

A=$TMP/a/demo B=$TMP/b/demo
make_case "$A"
make_case "$B"
check "report and bundle run on the fixture audit" render "$A" demo
check "a second run in another directory succeeds" render "$B" demo

for f in report.html report.xlsx equity.png returns.png costs.png signals.png sha256sums.txt demo.zip; do
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
expect_eq "every zip entry carries the fixed time 2000-01-01 00:00" "" \
	"$(zipinfo -T "$A/demo.zip" | grep '^-' | grep -v ' 20000101.000000 ' || true)"
mkdir -p "$TMP/unz"
check "the unpacked zip verifies against its own sums" \
	sh -c "cd '$TMP/unz' && unzip -q '$A/demo.zip' && cd demo && sha256sum -c --strict --quiet sha256sums.txt"
touch -d '2011-11-11 11:11' "$B"/*.json
TZ=Asia/Tokyo "$BIN/bundle" --dir "$B" --name demo
check "the zip does not depend on file times or the time zone" cmp "$A/demo.zip" "$B/demo.zip"

# HTML: the sections in order, each value escaped, no script.
order=$(grep -o '<section id="[a-z]*"' "$A/report.html" | sed 's/.*id="\(.*\)"/\1/' | tr '\n' ' ')
expect_eq "sections in the documented order" \
	"verdict gates vetoes containment lookahead inspection costs statistics trades data fingerprint limitations " "$order"
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
want = ["Summary", "Gates", "Trades", "Equity", "LookAhead", "Containment", "Inspection"]
assert wb.sheetnames == want, wb.sheetnames
g = wb["Gates"]
rows = [r for r in g.iter_rows(min_row=2, values_only=True) if r[0] != "veto"]
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
assert isinstance(t["K2"].value, float) and "%" in t["K2"].number_format
assert wb.properties.created == datetime.datetime(2000, 1, 1), wb.properties.created
z = zipfile.ZipFile(path)
assert any(n.startswith("xl/charts/chart") for n in z.namelist()), "no native chart"
assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}, {i.date_time for i in z.infolist()}
PYEOF
}
check "openpyxl reads report.xlsx; Gates agrees with verdict.json; dates, formats, chart, fixed times" \
	xlsx_check "$A/report.xlsx" "$A/verdict.json"

# Chromium: renders with no console message at all, every image decoded; screenshot kept.
if [ -z "$CHROMIUM" ]; then
	not_ok "chromium is installed (scripts/install-deps installs it)"
else
	rm -f "$ART/report.png" "$ART/report-hostile.png"
	chrome "file://$A/report.html" "$TMP/chrome.log" --window-size=1200,7000 --screenshot="$ROOT/$ART/report.png" >/dev/null
	check "chromium took a screenshot" test -s "$ART/report.png"
	expect_eq "no console messages in chromium" "" "$(grep 'CONSOLE' "$TMP/chrome.log" || true)"
	expect_eq "chromium loaded every image" "IMAGES 4/4" "$(images_loaded "$A")"
	rm "$A/costs.png"
	expect_eq "the image probe notices a missing image" "IMAGES 3/4" "$(images_loaded "$A")"
fi

# Hostile upload text: never markup, never a formula.
H=$TMP/h/evil
make_case "$H" "$FIX/hostile"
check "report and bundle run on a hostile upload" render "$H" evil
expect_eq "hostile markup never appears raw in the HTML" "" \
	"$(grep -n -e '<img src=x' -e '<iframe' -e '</script>' -e '<b>bold' "$H/report.html" || true)"
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
	expect_eq "the hostile page logs nothing in chromium" "" "$(grep 'CONSOLE' "$TMP/chrome-h.log" || true)"
	expect_eq "the hostile page has exactly the four chart images" "IMAGES 4/4" "$(images_loaded "$H")"
fi

# Missing and failed inputs are reported, never fatal.
M=$TMP/m/gone
make_case "$M"
rm "$M/stats.json" "$M/equity.csv" "$M/verdict.json"
printf '{"stage":"lookahead","schema":1,"ok":false,"reason":"sandbox <failed>"}\n' >"$M/lookahead.json"
check "report still renders with inputs missing" render "$M" gone
for f in stats.json equity.csv verdict.json lookahead.json; do
	check "the page says $f is missing or failed" grep -q "Missing or failed: $f" "$M/report.html"
done
check "the failed stage's reason is escaped" grep -q 'sandbox &lt;failed&gt;' "$M/report.html"
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
