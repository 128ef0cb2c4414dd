# tests/lib.sh - sourced by every end-to-end test: a check prints "ok - what" or "not ok - what".
# Each script runs from the project root and uses the rel build in build/rel/bin.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 3
BIN=${BIN:-$ROOT/build/rel/bin}
PY=/usr/bin/python3
T_FAILED=0
# A fresh scratch directory per script, removed on exit.
TMP=$(mktemp -d "${TMPDIR:-/tmp}/strataudit-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

ok() { printf 'ok - %s\n' "$1"; }
not_ok() { printf 'not ok - %s\n' "$1"; shift; [ $# -gt 0 ] && printf '#   %s\n' "$@"; T_FAILED=1; }

# check "what" command...: passes when the command exits 0.
check() {
	local what=$1; shift
	if "$@" >"$TMP/.out" 2>&1; then ok "$what"; else not_ok "$what" "$(tail -n 5 "$TMP/.out")"; fi
}

# expect_eq "what" expected actual
expect_eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else not_ok "$1" "expected: $2" "actual:   $3"; fi
}

# expect_no_match "what" file pattern...: passes when file can be read and no line matches any
# pattern; a file that cannot be read fails (grep's exit 2 is not a pass).
expect_no_match() {
	local what=$1 file=$2 p rc pats=()
	shift 2
	for p; do pats+=(-e "$p"); done
	grep -n "${pats[@]}" -- "$file" >"$TMP/.out" 2>&1
	rc=$?
	case $rc in
	1) ok "$what" ;;
	0) not_ok "$what" "$(head -n 5 "$TMP/.out")" ;;
	*) not_ok "$what" "cannot read $file: $(head -n 2 "$TMP/.out")" ;;
	esac
}

# jq_get file expr: a JSON value through Python's json (no jq dependency).
jget() {
	"$PY" - "$1" "$2" <<'PYEOF'
import json, sys
v = json.load(open(sys.argv[1]))
for k in sys.argv[2].split('.'):
    if k == '':
        continue
    v = v[int(k)] if isinstance(v, list) else v.get(k)
print(json.dumps(v) if isinstance(v, (dict, list, bool)) or v is None else v)
PYEOF
}

# robust_check STRATEGY RUN DATA CONFIG OUT [BINDIR]: the robustness check as an audit makes it:
# robust's runs of the upload (OUT.runs.json, OUT.sig.bin), then robust_score's judgement of
# them into OUT; STRATEGY "" for none. Exits as robust_score does.
robust_check() {
	local b=${6:-$BIN}
	"$b/robust" ${1:+--strategy "$1"} --run "$2" --data "$3" --config "$4" --jobs 2 -o "$5.runs.json" \
		--signals "$5.sig.bin" 2>/dev/null
	"$b/robust_score" --runs "$5.runs.json" --signals "$5.sig.bin" --run "$2" --data "$3" --config "$4" -o "$5"
}

# variants_check STRATEGY INSPECT DATA CONFIG OUT CSV MATRIX [BINDIR]: the variant family as an
# audit makes it: variants' runs of the upload (OUT.runs.json, OUT.sig.bin; its progress on
# stderr), then variants_score's replays into OUT, CSV and MATRIX. Exits as variants_score does.
variants_check() {
	local b=${8:-$BIN}
	"$b/variants" --strategy "$1" --inspect "$2" --data "$3" --config "$4" --jobs 2 -o "$5.runs.json" \
		--signals "$5.sig.bin"
	"$b/variants_score" --runs "$5.runs.json" --signals "$5.sig.bin" --inspect "$2" --data "$3" --config "$4" \
		-o "$5" --csv "$6" --matrix "$7"
}

finish() { exit "$T_FAILED"; }
