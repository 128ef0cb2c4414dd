#!/usr/bin/env bash
# 05-layering.sh - the walls where the data flows: every #include "..." of a room's sources
# resolves to its own room, lib/, or a room its Makefile USES_ line names; a layer of lib/
# includes only itself and the layers below it (its USES_ line), nothing else of the project, and
# prints nothing (its errors go back to the caller, mains print); no stage
# includes another stage; the sandbox's host modules include nothing of what runs inside the
# namespaces (only the sandbox program, which is also the zygote's exec image, links it); the
# Python the sandbox binary embeds compiles and passes pyflakes.
. "$(dirname "$0")/../lib.sh"

report=$("$PY" - <<'PYEOF'
import glob, os, re, sys

mk = open("Makefile").read().replace("\\\n", " ")
rooms = re.search(r"^ROOMS := (.*)$", mk, re.M).group(1).split()
layers = re.search(r"^LIB_LAYERS := (.*)$", mk, re.M).group(1).split()
uses = {r: set() for r in rooms + layers}
progs = {r: set() for r in rooms + layers}
for r in rooms + layers:
    m = re.search(r"^USES_%s := (.*)$" % re.escape(r), mk, re.M)
    if m:
        uses[r] = set(m.group(1).split())
    m = re.search(r"^PROGS_%s := (.*)$" % re.escape(r), mk, re.M)
    if m:
        progs[r] = {p + ".c" for p in m.group(1).split()}

def files(room):
    return sorted(glob.glob(room + "/*.c") + glob.glob(room + "/*.h"))

where = {}  # header name -> the room holding it
for r in rooms + layers:
    for f in glob.glob(r + "/*.h"):
        where.setdefault(os.path.basename(f), set()).add(r)

problems = []
checked = 0
for r in rooms + layers:
    allowed = {r} | uses[r] | (set() if r in layers else set(layers))
    for f in files(r):
        for line_no, line in enumerate(open(f, encoding="utf-8"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            checked += 1
            inc = m.group(1)
            homes = where.get(os.path.basename(inc), set())
            if not homes:
                problems.append("%s:%d includes %s, which no room holds" % (f, line_no, inc))
            elif r in layers and not homes <= allowed:
                problems.append("%s:%d: %s includes %s of %s, not a layer below it (%s)"
                                % (f, line_no, r, inc, sorted(homes), sorted(allowed)))
            elif not homes & allowed:
                problems.append("%s:%d: %s includes %s of %s (allowed: %s)"
                                % (f, line_no, r, inc, sorted(homes), sorted(allowed)))
            elif r == "sandbox" and os.path.basename(f) not in progs[r] and \
                    homes == {"sandbox/inside"}:
                problems.append("%s:%d: a host module includes %s, from inside the namespaces"
                                % (f, line_no, inc))

# lib/ prints nothing: its functions return the error with its cause; msg.c holds the mains'
# printing helpers and is the one exception.
printing = re.compile(r"\b(printf|puts|perror|sa_error|sa_warn|sa_die|sa_usage_die)\s*\(|"
                      r"\bfprintf\s*\(\s*std(err|out)\b|\bf?putc?\s*\([^)]*std(err|out)")
for f in sorted(sum((glob.glob(l + "/*.c") for l in layers), [])):
    if os.path.basename(f) == "msg.c":
        continue
    for line_no, line in enumerate(open(f, encoding="utf-8"), 1):
        code = line.split("//")[0]
        if printing.search(code) and not code.lstrip().startswith(("*", "/*")):
            problems.append("%s:%d: lib/ prints: %s" % (f, line_no, line.strip()))

# a layer's USES_ line names only layers below it: the chain has no arrow back up
for i, l in enumerate(layers):
    if not uses[l] <= set(layers[i + 1:]):
        problems.append("USES_%s names %s, not below it in LIB_LAYERS"
                        % (l, sorted(uses[l] - set(layers[i + 1:]))))
print(checked)
for p in problems:
    print(p)
PYEOF
)
checked=$(echo "$report" | head -n 1)
problems=$(echo "$report" | tail -n +2)
if [ "${checked:-0}" -gt 300 ]; then ok "every room's includes were read ($checked)"
else not_ok "every room's includes were read" "only ${checked:-0}"; fi
if [ -z "$problems" ]; then ok "no include crosses a wall, and lib/ prints nothing"
else not_ok "no include crosses a wall, and lib/ prints nothing" "$problems"; fi

# The walls hold in the link too: a stage's program needs only its room, the sandbox (if it
# runs the upload) and lib/, in that order, without a group.
unbuilt=""
for prog in lookahead robust sealed variants replay stats verdict inspect ledger fingerprint config \
	report bundle mail nightly gendata sandbox; do
	[ -x "$BIN/$prog" ] || unbuilt="$unbuilt $prog"
done
if [ -z "$unbuilt" ]; then ok "every program is built, linked without --start-group"
else not_ok "every program is built, linked without --start-group" "not built:$unbuilt"; fi
check "the Makefile passes no --start-group" test -z "$(grep -n 'start-group' Makefile)"

# Every path a document names in backquotes under a project folder exists (a corpus file may be
# named by its number, `tests/hostile/58`): a map that names what is gone misleads.
docs=$("$PY" - <<'PYEOF'
import glob, os, re
docs = sorted(set(glob.glob("*.md") + glob.glob("*/README.md") + glob.glob("*/*/README.md") +
                  glob.glob("*/*/*.md")))
tok = re.compile(r"`((?:lib|pipeline|sandbox|report|nightly|templates|demos|data|tests|deploy|scripts)"
                 r"/[A-Za-z0-9_./-]*)`")
n, bad = 0, []
for d in docs:
    for i, line in enumerate(open(d, encoding="utf-8"), 1):
        for m in tok.finditer(line):
            p = m.group(1).rstrip("/.")
            n += 1
            head, base = os.path.split(p)
            numbered = os.path.isdir(head) and any(f.startswith(base + "-") for f in os.listdir(head))
            if not os.path.exists(p) and not numbered:
                bad.append("%s:%d names %s, which does not exist" % (d, i, p))
print(n)
print("\n".join(bad))
PYEOF
)
named=$(echo "$docs" | head -n 1)
if [ "${named:-0}" -gt 100 ]; then ok "the documents' paths were read ($named)"
else not_ok "the documents' paths were read" "only ${named:-0}"; fi
missing=$(echo "$docs" | tail -n +2)
if [ -z "$missing" ]; then ok "every path a document names exists"
else not_ok "every path a document names exists" "$missing"; fi

# --- one error contract -----------------------------------------------------------------------
# A library function that can fail takes the caller's (char *err, size_t errlen) (lib/base/msg.h): no
# thread-local cause (sa_fail, sa_cause) anywhere in the project, and no lib/ header declares a
# parameter under the stages' names for their JSON "reason" text (why, reason and their lengths).
contract=$("$PY" - "$0" <<'PYEOF'
import os, re, sys

me = os.path.normpath(sys.argv[1])
layers = re.search(r"^LIB_LAYERS := (.*)$", open("Makefile").read(), re.M).group(1).split()
cause = re.compile(r"\bsa_(fail|cause|cause_clear)\b")
# a parameter: a type's last word or a '*', the name, maybe "[...]", then ',' or ')'
param = re.compile(r"(?:\*|\b\w+)\s*\b(why|whylen|reason|reasonlen)\b\s*(?:\[[^\]]*\])?\s*[,)]")
bad, n_files, n_headers, n_err = [], 0, 0, 0
for top, dirs, names in os.walk("."):
    dirs[:] = [d for d in dirs if d not in (".git", "build", "out")]
    for name in names:
        path = os.path.normpath(os.path.join(top, name))
        if path == me or not (name.endswith((".c", ".h", ".md", ".py", ".sh", ".mk")) or name == "Makefile"):
            continue
        n_files += 1
        text = open(path, encoding="utf-8", errors="replace").read()
        for i, line in enumerate(text.split("\n"), 1):
            if cause.search(line):
                bad.append("%s:%d: %s" % (path, i, line.strip()))
        if not (os.path.dirname(path) in layers and name.endswith(".h")):
            continue
        n_headers += 1
        # comments, strings and preprocessor lines (with their continuations) as blanks
        blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))
        code = re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, text, flags=re.S)
        code = re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, code, flags=re.M)
        n_err += len(re.findall(r"char\s*\*\s*err\s*,\s*size_t\s+errlen\b", code))
        for m in param.finditer(code):
            bad.append("%s:%d declares a parameter '%s'" % (path, code.count("\n", 0, m.start()) + 1, m.group(1)))
print(n_files, n_headers, n_err)
print("\n".join(bad))
PYEOF
)
read -r n_files n_headers n_err <<<"$(echo "$contract" | head -n 1)"
if [ "${n_files:-0}" -gt 300 ] && [ "${n_headers:-0}" -ge 25 ] && [ "${n_err:-0}" -gt 30 ]; then
	ok "the sources and lib/'s headers were read ($n_files files, $n_headers headers, $n_err (err, errlen) pairs)"
else not_ok "the sources and lib/'s headers were read" "$n_files files, $n_headers headers, $n_err pairs"; fi
if [ -z "$(echo "$contract" | tail -n +2)" ]; then ok "no sa_fail or sa_cause, and lib/'s failures go through (err, errlen)"
else not_ok "no sa_fail or sa_cause, and lib/'s failures go through (err, errlen)" "$(echo "$contract" | tail -n +2)"; fi

# --- the wire between the host and the run ------------------------------------------------------
# sandbox/wire/sbx_proto.h stands alone (no header of the project: only <...> ones), the wire's
# headers include only each other, and nothing inside the namespaces includes a header of the
# host side (sandbox/): what crosses is the wire alone.
wire=$("$PY" - <<'PYEOF'
import glob, os, re
inc = re.compile(r'\s*#\s*include\s+"([^"]+)"')
host = {os.path.basename(f) for f in glob.glob("sandbox/*.h")}
wire = {os.path.basename(f) for f in glob.glob("sandbox/wire/*.h")}
bad, n = [], 0
for f in sorted(glob.glob("sandbox/wire/*.h")):
    for i, line in enumerate(open(f, encoding="utf-8"), 1):
        m = inc.match(line)
        if m and m.group(1) not in wire:
            bad.append("%s:%d includes %s, not of the wire" % (f, i, m.group(1)))
for f in sorted(glob.glob("sandbox/inside/*.[ch]")):
    for i, line in enumerate(open(f, encoding="utf-8"), 1):
        m = inc.match(line)
        if m:
            n += 1
            if m.group(1) in host:
                bad.append("%s:%d includes %s, of the host side" % (f, i, m.group(1)))
print(n if "sbx_proto.h" in wire else 0)
print("\n".join(bad))
PYEOF
)
if [ "$(echo "$wire" | head -n 1)" -gt 20 ]; then ok "the wire and the inside's includes were read"
else not_ok "the wire and the inside's includes were read" "$(echo "$wire" | head -n 1)"; fi
if [ -z "$(echo "$wire" | tail -n +2)" ]; then ok "the wire includes nothing of the project, the inside nothing of the host"
else not_ok "the wire includes nothing of the project, the inside nothing of the host" "$(echo "$wire" | tail -n +2)"; fi
check "sandbox/inside uses no room but the wire (its Makefile line)" \
	test "$(sed -n 's/^USES_sandbox\/inside := //p' Makefile)" = sandbox/wire

# --- the sandbox's public headers apart from its private ones ----------------------------------
# A stage sees sbx.h, sbx_stage.h, sbx_report.h and sbx_progress.h; sandbox/*_int.h are the host
# side's own (the unit tests may reach them): no other room includes one.
priv=$(cd sandbox && ls ./*_int.h | sed 's|^\./||')
leaks=$(for h in $priv; do grep -rln "#include \"$h\"" --include=*.c --include=*.h . |
	grep -v -e '^\./sandbox/[^/]*$' -e '^\./tests/unit/' -e '^\./build/'; done)
check "the sandbox's private headers were found" test "$(echo "$priv" | wc -w)" -ge 4
check "no room outside sandbox/ includes a private sandbox header" test -z "$leaks"

# --- the Python embedded in the sandbox binary -------------------------------------------------
# scripts/embed-py builds sandbox/inside/py/ (the zygote's helpers, its read roots, the shims'
# loader) and sandbox/inside/shims/ into the binary: each file compiles (py_compile, its cache
# under $TMP, never the checkout) and pyflakes finds nothing in it. A shim re-exports its
# framework's names (freqtrade.strategy's datetime and DataFrame, technical.qtpylib's star
# import), so there, and only there, pyflakes' unused-import and star-import notes are expected.
embedded=$(find sandbox/inside/py sandbox/inside/shims -name '*.py' | LC_ALL=C sort)
n_py=$(echo "$embedded" | grep -c .)
if [ "$n_py" -ge 10 ] && echo "$embedded" | grep -qx sandbox/inside/py/sa_helpers.py; then
	ok "the embedded Python files were listed ($n_py)"
else not_ok "the embedded Python files were listed" "only $n_py"; fi
# shellcheck disable=SC2086  # one name a word: the paths hold no space
check "every embedded Python file compiles" env PYTHONPYCACHEPREFIX="$TMP/pycache" "$PY" -m py_compile $embedded
check "pyflakes is installed (python3-pyflakes)" "$PY" -m pyflakes --version
"$PY" -m pyflakes sandbox/inside/py >"$TMP/flakes-py" 2>&1
expect_eq "pyflakes finds nothing in sandbox/inside/py" "" "$(cat "$TMP/flakes-py")"
"$PY" -m pyflakes sandbox/inside/shims >"$TMP/flakes-shims" 2>&1
flakes=$(grep -v -e ' imported but unused$' -e ' used; unable to detect undefined names$' "$TMP/flakes-shims")
expect_eq "pyflakes finds nothing in the shims but their re-exports" "" "$flakes"
check "pyflakes reads the shims (it notes their re-exports)" test -s "$TMP/flakes-shims"

# --- the report only reads and draws ---------------------------------------------------------
# Nothing under report/ calls a replay or statistics computation: every curve it draws is a
# file a stage wrote. The computations are the functions the library's replay, cost, variant
# matrix and statistics objects define (wherever lib/ keeps them); no object of a report/
# source may need one of them.
RB=${BIN%/bin}
computations=$(find "$RB/lib/replay" "$RB/lib/stats" "$RB/lib/data" -name '*.o' |
	grep -E '/lib/(replay|stats)/[^/]*\.o$|/vmatrix\.o$' |
	xargs -r nm --defined-only 2>/dev/null | awk '$2 == "T" { print $3 }' | sort -u)
n_comp=$(echo "$computations" | grep -c .)
if [ "$n_comp" -gt 20 ]; then ok "the library's replay and statistics functions were listed ($n_comp)"
else not_ok "the library's replay and statistics functions were listed" "only $n_comp"; fi
calls=""
n_obj=0
for src in report/*.c; do
	obj=$RB/report/$(basename "${src%.c}").o
	[ -f "$obj" ] || { calls="$calls $obj is not built;"; continue; }
	n_obj=$((n_obj + 1))
	bad=$(nm --undefined-only "$obj" | awk '{ print $2 }' | sort -u | comm -12 - <(echo "$computations"))
	[ -z "$bad" ] || calls="$calls $(basename "$obj"): $(echo $bad);"
done
expect_eq "every report/ source's object was read" "$(ls report/*.c | wc -l)" "$n_obj"
if [ -z "$calls" ]; then ok "no report/ object calls a replay or statistics computation"
else not_ok "no report/ object calls a replay or statistics computation" "$calls"; fi

# --- the stage files through their table -----------------------------------------------------
# A room that reads the stage files through their table (lib/base/stagefile.h: each field a row,
# a missing or mistyped one an error naming it) reads none by a string key: no typed getter
# (sa_json_num, sa_json_str, sa_json_bool) and no cJSON_GetObjectItem with a quoted key in its
# sources, for such a read turns a missing field back into the caller's default.
TABLE_ROOMS="pipeline/verdict"
keyed=$("$PY" - $TABLE_ROOMS <<'PYEOF'
import glob, re, sys
read = re.compile(r'\b(sa_json_(?:num|str|bool)|cJSON_GetObjectItem(?:CaseSensitive)?)\s*\([^;]*?,\s*"([^"]*)"', re.S)
n, bad = 0, []
for room in sys.argv[1:]:
    for f in sorted(glob.glob(room + "/*.c") + glob.glob(room + "/*.h")):
        n += 1
        text = open(f, encoding="utf-8").read()
        for m in read.finditer(text):
            bad.append('%s:%d: %s(..., "%s")' % (f, text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2)))
print(n)
print("\n".join(bad))
PYEOF
)
if [ "$(echo "$keyed" | head -n 1)" -ge 10 ] && [ -z "$(echo "$keyed" | tail -n +2)" ]; then
	ok "the rooms on the stage-file table ($TABLE_ROOMS) read no stage file by a string key"
else not_ok "the rooms on the stage-file table ($TABLE_ROOMS) read no stage file by a string key" \
	"$(echo "$keyed" | tail -n +2 | head -n 12)"; fi

# Everywhere else, a stage file of the table is opened only through it (sa_sf_open, _open_path,
# _view, _line): no sa_json_read_stage (the stage-file open that checks no field), no
# sa_json_read in a function naming a table file's path ("%s/stats.json"), and a source that
# reads through the table reads no key by a string beside it. KEYED names the sources that
# still open their stage files outside the table, or read them by key; each must still do so,
# so the list only shrinks (it is empty: every stage opens its inputs through the table). The
# report's readers take their trees, opened through the table, from report/report_input.c: the
# rule below holds them.
KEYED=""
opened=$("$PY" - $KEYED <<'PYEOF'
import glob, re, sys
keyed = set(sys.argv[1:])
read = re.compile(r'\b(sa_json_(?:num|str|bool)|cJSON_GetObjectItem(?:CaseSensitive)?)\s*\([^;]*?,\s*"([^"]*)"', re.S)
# config.json's fields are read through the knob table (sa_config_*), its own
names = [n for n in re.findall(r'^\s*X\([A-Z_]+, "([a-z_]+\.jsonl?)"', open("lib/base/stagefile.h").read(), re.M)
         if n != "config.json"]
path_lit = re.compile(r'"[^"\n]*/(%s)"' % "|".join(re.escape(n) for n in names))
srcs = sorted(f for f in glob.glob("**/*.[ch]", recursive=True)
              if not f.startswith(("build/", "lib/base/", "tests/", "out/")))
n, bad, still = 0, [], set()
for f in srcs:
    n += 1
    t = open(f, encoding="utf-8").read()
    why = []
    if re.search(r'\bsa_json_read_stage\s*\(', t):
        why.append("opens a stage file with sa_json_read_stage")
    for body in re.split(r'\n}\n', t):
        m = path_lit.search(body)
        if m and re.search(r'\bsa_json_read\s*\(', body):
            why.append("opens %s with sa_json_read" % m.group(1))
            break
    if re.search(r'\bstruct sa_sf\b|\bsa_sf_(?:open|open_path|view)\s*\(', t):
        keys = [m.group(2) for m in read.finditer(t)]
        if keys:
            why.append('reads through the table and by %d string keys ("%s", ...)' % (len(keys), keys[0]))
    if why and f in keyed:
        still.add(f)
    elif why:
        bad.append("%s: %s" % (f, "; ".join(why)))
bad += ["%s is in KEYED but opens no stage file outside the table: take it off" % f
        for f in sorted(keyed - still)]
print(n)
print("\n".join(bad))
PYEOF
)
if [ "$(echo "$opened" | head -n 1)" -ge 100 ] && [ -z "$(echo "$opened" | tail -n +2)" ]; then
	ok "outside the table's layer, no source opens a stage file but through the table ($(echo $KEYED | wc -w) listed as still doing so)"
else not_ok "outside the table's layer, no source opens a stage file but through the table" \
	"$(echo "$opened" | tail -n +2 | head -n 12)"; fi

# The report takes its stage files' trees from report/report_input.c, opened through the table,
# and takes each field it shows by its row (rpt_sf, sa_sf_num, ...). tests/e2e/report_stage_reads.py
# finds its reads of a stage tree by a string key, through get/rpt_get, rpt_add_*, a file's own
# wrappers or cJSON (the view model it builds, the templates, its own settings and config.json's
# knobs are no stage tree and are not counted). REPORT_KEYED holds the count each source still
# makes: a source may make no more, nor one not listed any, and a count that fell is lowered here,
# so the list only shrinks.
REPORT_KEYED="report/report.c:7 report/report_chart.c:4 report/report_chart_robust.c:9
report/report_chart_tear.c:5 report/report_checks.c:48 report/report_data_model.c:38
report/report_fmt.c:3 report/report_freqtrade.c:32 report/report_live.c:57 report/report_model.c:16
report/report_neighbourhood.c:42 report/report_pdf_sections.c:5 report/report_reconcile.c:21
report/report_run_model.c:78 report/report_stats_model.c:119 report/report_tearsheet.c:87
report/report_xlsx.c:37 report/report_xlsx_tear.c:43"
rkeyed=$("$PY" tests/e2e/report_stage_reads.py --list) || rkeyed="report_stage_reads.py failed"
rbad=$("$PY" - "$REPORT_KEYED" "$rkeyed" <<'PYEOF'
import re, sys
allowed = dict((f, int(n)) for f, n in (w.split(":") for w in sys.argv[1].split()))
found, reads = {}, {}
for line in sys.argv[2].splitlines():
    m = re.match(r"^(\d+) (report/\S+)$", line)
    if m:
        found[m.group(2)] = int(m.group(1))
    elif line.startswith("report/"):
        reads.setdefault(line.split(":")[0], []).append(line)
bad = []
for f in sorted(set(allowed) | set(found)):
    n, cap = found.get(f, 0), allowed.get(f, 0)
    if n > cap:
        bad.append("%s reads a stage file by a string key %d times, %d allowed: %s" %
                   (f, n, cap, "; ".join(reads.get(f, [])[:3])))
    elif n < cap:
        bad.append("%s now reads a stage file by a string key %d times: lower its count in REPORT_KEYED from %d" % (f, n, cap))
print("\n".join(bad))
PYEOF
)
rtotal=$(echo "$rkeyed" | awk '/^[0-9]+ report\// { s += $1 } END { print s + 0 }')
rsrc=$(echo "$rkeyed" | sed -n 's/^# \([0-9]*\) sources$/\1/p')
if [ -z "$rbad" ] && [ "${rsrc:-0}" -ge 30 ]; then
	ok "the report reads stage files by a string key no more than REPORT_KEYED allows ($rtotal reads left)"
else not_ok "the report reads stage files by a string key no more than REPORT_KEYED allows" \
	"$(echo "$rbad" | head -n 12)"; fi

# --- one prefix per folder, and folders of a size a reader can hold ----------------------------
# HACKING.md's table gives each folder its prefix: every global an archive of the build defines
# begins with its folder's (case aside), every archive has a row, no two rows share a prefix or
# begin one another's, so a name says where it lives; no two folders hold a source of the same
# name, and a source named with a prefix lives in that prefix's folder. No folder holds more than
# 30 C files.
names=$("$PY" - "$RB" <<'PYEOF'
import glob, os, re, subprocess, sys
rb = sys.argv[1]
table = {}
for line in open("HACKING.md", encoding="utf-8"):
    for folder, prefix in re.findall(r"\|\s*`([a-z/]+)`\s*\|\s*`([A-Za-z]+_)`\s*\|", line):
        table[folder] = prefix
bad, n = [], 0
pre = sorted(table.items(), key=lambda kv: kv[1])
for i, (f1, p1) in enumerate(pre):
    for f2, p2 in pre[i + 1:]:
        if p2.lower().startswith(p1.lower()) or p1.lower().startswith(p2.lower()):
            bad.append("%s's %s and %s's %s overlap" % (f1, p1, f2, p2))
# the archives the Makefile makes (a stale one an older layout left in the build is not read)
mk = open("Makefile").read().replace("\\\n", " ")
folders = (re.search(r"^ROOMS := (.*)$", mk, re.M).group(1).split() +
           re.search(r"^LIB_LAYERS := (.*)$", mk, re.M).group(1).split())
archives = [a for a in (os.path.join(rb, f, "lib%s.a" % os.path.basename(f)) for f in folders)
            if os.path.exists(a)]
for a in archives:
    folder = os.path.relpath(os.path.dirname(a), rb)
    if folder not in table:
        bad.append("%s: no prefix for %s in HACKING.md" % (a, folder))
        continue
    out = subprocess.run(["nm", "-g", "--defined-only", a], capture_output=True, text=True).stdout
    for l in out.splitlines():
        f = l.split()
        if len(f) != 3:
            continue
        n += 1
        if not f[2].lower().startswith(table[folder].lower()):
            bad.append("%s defines %s, not %s..." % (folder, f[2], table[folder]))
for d in sorted({os.path.dirname(c) for c in glob.glob("**/*.c", recursive=True)}):
    if d.startswith(("build", "out")):
        continue
    k = len(glob.glob(d + "/*.c"))
    if k > 30:
        bad.append("%s holds %d C files (at most 30)" % (d, k))
# one name per room: no two folders hold a source of the same name, and a source named with a
# folder's prefix lives in that folder (the wire, without a prefix of its own, names its files
# with the host's)
seen = {}
for src in sorted(glob.glob("**/*.[ch]", recursive=True)):
    if src.startswith(("build/", "out/", "tests/")):
        continue
    d, b = os.path.split(src)
    if seen.setdefault(b, d) != d:
        bad.append("%s and %s/%s share a name" % (src, seen[b], b))
    for folder, prefix in table.items():
        if b.lower().startswith(prefix.lower()) and d != folder and d in table:
            bad.append("%s is named with %s's prefix %s, not its own %s" % (src, folder, prefix, table[d]))
print(len(table), n)
print("\n".join(bad))
PYEOF
)
read -r n_rows n_syms <<<"$(echo "$names" | head -n 1)"
if [ "${n_rows:-0}" -ge 15 ] && [ "${n_syms:-0}" -gt 300 ]; then
	ok "HACKING.md's prefixes ($n_rows) and the archives' symbols ($n_syms) were read"
else not_ok "HACKING.md's prefixes and the archives' symbols were read" "$n_rows rows, $n_syms symbols"; fi
if [ -z "$(echo "$names" | tail -n +2)" ]; then ok "one prefix per folder, no two alike, one name per source, no folder over 30 C files"
else not_ok "one prefix per folder, no two alike, one name per source, no folder over 30 C files" "$(echo "$names" | tail -n +2)"; fi

# The unit tests live by the room they test: tests/unit/ROOM/test_*.c, ROOM the top folder of a
# room of the Makefile (lib, pipeline, sandbox, report, nightly), and the embedded Python's in
# tests/unit/py/. The Makefile builds test_*.c one folder down and nothing else, so a C file
# anywhere else under tests/unit/ would be a test no build runs.
units=$("$PY" - <<'PYEOF'
import os, re
mk = open("Makefile").read().replace("\\\n", " ")
tops = {r.split("/")[0] for r in re.search(r"^ROOMS := (.*)$", mk, re.M).group(1).split() +
        re.search(r"^LIB_LAYERS := (.*)$", mk, re.M).group(1).split()}
n, bad = 0, []
for top, dirs, names in os.walk("tests/unit"):
    dirs.sort()
    rel = os.path.relpath(top, "tests/unit")
    if rel != "." and rel.split(os.sep)[0] not in tops | {"py"}:
        bad.append("%s is named after no room (%s)" % (top, " ".join(sorted(tops))))
    for name in sorted(names):
        if not name.endswith(".c"):
            continue
        n += 1
        if rel == "." or os.sep in rel or rel == "py" or not re.fullmatch(r"test_\w+\.c", name):
            bad.append("%s/%s is not tests/unit/ROOM/test_*.c: no build runs it" % (top, name))
print(n)
print("\n".join(bad))
PYEOF
)
if [ "$(echo "$units" | head -n 1)" -ge 25 ] && [ -z "$(echo "$units" | tail -n +2)" ]; then
	ok "the $(echo "$units" | head -n 1) unit tests live in tests/unit/ROOM/test_*.c, each folder named after a room"
else not_ok "the unit tests live in tests/unit/ROOM/test_*.c, each folder named after a room" \
	"$(echo "$units" | head -n 1) C files" "$(echo "$units" | tail -n +2 | head -n 12)"; fi


# --- one drawing of the pipeline, one count of gates --------------------------------------------
# Every drawing of the pipeline (a fenced block of a README or HACKING.md with an arrow "─>")
# names every stage program (the Makefile's PROGS_ lines of pipeline/, the sandbox, report and
# bundle) and every file of the stage-file table, so none leaves a stage out. The gates are
# counted where they are defined (enum vd_gate, pipeline/verdict/verdict_rules.h: the last,
# overfitting, only with VARIANTS): every "N gates" and "(N with VARIANTS)" in the documents and
# the verdict's sources says that count.
drawn=$("$PY" - <<'PYEOF'
import glob, re
mk = open("Makefile").read().replace("\\\n", " ")
progs = set()
for room, names in re.findall(r"^PROGS_(\S+) := (.*)$", mk, re.M):
    if room.startswith("pipeline/") or room in ("sandbox", "report"):
        progs.update(names.split())
files = set(re.findall(r'^\s*X\([A-Z_]+, "([a-z_]+\.jsonl?)"', open("lib/base/stagefile.h").read(), re.M))
docs = ["README.md", "HACKING.md"] + sorted(glob.glob("*/README.md") + glob.glob("*/*/README.md"))
n, bad = 0, []
for doc in docs:
    text = open(doc, encoding="utf-8").read()
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, re.M | re.S):
        if "─>" not in block:
            continue
        n += 1
        words = set(re.findall(r"[a-z_]+(?:\.[a-z]+)?", block))
        missing = sorted((progs | files) - words)
        if missing:
            bad.append("%s's drawing of the pipeline leaves out %s" % (doc, ", ".join(missing)))
# the gates
enum = re.search(r"enum vd_gate \{(.*?)\};", open("pipeline/verdict/verdict_rules.h").read(), re.S).group(1)
gates = len([g for g in re.findall(r"\b(VD_GATE_[A-Z_]+)\b", enum)])
num = "zero one two three four five six seven eight nine ten eleven twelve".split()
ords = "zeroth first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()
want_base, want_all = num[gates - 1], num[gates]
srcs = docs + sorted(glob.glob("pipeline/verdict/*.[ch]"))
said = 0
for f in srcs:
    text = open(f, encoding="utf-8").read()
    for m in re.finditer(r"\b(%s) (?:readiness )?gates\b" % "|".join(num), text):
        said += 1
        if m.group(1) != want_base:
            bad.append('%s:%d: "%s", where enum vd_gate counts %s (%s with VARIANTS)' % (
                f, text.count("\n", 0, m.start()) + 1, m.group(0), want_base, want_all))
    for m in re.finditer(r"\((%s) with (?:declared variants|`?VARIANTS`?)" % "|".join(num), text):
        said += 1
        if m.group(1) != want_all:
            bad.append('%s:%d: "%s", where enum vd_gate counts %s with VARIANTS' % (
                f, text.count("\n", 0, m.start()) + 1, m.group(0), want_all))
    for m in re.finditer(r"\badds an? (%s)\b" % "|".join(ords), text):
        said += 1
        if m.group(1) != ords[gates]:
            bad.append('%s:%d: "%s", where VARIANTS adds the %s gate' % (
                f, text.count("\n", 0, m.start()) + 1, m.group(0), ords[gates]))
    for m in re.finditer(r"\((%s), and `?overfitting`? (%s)\b" % ("|".join(num), "|".join(ords)), text):
        said += 1
        if (m.group(1), m.group(2)) != (want_base, ords[gates]):
            bad.append('%s:%d: "%s", where enum vd_gate counts %s, overfitting the %s' % (
                f, text.count("\n", 0, m.start()) + 1, m.group(0), want_base, ords[gates]))
print(n, said)
print("\n".join(bad))
PYEOF
)
read -r n_drawn n_said <<<"$(echo "$drawn" | head -n 1)"
if [ "${n_drawn:-0}" -ge 1 ] && [ "${n_said:-0}" -ge 4 ] && [ -z "$(echo "$drawn" | tail -n +2)" ]; then
	ok "the $n_drawn drawings of the pipeline name every stage and stage file; $n_said counts of the gates agree with enum vd_gate"
else not_ok "the drawings of the pipeline name every stage and stage file; the counts of the gates agree with enum vd_gate" \
	"${n_drawn:-0} drawings, ${n_said:-0} counts" "$(echo "$drawn" | tail -n +2 | head -n 12)"; fi
finish
