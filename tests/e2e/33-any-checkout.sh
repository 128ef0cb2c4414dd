#!/usr/bin/env bash
# 33-any-checkout.sh - the sandbox starts from any checkout, one only its owner may enter
# included: a clone of this tree under a directory of mode 0700 (a home such as /root) builds
# and runs a real audit to a verdict, the same bundle byte for byte as from this checkout
# (the sandbox's unprivileged user cannot pass through that directory: the zygote runs the
# program through a descriptor the driver opened). A sandbox program its user may not execute
# is refused with that reason in run.json, not an unexplained end.
source "$(dirname "$0")/../lib.sh"
unset LLM_API_KEY

command -v git >/dev/null || { not_ok "git is installed (scripts/install-deps)"; finish; }
PRIV=$TMP/home
mkdir -p "$PRIV" && chmod 0700 "$PRIV"
CLONE=$PRIV/strataudit
N=e2e-any-checkout

# A clone of this tree as it stands: its commit, and the changes not committed yet.
check "git clone of this checkout under a 0700 directory" git clone -q "$ROOT" "$CLONE"
git -C "$ROOT" diff --binary HEAD >"$TMP/wip.diff"
if [ -s "$TMP/wip.diff" ]; then
	check "the uncommitted changes apply to the clone" git -C "$CLONE" apply --binary "$TMP/wip.diff"
fi
check "the clone builds (make all)" make -C "$CLONE" --no-print-directory -j2 all

# The same audit from the clone and from this checkout.
rm -rf "$CLONE/out/$N" "out/$N"
check "make audit from the clone under a 0700 directory exits 0" \
	make -C "$CLONE" --no-print-directory audit STRATEGY=demos/honest.py NAME=$N TRIALS=3
expect_eq "the sandbox ran the upload from the clone" "ok" "$(jget "$CLONE/out/$N/run.json" status)"
expect_eq "the audit from the clone reaches the honest demo's verdict (demos/expected-verdicts.txt)" \
	"$(awk '$1 == "honest" {print $3}' demos/expected-verdicts.txt)" "$(jget "$CLONE/out/$N/verdict.json" verdict)"
check "make audit from this checkout exits 0" \
	make --no-print-directory audit STRATEGY=demos/honest.py NAME=$N TRIALS=3
check "the clone under a 0700 directory gives the same bundle, byte for byte" \
	cmp "out/$N/$N.zip" "$CLONE/out/$N/$N.zip"
rm -rf "out/$N"

# A sandbox program its user may not execute: the stage says which and why.
chmod 0700 "$CLONE/build/rel/bin/sandbox"
"$CLONE/build/rel/bin/sandbox" --strategy demos/honest.py --data data/ohlcv.csv \
	--config "$CLONE/out/$N/config.json" -o "$TMP/run.json" --events "$TMP/events.jsonl" 2>"$TMP/run.err"
rc=$?
expect_eq "a sandbox program of mode 0700: the sandbox stage exits 3" 3 "$rc"
expect_eq "a sandbox program of mode 0700: run.json is not ok" false "$(jget "$TMP/run.json" ok)"
grep -q "not executable by the sandbox's user (mode 0700; it needs o+x)" "$TMP/run.json" &&
	ok "a sandbox program of mode 0700: run.json says why" ||
	not_ok "a sandbox program of mode 0700: run.json says why" "$(jget "$TMP/run.json" reason)"
finish
