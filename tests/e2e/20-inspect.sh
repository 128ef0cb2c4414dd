#!/usr/bin/env bash
# 20-inspect.sh - the inspect stage: golden inspect.json files, and every bad input giving a
# clear reason in a complete inspect.json, exit 0, never a crash.
. "$(dirname "$0")/../lib.sh"

INSPECT=$BIN/inspect

# --- golden files: same input, byte-identical output -----------------------------------------
# Each inspected as a copy of its own: beside the file, NAME.json is the golden output, which
# inspect would read as a freqtrade class's parameter file (freqtrade's own convention).
mkdir -p "$TMP/golden"
for py in tests/golden/inspect/*.py; do
	name=$(basename "$py" .py)
	cp "$py" "$TMP/golden/$name.py"
	"$INSPECT" --strategy "$TMP/golden/$name.py" -o "$TMP/$name.json" 2>"$TMP/$name.err"
	expect_eq "golden $name: exit 0" 0 $?
	check "golden $name: matches byte for byte" cmp "tests/golden/inspect/$name.json" "$TMP/$name.json"
done
"$INSPECT" --strategy tests/golden/inspect/flagged.py -o "$TMP/again.json"
check "same input twice gives the same bytes" cmp "$TMP/flagged.json" "$TMP/again.json"

# --- the command line ------------------------------------------------------------------------
"$INSPECT" --help >"$TMP/help" 2>&1
expect_eq "--help exits 0" 0 $?
check "--help documents the exit codes" grep -q 'Exit status: 0' "$TMP/help"
"$INSPECT" -o "$TMP/none.json" 2>"$TMP/usage"
expect_eq "no upload is a usage error (2)" 2 $?
check "the usage error says what is missing" grep -q "^inspect: nothing to inspect" "$TMP/usage"
"$INSPECT" --strategy tests/golden/inspect/honest.py 2>/dev/null
expect_eq "no -o is a usage error (2)" 2 $?

# complete: every field a reader relies on is there, whatever went wrong
complete() {
	"$PY" - "$1" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["stage"] == "inspect" and d["schema"] == 1 and isinstance(d["ok"], bool)
assert d["ok"] or d["reason"]
s, t = d["strategy"], d["tradelog"]
for k in ("present", "size", "lines", "utf8", "parsed", "syntax_error", "has_signals",
          "shape_ok", "shape_reason", "flags", "flags_truncated", "error"):
    assert k in s, k
for k in ("present", "size", "utf8", "rows", "columns", "errors"):
    assert k in t, k
assert d["flag_count"] == len(s["flags"])
PYEOF
}

# bad NAME FLAG FILE WANT: inspect FILE as FLAG; expect exit 0, ok false, WANT in the reason.
bad() {
	local what=$1 flag=$2 file=$3 want=$4 out="$TMP/$1.json" rc
	"$INSPECT" "$flag" "$file" -o "$out" 2>"$TMP/$what.err"
	rc=$?
	expect_eq "$what: exit 0" 0 "$rc"
	expect_eq "$what: ok is false" false "$(jget "$out" ok 2>/dev/null)"
	case $(jget "$out" reason 2>/dev/null) in
	*"$want"*) ok "$what: reason says '$want'" ;;
	*) not_ok "$what: reason says '$want'" "reason: $(jget "$out" reason 2>&1)" ;;
	esac
	check "$what: inspect.json is complete" complete "$out"
}

# --- bad strategies ----------------------------------------------------------------------------
: >"$TMP/empty.py"
bad empty --strategy "$TMP/empty.py" "the file is empty"

{ echo 'def signals(df):'; echo '    return [0] * len(df)'; head -c 9437184 /dev/zero | tr '\0' '#'; } >"$TMP/big.py"
bad big-9m --strategy "$TMP/big.py" "capped at 8388608 bytes (8 MB)"
expect_eq "big-9m: the size is reported" 9437226 "$(jget "$TMP/big-9m.json" strategy.size)"

head -c 4096 /bin/ls >"$TMP/binary.py"
bad binary --strategy "$TMP/binary.py" "binary file"

printf 'def signals(df):\n    return "caf\xe9"\n' >"$TMP/latin1.py"
bad invalid-utf8 --strategy "$TMP/latin1.py" "not valid UTF-8 (the first bad byte is on line 2)"

printf 'def signals(df):\n    return [0 for x in df\n' >"$TMP/syntax.py"
bad syntax-error --strategy "$TMP/syntax.py" "syntax error at line 2"
expect_eq "syntax-error: line in the JSON" 2 "$(jget "$TMP/syntax-error.json" strategy.syntax_error.line)"

printf 'import numpy as np\n\ndef strategy(df):\n    return np.zeros(len(df))\n' >"$TMP/nosig.py"
bad no-signals --strategy "$TMP/nosig.py" "no top-level 'def signals(df)'"

printf 'def signals(df, n):\n    return [0] * len(df)\n' >"$TMP/two.py"
bad two-params --strategy "$TMP/two.py" "takes 2 positional parameters"
expect_eq "two-params: has_signals still true" true "$(jget "$TMP/two-params.json" strategy.has_signals)"

"$PY" -c 'print("def signals(df):\n    return 0\nx = " + "-" * 200000 + "1")' >"$TMP/deep.py"
bad bomb-deep-nesting --strategy "$TMP/deep.py" "the parser gave up"

"$PY" -c 'print("def signals(df):\n    return 0\nx = (" + "1 + " * 60000 + "1)")' >"$TMP/chain.py"
bad bomb-long-chain --strategy "$TMP/chain.py" "the parser gave up"

"$PY" -c 'print("def signals(df):\n    return 0\nx = " + "9" * 250000)' >"$TMP/huge.py"
bad bomb-huge-literal --strategy "$TMP/huge.py" "Exceeds the limit"

bad missing-file --strategy "$TMP/nope.py" "nope.py"

# --- bad trade logs ---------------------------------------------------------------------------
H=entry_time,exit_time,side,return
printf 'entry_time,side,return\n2024-01-01T00:00:00Z,long,0.01\n' >"$TMP/nocol.csv"
bad log-missing-column --trades "$TMP/nocol.csv" "missing column 'exit_time'"
expect_eq "log-missing-column: columns found" '["entry_time", "side", "return"]' \
	"$(jget "$TMP/log-missing-column.json" tradelog.columns)"

printf '%s\n2024-01-01T00:00:00Z,2024-01-01T04:00:00Z,long,0.01\n2024-01-02T00:00:00Z,2024-01-02T04:00:00Z,short,NaN\n' $H >"$TMP/nan.csv"
bad log-nan --trades "$TMP/nan.csv" "line 3: return 'NaN' is not a finite number"
expect_eq "log-nan: error line" 3 "$(jget "$TMP/log-nan.json" tradelog.errors.0.line)"

printf '%s\n2024-01-05T00:00:00Z,2024-01-05T04:00:00Z,long,0.01\n2024-01-02T00:00:00Z,2024-01-02T04:00:00Z,short,0.02\n' $H >"$TMP/back.csv"
bad log-backwards --trades "$TMP/back.csv" "line 3: entry_time goes backwards"

{ echo "$H"; printf '2024-01-01T00:00:00Z,2024-01-01T04:00:00Z,long,0.01'; head -c 10485760 /dev/zero | tr '\0' '7'; echo; } >"$TMP/longline.csv"
bad log-10mb-line --trades "$TMP/longline.csv" "line 2: longer than 4096 bytes"

# a trade log may be an export of many trades: up to SA_TRADELOG_CAP (64 MB), each line still bounded

# --- a good trade log and both uploads together -----------------------------------------------
printf '%s\n2024-01-01T00:00:00Z,2024-01-01T04:00:00Z,long,0.01\n2024-01-02T00:00:00Z,2024-01-02T04:00:00Z,short,-0.005\n' $H >"$TMP/good.csv"
"$INSPECT" --strategy tests/golden/inspect/honest.py --trades "$TMP/good.csv" -o "$TMP/both.json"
expect_eq "both uploads: ok" true "$(jget "$TMP/both.json" ok)"
expect_eq "both uploads: trade rows" 2 "$(jget "$TMP/both.json" tradelog.rows)"
expect_eq "both uploads: no flags on an honest strategy" 0 "$(jget "$TMP/both.json" flag_count)"

finish
