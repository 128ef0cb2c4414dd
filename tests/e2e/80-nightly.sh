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

night() { # NIGHT [make args...]: one night, mailed to the accepting server
	local n=$1; shift
	make --no-print-directory -j2 nightly STRATEGIES="$S" NIGHT="$n" MAIL_TO=desk@example.org \
		MAIL_FROM=audit@example.org SMTP_URL="smtp://127.0.0.1:$OKPORT" "$@"
}

D1=out/nightly/$NIGHT1
check "the first night completes" night $NIGHT1
expect_eq "one row per strategy" 3 "$(jget $D1/index.json strategies)"
expect_eq "no strategy lacks a verdict" "3 rows, none FAILED" \
	"$("$PY" -c 'import json,sys; rows=json.load(open(sys.argv[1]))["rows"]; print("%d rows, %s FAILED" % (len(rows), " ".join(r["name"] for r in rows if r["verdict"] == "FAILED") or "none"))' $D1/index.json 2>&1)"
expect_eq "the hostile strategy is rejected as unsafe and listed first" "${P}_hostile REJECTED_UNSAFE" \
	"$(jget $D1/index.json rows.0.name) $(jget $D1/index.json rows.0.verdict)"
expect_eq "TRIALS comes from the '# trials: N' header" 3 "$(jget out/${P}_honest/config.json trials)"
expect_eq "TRIALS defaults to 1 without a header line" 1 "$(jget out/${P}_broken/config.json trials)"
expect_eq "every row is new on the first night" "new new new" \
	"$(for i in 0 1 2; do jget $D1/index.json rows.$i.news; done | xargs)"
check "index.html and index.xlsx are written" test -s $D1/index.html -a -s $D1/index.xlsx
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
check "index.xlsx has each row's reason in its why column, as index.json" "$PY" - $D1/index.xlsx $D1/index.json <<'PYEOF'
import json, sys, openpyxl
ws = openpyxl.load_workbook(sys.argv[1]).active
rows = list(ws.iter_rows(values_only=True))
why = rows[0].index("why")
want = {r["name"]: r.get("reason") or "" for r in json.load(open(sys.argv[2]))["rows"]}
got = {r[0]: r[why] or "" for r in rows[1:]}
assert got == want, (got, want)
PYEOF
check "every row has a reason, shown in the why column of index.html and in index.txt" "$PY" -c '
import html, json, sys
ix = json.load(open(sys.argv[1] + "/index.json")); page = open(sys.argv[1] + "/index.html").read()
txt = open(sys.argv[1] + "/index.txt").read()
assert "<th>why</th>" in page
for r in ix["rows"]:
    assert r.get("reason"), r["name"]
    assert "<td>" + r["reason"] + "</td>" in html.unescape(page), r["name"]
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
want = {r['bundle'].split('/')[-1]: r['bundle_sha256'] for r in index['rows']}
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
expect_eq "no strategy is re-audited" "skip skip skip" \
	"$(for f in $D1/work/*.json; do jget "$f" action; done | xargs)"
expect_eq "no verdict file is rewritten" "$before" "$(stamp)"
check "the index is byte-identical" cmp "$TMP/index1.html" $D1/index.html

# --- the next night: unchanged code is reused and marked unchanged; a code change re-audits
printf '\n# a comment changes the code sha256\n' >>"$S/${P}_honest.py"
D2=out/nightly/$NIGHT2
check "the next night completes" night $NIGHT2
expect_eq "only the changed strategy is audited" "audit skip skip" \
	"$(for n in honest broken hostile; do jget $D2/work/${P}_$n.json action; done | xargs)"
expect_eq "the changed strategy is marked changed, from which code to which" "changed code" \
	"$("$PY" -c 'import json,sys; r=[r for r in json.load(open(sys.argv[1]))["rows"] if r["name"].endswith("_honest")][0]; print(r["news"], (r["change"] or "").split()[0])' $D2/index.json)"
expect_eq "the others are unchanged" "unchanged unchanged" \
	"$(for n in broken hostile; do "$PY" -c 'import json,sys; print([r["news"] for r in json.load(open(sys.argv[1]))["rows"] if r["name"] == sys.argv[2]][0])' $D2/index.json ${P}_$n; done | xargs)"

# --- a refusing server: a clear error, non-zero exit, and nothing lost
before=$(cd $D2 && sha256sum index.html index.json index.xlsx bundles/*.zip)
expect_eq "the night before the refusal has its index and three bundles" 6 "$(echo "$before" | grep -c '^[0-9a-f]\{64\} ')"
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
