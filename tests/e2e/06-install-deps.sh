#!/usr/bin/env bash
# 06-install-deps.sh - a fresh Debian 12 runs every test: each program a test, a benchmark or the
# Makefile calls (a word in a command's place in the shell scripts, the first item of a Python
# subprocess call) is found on this machine, and the Debian package that holds it is one every
# Debian system has (Essential, or of priority required) or one scripts/install-deps installs
# (a package it lists, or one such a package depends on).
# A program this machine has only because something else brought it (unzip, git) fails here.
. "$(dirname "$0")/../lib.sh"

command -v dpkg-query >/dev/null || { not_ok "dpkg-query is here (a Debian system)"; finish; }

report=$("$PY" - <<'PYEOF'
import glob, os, re, shutil, subprocess

listed = set(re.search(r'PACKAGES="([^"]*)"', open("scripts/install-deps").read()).group(1).split())
files = sorted(set(glob.glob("tests/e2e/*.sh") + glob.glob("tests/bench/*.sh") + glob.glob("scripts/*") +
                   ["tests/run-all", "tests/lib.sh", "tests/fuzz/run", "tests/bench/run", "Makefile"]))
# A word in a command's place: a line's start, after a pipe, a list operator, a subshell or a
# command substitution, or a keyword that takes a command.
place = re.compile(r"(?:^|[|;&(`]|\$\(|\b(?:then|do|else|if|while|until|time|exec|command -v|xargs(?: -[\w-]+)*)\s)"
                   r"\s*(?:[A-Z_]+=\S*\s+)*([a-z][\w.+-]*)(?=\s|$|\))")
py_call = re.compile(r"subprocess\.(?:run|call|check_call|check_output|Popen)\(\[\s*[\"']([a-z][\w.+-]*)[\"']")
def walk_quotes(s, quoted):
    """A line's code with the text of its quoted strings blanked (a $( ) inside double quotes
    is code again), and whether it ends inside a single-quoted string, given whether it began
    inside one."""
    stack, out, i = ["", "'"] if quoted else [""], [], 0
    while i < len(s):
        c, top = s[i], stack[-1]
        keep = top in ("", "(")
        if top == "'":
            if c == "'":
                stack.pop()
        elif c == "\\":
            out.append(" ")
            i += 1
        elif c == "'" and top != '"':
            stack.append("'")
        elif c == '"':
            if top == '"':
                stack.pop()
            else:
                stack.append('"')
        elif s.startswith("$(", i):
            stack.append("(")
            out.append("$")
            i += 1
            c, keep = "(", True
        elif c == ")" and top == "(":
            stack.pop()
        elif c == "#" and top in ("", "(") and (i == 0 or s[i - 1] in " \t;"):
            break
        out.append(c if keep else " ")
        i += 1
    return "".join(out), "'" in stack


calls = {}
for f in files:
    if not os.path.isfile(f):
        continue
    text = open(f, errors="replace").read()
    python = text.startswith("#!") and "python" in text.split("\n", 1)[0]
    end, quoted = None, False
    for line in text.split("\n"):
        s = line.strip()
        for w in py_call.findall(s):
            calls.setdefault(w, set()).add(f)
        if python:
            continue
        if end is not None:  # inside a here-document
            if s == end:
                end = None
            continue
        # inside a quoted string that spans lines (a Python program given to -c)
        if s.startswith("#") and not quoted:
            continue
        was_quoted = quoted
        code, quoted = walk_quotes(s, quoted)
        if was_quoted:
            continue
        m = re.search(r"<<-?\s*['\"]?(\w+)['\"]?", s)
        if m:
            end = m.group(1)
            s = s[:m.start()]
        if s.startswith("#") or (f == "Makefile" and not line.startswith("\t")):
            continue
        # a command line given to a shell as a string
        inner = [m.group(1) for m in re.finditer(r"\bsh -c [\"']\s*(.*)", s)]
        for w in place.findall(code) + [w for t in inner for w in place.findall(t)]:
            calls.setdefault(w, set()).add(f)
builtins = set(subprocess.run(["bash", "-c", "compgen -b; compgen -k"], capture_output=True, text=True).stdout.split())

def package(path):
    for p in (path, os.path.realpath(path), re.sub(r"^/usr/", "/", path)):
        r = subprocess.run(["dpkg-query", "-S", p], capture_output=True, text=True)
        owners = [l for l in r.stdout.splitlines() if not l.startswith("diversion by")]
        if r.returncode == 0 and owners:
            return owners[0].split(":")[0].split(",")[0].strip()
    return None

# What installing the listed packages brings: they and everything they depend on.
deps = {}
for row in subprocess.run(["dpkg-query", "-W", "-f=${Package}\t${Pre-Depends}, ${Depends}\t${Provides}\n"],
                          capture_output=True, text=True).stdout.splitlines():
    name, dep, prov = (row.split("\t") + ["", ""])[:3]
    alts = [[a.split()[0].split(":")[0] for a in d.split("|") if a.strip()] for d in dep.split(",") if d.strip()]
    deps[name] = alts
    for p in prov.split(","):
        if p.strip():
            deps.setdefault(p.split()[0], []).append([name])
brought, todo = set(), [p for p in listed]
while todo:
    p = todo.pop()
    if p in brought:
        continue
    brought.add(p)
    for alt in deps.get(p, []):
        todo.extend(a for a in alt if a in deps)

for w in sorted(calls):
    where = " ".join(sorted(calls[w]))
    if w in builtins:
        continue
    path = shutil.which(w)
    if not path:
        continue  # a function of the script, a word of its text, or a program built here
    pkg = package(path)
    if not pkg:
        print("UNOWNED %s (%s) called by %s" % (w, path, where))
        continue
    q = subprocess.run(["dpkg-query", "-W", "-f=${Essential} ${Priority}", pkg],
                       capture_output=True, text=True).stdout.split()
    essential, priority = (q + ["", ""])[:2]
    if essential == "yes" or priority == "required" or pkg in brought:
        print("OK %s %s" % (w, pkg))
    else:
        print("MISSING %s (package %s, priority %s) called by %s" % (w, pkg, priority, where))
PYEOF
)
n_ok=$(grep -c '^OK ' <<<"$report")
[ "$n_ok" -ge 20 ] && ok "the scripts' programs were found ($n_ok of them)" ||
	not_ok "the scripts' programs were found" "only $n_ok: $(head -n 3 <<<"$report")"
expect_eq "every program a test calls comes with Debian or scripts/install-deps" "" \
	"$(grep -v '^OK ' <<<"$report")"
finish
