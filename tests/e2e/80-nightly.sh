#!/usr/bin/env bash
# tests/e2e/80-nightly.sh - a night over a folder (honest, broken, hostile), mailed to an SMTP
# server this script starts on 127.0.0.1; a refusing server; a re-run that re-audits nothing.
. "$(dirname "$0")/../lib.sh"

NIGHT1=2099-01-01 NIGHT2=2099-01-02
P=e2e80x
export NIGHT_DB=$TMP/history.sqlite MAIL_BACKOFF_MS=50 MAIL_RETRIES=1
cleanup() {
	[ -f "$TMP/ok.pid" ] && kill "$(cat "$TMP/ok.pid")" 2>/dev/null
	[ -f "$TMP/no.pid" ] && kill "$(cat "$TMP/no.pid")" 2>/dev/null
	rm -rf out/nightly/$NIGHT1 out/nightly/$NIGHT2 out/${P}_* "$TMP"
}
trap cleanup EXIT

# --- a loopback SMTP server: saves each message as N.eml, or refuses every message with 554
cat >"$TMP/smtpd.py" <<'PYEOF'
import os, socket, sys, time
from aiosmtpd.controller import Controller
mode, outdir, portfile = sys.argv[1:4]
class Handler:
    n = 0
    async def handle_DATA(self, server, session, envelope):
        if mode == 'refuse':
            return '554 5.7.1 message refused by policy'
        Handler.n += 1
        with open(os.path.join(outdir, '%d.eml' % Handler.n), 'wb') as f:
            f.write(envelope.content)
        return '250 OK'
s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()
c = Controller(Handler(), hostname='127.0.0.1', port=port, data_size_limit=256 << 20)
c.start()
open(portfile + '.tmp', 'w').write(str(port)); os.rename(portfile + '.tmp', portfile)
while True:
    time.sleep(1)
PYEOF
start_smtpd() { # mode name: the port lands in $TMP/name.port
	mkdir -p "$TMP/$2"
	"$PY" "$TMP/smtpd.py" "$1" "$TMP/$2" "$TMP/$2.port" >"$TMP/$2.log" 2>&1 &
	echo $! >"$TMP/$2.pid"
	for _ in $(seq 100); do [ -s "$TMP/$2.port" ] && break; sleep 0.1; done
}
start_smtpd accept ok
start_smtpd refuse no
OKPORT=$(cat "$TMP/ok.port") NOPORT=$(cat "$TMP/no.port")

# --- the folder: an honest strategy, one with a syntax error, one that reaches for the network
S=$TMP/strategies
mkdir -p "$S"
cat >"$S/${P}_honest.py" <<'PYEOF'
# a plain moving-average crossover
# trials: 3
def signals(df):
    fast = df["close"].rolling(10, min_periods=1).mean()
    slow = df["close"].rolling(40, min_periods=1).mean()
    return ((fast > slow).astype(int) * 2 - 1).tolist()
PYEOF
cat >"$S/${P}_broken.py" <<'PYEOF'
def signals(df)
    return [0] * len(df)
PYEOF
cat >"$S/${P}_hostile.py" <<'PYEOF'
import socket
def signals(df):
    try:
        socket.create_connection(("127.0.0.1", 9), timeout=1)
    except Exception:
        pass
    return [0] * len(df)
PYEOF

# a strategy with its own market, from a "# data:" line relative to its folder, and one whose
# data line names no file
mkdir -p "$S/prices"
"$PY" - "$S/prices/own.csv" <<'PYEOF'
import math, sys
with open(sys.argv[1], "w") as f:
    f.write("time,open,high,low,close,volume\n")
    px = 50.0
    for i in range(1200):
        day, hour = divmod(i, 24)
        o = px
        px = o * math.exp(0.004 * math.sin(i / 7.0) + 0.002 * math.cos(i / 3.1))
        f.write("2030-%02d-%02dT%02d:00:00Z,%.4f,%.4f,%.4f,%.4f,100\n" % (1 + day // 28, 1 + day % 28, hour,
                o, max(o, px) * 1.001, min(o, px) * 0.999, px))
PYEOF
cat >"$S/${P}_own.py" <<'PYEOF'
# momentum on its own market
# data: prices/own.csv
import numpy as np
def signals(df):
    return np.sign(df["close"].diff(12).fillna(0)).astype(int).tolist()
PYEOF
cat >"$S/${P}_nodata.py" <<'PYEOF'
# data: prices/none.csv
def signals(df):
    return [0] * len(df)
PYEOF

night() { # NIGHT [make args...]: one night, mailed to the accepting server
	local n=$1; shift
	make --no-print-directory -j2 nightly STRATEGIES="$S" NIGHT="$n" MAIL_TO=desk@example.org \
		MAIL_FROM=audit@example.org SMTP_URL="smtp://127.0.0.1:$OKPORT" "$@"
}

D1=out/nightly/$NIGHT1
check "the first night completes" night $NIGHT1
expect_eq "one row per strategy" 5 "$(jget $D1/index.json strategies)"
expect_eq "only the strategy without its data lacks a verdict" "5 rows, ${P}_nodata FAILED" \
	"$("$PY" -c 'import json,sys; rows=json.load(open(sys.argv[1]))["rows"]; print("%d rows, %s FAILED" % (len(rows), " ".join(r["name"] for r in rows if r["verdict"] == "FAILED") or "none"))' $D1/index.json 2>&1)"
expect_eq "worst news first: the row without a verdict, then the hostile strategy, rejected as unsafe" \
	"${P}_nodata FAILED ${P}_hostile REJECTED_UNSAFE" \
	"$(jget $D1/index.json rows.0.name) $(jget $D1/index.json rows.0.verdict) $(jget $D1/index.json rows.1.name) $(jget $D1/index.json rows.1.verdict)"
expect_eq "TRIALS comes from the '# trials: N' header" 3 "$(jget out/${P}_honest/config.json trials)"
expect_eq "TRIALS defaults to 1 without a header line" 1 "$(jget out/${P}_broken/config.json trials)"
expect_eq "every row is new on the first night" "new new new" \
	"$(for i in 0 1 2; do jget $D1/index.json rows.$i.news; done | xargs)"
check "index.html and index.xlsx are written" test -s $D1/index.html -a -s $D1/index.xlsx
check "a '# data:' line gives the strategy its own data, recorded in its row" "$PY" - $D1/index.json \
	"$S/prices/own.csv" out/${P}_own out/${P}_honest "$(cd "$(dirname "$0")/../.." && pwd)/data/ohlcv.csv" <<'PYEOF'
import hashlib, json, sys
ix, own, od, hd, bundled = sys.argv[1:6]
rows = {r["name"]: r for r in json.load(open(ix))["rows"]}
r = rows["e2e80x_own"]
sha = hashlib.sha256(open(own, "rb").read()).hexdigest()
assert r["data"].endswith("/prices/own.csv"), r["data"]
assert r["data_sha256"] == sha == json.load(open(od + "/fingerprint.json"))["data_sha256"], r
assert (r["data_first"], r["data_last"]) == ("2030-01-01T00:00:00Z", "2030-02-22T23:00:00Z"), r
h = rows["e2e80x_honest"]
assert h["data_sha256"] == hashlib.sha256(open(bundled, "rb").read()).hexdigest() != sha, h
n = rows["e2e80x_nodata"]
assert n["verdict"] == "FAILED" and "no such data file" in n["note"] and n["data"].endswith("prices/none.csv"), n
PYEOF
check "the index's figures are the report's: the headline Sharpe ratio, net return and drawdown" "$PY" - $D1/index.json out <<'PYEOF'
import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    if r["verdict"] == "FAILED":
        continue
    s = json.load(open("%s/%s/stats.json" % (sys.argv[2], r["name"])))
    want = {"sharpe": (s.get("sharpe_annualised") or {}).get("value"), "sharpe_per_trade": s.get("sharpe"),
            "net_return": s.get("net_return"), "max_drawdown": s.get("max_drawdown")}
    for k, v in want.items():
        assert (r[k] is None) == (v is None) and (v is None or abs(r[k] - v) < 1e-6 * max(1, abs(v))), (r["name"], k, r[k], v)
    assert r["name"] != "e2e80x_honest" or r["sharpe"] is not None, r
PYEOF
check "index.xlsx is a spreadsheet with the three rows" "$PY" -c '
import sys, zipfile
x = zipfile.ZipFile(sys.argv[1]).read("xl/sharedStrings.xml").decode()
assert all(n in x for n in sys.argv[2:]), x' $D1/index.xlsx ${P}_honest ${P}_broken ${P}_hostile
expect_eq "the mail was sent" true "$(jget $D1/mail.json ok)"
# --- why each verdict: the error line with its number, the refusal, the failing gates
reason() { "$PY" -c 'import json,sys; print(next(r.get("reason") or "" for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == sys.argv[2]))' $D1/index.json "$1"; }
case "$(reason ${P}_broken)" in *"SyntaxError at line 1"*) ok "INCOMPLETE's reason: the SyntaxError and its line" ;;
	*) not_ok "INCOMPLETE's reason: the SyntaxError and its line" "$(reason ${P}_broken)" ;; esac
case "$(reason ${P}_hostile)" in *"no network"*socket*) ok "the veto's reason names the rule and the action refused" ;;
	*) not_ok "the veto's reason names the rule and the action refused" "$(reason ${P}_hostile)" ;; esac
check "index.xlsx has each row's reason in its why column, as index.json, one table with a filter over it" "$PY" - $D1/index.xlsx $D1/index.json <<'PYEOF'
import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).active
rows = list(ws.iter_rows(values_only=True))
why = rows[0].index("why")
want = {r["name"]: r.get("reason") or "" for r in json.load(open(sys.argv[2]))["rows"]}
got = {r[0]: r[why] or "" for r in rows[1:]}
assert got == want, (got, want)
assert ws.auto_filter.ref == "A1:%s%d" % (openpyxl.utils.get_column_letter(len(rows[0])), len(rows)), ws.auto_filter.ref
PYEOF
check "every row has a reason, shown in the why column of index.html and in index.txt" "$PY" -c '
import html, json, sys
ix = json.load(open(sys.argv[1] + "/index.json")); page = open(sys.argv[1] + "/index.html").read()
txt = open(sys.argv[1] + "/index.txt").read()
assert "<th>why</th>" in page
for r in ix["rows"]:
    assert r.get("reason"), r["name"]
    assert "<td class=\"why\" data-label=\"why\">" + r["reason"] + "</td>" in html.unescape(page), r["name"]
    assert "why: " + r["reason"] in txt, r["name"]' $D1
check "each audited row links its report.html, unpacked with its charts beside the zip" "$PY" -c '
import json, os, re, sys
d = sys.argv[1]; ix = json.load(open(d + "/index.json")); page = open(d + "/index.html").read()
for r in ix["rows"]:
    if not r.get("bundle"):
        continue
    rep = r["report"]
    assert rep == "reports/%s/report.html" % r["name"], rep
    assert "<a href=\"%s\">report.html</a><br><a href=\"%s\">" % (rep, r["bundle"]) in page, r["name"]
    imgs = re.findall(r"<img class=\"chart\" src=\"([^\"]+)\"", open(d + "/" + rep).read())
    assert imgs and all(os.path.isfile(os.path.join(d, os.path.dirname(rep), i)) for i in imgs), (r["name"], imgs)' $D1
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
if [ -n "$CHROMIUM" ]; then
	sed 's|</body>|<script>addEventListener("load",function(){var m="";document.querySelectorAll("body *").forEach(function(e){if(e.clientWidth>0\&\&(e.getBoundingClientRect().right>1281\|\|e.scrollWidth>e.clientWidth+1))m+=" "+e.tagName;});document.title="WIDTH"+m;});</script></body>|' \
		$D1/index.html >$D1/.width.html
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
		--window-size=1280,1200 --dump-dom "file://$ROOT/$D1/.width.html" 2>/dev/null >"$TMP/width.dom"
	rm -f $D1/.width.html
	expect_eq "index.html fits 1280 px: nothing reaches past it" "WIDTH" "$(sed -n 's|.*<title>\(WIDTH[^<]*\)</title>.*|\1|p' "$TMP/width.dom")"
	# a phone: headless windows are 500 px at least, so the page itself is narrowed to 375 px
	sed -e 's|</head>|<style>html { width: 375px; }</style></head>|' \
		-e 's|</body>|<script>addEventListener("load",function(){var m="";document.querySelectorAll("body *").forEach(function(e){if(e.clientWidth>0\&\&(e.getBoundingClientRect().right>376\|\|e.scrollWidth>e.clientWidth+1))m+=" "+e.tagName;});document.title="WIDTH"+m;});</script></body>|' \
		$D1/index.html >$D1/.width.html
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
		--window-size=500,1200 --dump-dom "file://$ROOT/$D1/.width.html" 2>/dev/null >"$TMP/width375.dom"
	rm -f $D1/.width.html
	expect_eq "index.html fits 375 px: each strategy a card, nothing reaches past it" "WIDTH" \
		"$(sed -n 's|.*<title>\(WIDTH[^<]*\)</title>.*|\1|p' "$TMP/width375.dom")"
	# every word of a header and of a verdict on one line: a word broken across lines has a
	# range with more than one line box
	sed 's|</body>|<script>addEventListener("load",function(){var m="";document.querySelectorAll("th, td:nth-child(2)").forEach(function(c){var t=c.textContent,re=/[A-Za-z]+/g,w;var n=c.firstChild;while(n\&\&n.nodeType!=3)n=n.firstChild;if(!n)return;while((w=re.exec(n.data))){var r=document.createRange();r.setStart(n,w.index);r.setEnd(n,w.index+w[0].length);var ys={};Array.prototype.forEach.call(r.getClientRects(),function(b){ys[Math.round(b.top)]=1;});if(Object.keys(ys).length>1)m+=" "+w[0];}});document.title="WORDS"+m;});</script></body>|' \
		$D1/index.html >$D1/.words.html
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
		--window-size=1280,1200 --dump-dom "file://$ROOT/$D1/.words.html" 2>/dev/null >"$TMP/words.dom"
	rm -f $D1/.words.html
	expect_eq "index.html breaks no header and no verdict inside a word at 1280 px" "WORDS" \
		"$(sed -n 's|.*<title>\(WORDS[^<]*\)</title>.*|\1|p' "$TMP/words.dom")"
else
	not_ok "chromium is installed, to lay out index.html"
fi

# --- the message: summary in both parts, every bundle attached and intact
cat >"$TMP/check_mail.py" <<'PYEOF'
import email, hashlib, io, json, sys, zipfile
from email import policy
msg = email.message_from_bytes(open(sys.argv[1], 'rb').read(), policy=policy.default)
index = json.load(open(sys.argv[2]))
assert index['summary'] in msg['Subject'], msg['Subject']
text = msg.get_body(('plain',)).get_content()
html = msg.get_body(('html',)).get_content()
want = {r['bundle'].split('/')[-1]: r['bundle_sha256'] for r in index['rows'] if r['bundle']}
for r in index['rows']:
    assert r['name'] in text and r['verdict'] in text, r['name']
    assert r['name'] in html, r['name']
    assert (r.get('reason') or '') in text, 'the text part says why ' + r['name']
got = {}
for part in msg.iter_attachments():
    data = part.get_payload(decode=True)
    assert part['Content-Transfer-Encoding'] == 'base64', part['Content-Transfer-Encoding']
    got[part.get_filename()] = data
    if part.get_filename().endswith('.zip'):
        sha = hashlib.sha256(data).hexdigest()
        assert sha == want[part.get_filename()], part.get_filename()
        assert sha in text, 'the text part lists the sha256 of ' + part.get_filename()
        z = zipfile.ZipFile(io.BytesIO(data))
        sums = [l.split() for l in z.read([n for n in z.namelist() if n.endswith('sha256sums.txt')][0]).decode().splitlines() if l.strip()]
        names = {n.split('/')[-1]: n for n in z.namelist()}
        assert sums, 'empty sha256sums.txt'
        for digest, name in sums:
            name = name.lstrip('*')
            inner = z.read(names.get(name.split('/')[-1], name))
            assert hashlib.sha256(inner).hexdigest() == digest, name
assert set(want) <= set(got), (sorted(want), sorted(got))
assert 'index.xlsx' in got
print('ok')
PYEOF
check "the message arrives with the summary and every bundle, each decoding to its listed sha256" \
	"$PY" "$TMP/check_mail.py" "$TMP/ok/1.eml" $D1/index.json

# --- the same night again: nothing is re-audited and the index is byte-identical
cp $D1/index.html "$TMP/index1.html"
stamp() { stat -c %Y out/${P}_*/verdict.json | xargs; }
before=$(stamp)
sleep 1
check "the same night runs again" night $NIGHT1
expect_eq "no strategy is re-audited but the one without its data" "skip skip skip audit skip" \
	"$(for f in $D1/work/*.json; do jget "$f" action; done | xargs)"
expect_eq "no verdict file is rewritten" "$before" "$(stamp)"
check "the index is byte-identical" cmp "$TMP/index1.html" $D1/index.html

# --- the next night: unchanged code is reused and marked unchanged; a code change re-audits
sed -i 's/rolling(40/rolling(45/' "$S/${P}_honest.py"  # a retune: the same rule, another constant
D2=out/nightly/$NIGHT2
check "the next night completes" night $NIGHT2
expect_eq "only the changed strategy is audited" "audit skip skip skip" \
	"$(for n in honest broken hostile own; do jget $D2/work/${P}_$n.json action; done | xargs)"
expect_eq "the changed strategy is marked changed: a retune is its lineage's version 2" \
	"changed code changed: version 2 2" \
	"$("$PY" -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["rows"] if r["name"].endswith("_honest")][0]; print(r["news"], r["change"], r["version"])' $D2/index.json)"
expect_eq "the others are unchanged" "unchanged unchanged" \
	"$(for n in broken hostile; do "$PY" -c 'import json,sys; print([r["news"] for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == sys.argv[2]][0])' $D2/index.json ${P}_$n; done | xargs)"

# --- a refusing server: a clear error, non-zero exit, and nothing lost
before=$(cd $D2 && sha256sum index.html index.json index.xlsx bundles/*.zip)
expect_eq "the night before the refusal has its index and four bundles" 7 "$(echo "$before" | grep -c '^[0-9a-f]\{64\} ')"
make --no-print-directory nightly STRATEGIES="$S" NIGHT=$NIGHT2 MAIL_TO=desk@example.org \
	MAIL_FROM=audit@example.org SMTP_URL="smtp://127.0.0.1:$NOPORT" >"$TMP/refused.out" 2>&1
rc=$?
check "a 5xx refusal makes the night exit non-zero" test $rc -ne 0
check "the refusal is named clearly" grep -q "mail: the night's mail was not sent: smtp://127.0.0.1:$NOPORT refused the message with 554" "$TMP/refused.out"
expect_eq "the refusal is kept in mail.json" "false 554" "$(jget $D2/mail.json ok) $(jget $D2/mail.json smtp_code)"
expect_eq "the night's index and bundles are untouched" "$before" "$(cd $D2 && sha256sum index.html index.json index.xlsx bundles/*.zip)"

# --- nobody listening: retried with backoff, then a clear error
free=$("$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
SMTP_USER=someone SMTP_PASSWORD=hunter2-secret "$BIN/mail" --night-dir $D2 --to desk@example.org \
	--from audit@example.org --url "smtp://127.0.0.1:$free" --retries 2 >"$TMP/down.out" 2>&1
rc=$?
expect_eq "an unreachable server exits 1" 1 "$rc"
check "it was tried three times" grep -q "after 3 attempts" "$TMP/down.out"
check "the password is never printed" sh -c "grep -q hunter2 '$TMP/down.out' $D2/mail.json; test \$? -eq 1"

# --- a cap that holds all but the last bundle: those that fit go, the one that does not is named
all=$(jget $D2/mail.json estimated_size)
rm -f "$TMP"/ok/*.eml
check "a cap just under the whole message still sends" "$BIN/mail" --night-dir $D2 --to desk@example.org \
	--from audit@example.org --url "smtp://127.0.0.1:$OKPORT" --cap $((all - 1))
check "every bundle but the last in the index's order is attached, the last named with its place" "$PY" - \
	"$(ls -t "$TMP"/ok/*.eml | head -n 1)" $D2/index.json $D2/mail.json <<'PYEOF'
import email, json, sys
from email import policy
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=policy.default)
order = [r["bundle"].split("/")[-1] for r in json.load(open(sys.argv[2]))["rows"] if r.get("bundle")]
got = [p.get_filename() for p in m.iter_attachments() if p.get_filename().endswith(".zip")]
assert got == order[:-1], (got, order)
mj = json.load(open(sys.argv[3]))
assert mj["left_out"] == [order[-1]] and mj["estimated_size"] <= mj["cap"], mj
t = m.get_body(("plain",)).get_content()
assert "%d of %d are attached" % (len(order) - 1, len(order)) in t and "bundles/" + order[-1] in t, t
PYEOF

# --- over the cap: the index alone, and the left-out bundles named
rm -f "$TMP"/ok/*.eml
check "a small cap still sends" "$BIN/mail" --night-dir $D2 --to desk@example.org \
	--from audit@example.org --url "smtp://127.0.0.1:$OKPORT" --cap 20000
check "over the cap only the index is attached and the bundles are named" "$PY" -c '
import email, sys
from email import policy
m = email.message_from_bytes(open(sys.argv[1], "rb").read(), policy=policy.default)
names = sorted(p.get_filename() for p in m.iter_attachments())
assert names == ["index.html", "index.xlsx"], names
t = m.get_body(("plain",)).get_content()
assert "Left out" in t and all(n + ".zip" in t for n in sys.argv[2:]), t' "$(ls -t "$TMP"/ok/*.eml | head -n 1)" ${P}_honest ${P}_broken ${P}_hostile

check "nightly --help documents the exit codes" sh -c "'$BIN/nightly' --help | grep -q '^exit:'"
check "mail --help documents the exit codes" sh -c "'$BIN/mail' --help | grep -q '^exit:'"
expect_eq "mail without a recipient is a usage error" 2 "$("$BIN/mail" --night-dir $D2 >/dev/null 2>&1; echo $?)"
finish
