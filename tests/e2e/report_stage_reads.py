#!/usr/bin/python3
"""report_stage_reads.py - the report's reads of stage files by a string key.

usage: report_stage_reads.py [--list]

The report takes its stage files' trees from report/report_input.c (opened through the
stage-file table, lib/base/stagefile.h) and should take each field by its row (rpt_sf,
sa_sf_num, ...). This finds the reads that take a field of such a tree by a string key instead:
get/rpt_get, rpt_add_text/_pct/_num, cJSON_GetObjectItem* and sa_json_num/str/bool/int with a
quoted key, whose object is a stage tree: rpt_stage_ok(in, RPT_X), in->stage[RPT_X].json,
in->variants, in->events, a variable assigned from one of those or from a read of one, an
element cJSON_ArrayForEach walks in one, or a parameter of a report function some call passes
one (followed to a fixed point over report/*.c). config.json (RPT_CONFIG: its knobs are the knob
table's), the view model the report builds, the templates and the report's own settings are
not stage trees, so their reads are not counted.

Prints "# N sources" (those read), then "N report/file.c" per source with such reads (and,
with --list, each read)."""
import glob
import re
import sys

SRC = re.compile(r'rpt_stage_ok\s*\(\s*in\w*\s*,\s*RPT_(?!CONFIG\b)[A-Z_]+\s*\)|\bstage\s*\[\s*RPT_(?!CONFIG\b)[A-Z_]+\s*\]\s*\.\s*json\b|\bin\w*\s*->\s*(?:variants|events)\b')
FUNC = re.compile(r'^[A-Za-z_][\w \t\*]*?\b(\w+)\s*\(([^;{)]*(?:\([^)]*\)[^;{)]*)*)\)\s*\n\{(.*?)\n\}', re.M | re.S)
def strip(t):
    t = re.sub(r'/\*.*?\*/', lambda m: "\n" * m.group(0).count("\n"), t, flags=re.S)
    return re.sub(r'//[^\n]*', '', t)
def args_at(t, i):
    """the arguments of the call whose '(' is at t[i]; (list, end)"""
    depth, cur, out, j = 0, "", [], i
    while j < len(t):
        c = t[j]
        if c == '"':
            k = j + 1
            while t[k] != '"':
                k += 2 if t[k] == "\\" else 1
            cur += t[j:k + 1]; j = k + 1; continue
        if c in "([{":
            depth += 1
            if depth == 1: j += 1; continue
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                out.append(cur.strip()); return out, j
        elif c == "," and depth == 1:
            out.append(cur.strip()); cur = ""; j += 1; continue
        cur += c; j += 1
    return out, j
files = {f: strip(open(f, encoding="utf-8").read()) for f in sorted(glob.glob("report/*.c"))}
funcs = {}
for f, t in files.items():
    for m in FUNC.finditer(t):
        params = [re.findall(r'(\w+)\s*(?:\[[^\]]*\])?$', p.strip()) for p in m.group(2).split(",")]
        funcs.setdefault(m.group(1), []).append({"file": f, "params": [p[0] if p else "" for p in params],
                                                 "body": m.group(3), "at": m.start(3), "tainted": set()})
# The reads by key: cJSON's and jsonio's getters, and every report function that hands one of its
# parameters to a read as the object and another as the key (get, rpt_get, rpt_add_text, a
# file's own pct(o, key), ...), followed through wrappers of wrappers; a #define alias reads as
# what it names.
readers = {"cJSON_GetObjectItem": (0, 1), "cJSON_GetObjectItemCaseSensitive": (0, 1),
           "sa_json_num": (0, 1), "sa_json_str": (0, 1), "sa_json_bool": (0, 1), "sa_json_int": (0, 1)}
aliases = {f: dict(re.findall(r"^#define\s+(\w+)\s+(\w+)\s*$", t, re.M)) for f, t in files.items()}
def calls(d):
    """(name, args, offset) of each call in d's body"""
    for m in re.finditer(r"\b(\w+)\s*\(", d["body"]):
        a, _ = args_at(d["body"], m.end() - 1)
        yield aliases[d["file"]].get(m.group(1), m.group(1)), a, m.start()
grew = True
while grew:
    grew = False
    for name, defs in funcs.items():
        for d in defs:
            if name in readers:
                continue
            for callee, a, _ in calls(d):
                if callee in readers:
                    io, ik = readers[callee]
                    if len(a) > max(io, ik) and a[io] in d["params"] and a[ik] in d["params"]:
                        readers[name] = (d["params"].index(a[io]), d["params"].index(a[ik]))
                        grew = True
                        break


returning = set()  # the report functions that return a stage tree (or a part of one)
members = set()    # the struct members a stage tree is kept in (x->stats = rpt_stage_ok(...))


def mentions(expr, names):
    return bool(SRC.search(expr)) or any(re.search(r'\b%s\b' % re.escape(n), expr) for n in names) \
        or any(re.search(r'\b%s\s*\(' % re.escape(f), expr) for f in returning) \
        or any(re.search(r'(?:->|\.)\s*%s\b' % re.escape(m), expr) for m in members)
def spread(body, tv):
    """tv grown by body's assignments from, and loops over, what it names (or a stage tree)"""
    for _ in range(4):
        for m in re.finditer(r'(->|\.)?\s*(\w+)(?:\s*\[[^\]]*\])?\s*=(?!=)\s*([^;]*)', body):
            if m.group(2) not in tv and mentions(m.group(3), tv):
                tv.add(m.group(2))
                if m.group(1):
                    members.add(m.group(2))
        for m in re.finditer(r'cJSON_ArrayForEach\s*\(\s*(\w+)\s*,([^;{]*)\)', body):
            if mentions(m.group(2), tv):
                tv.add(m.group(1))


def defs_of(callee, file):
    """the definitions a call of callee in file reaches: the file's own, else every file's"""
    own = [d for d in funcs.get(callee, []) if d["file"] == file]
    return own or funcs.get(callee, [])


changed = True
while changed:
    changed = False
    for name, defs in funcs.items():
        for d in defs:
            # a function returns a stage tree when what it returns comes from one it found
            # itself, not from its parameters (get(o, k) returns whatever o is part of)
            local = set()
            spread(d["body"], local)
            if name not in returning and any(mentions(r, local) for r in
                                             re.findall(r"\breturn\b([^;]*);", d["body"])):
                returning.add(name)
                changed = True
            tv = d["tainted"]
            before = len(tv)
            tv |= local
            spread(d["body"], tv)
            for callee, a, _ in calls(d):
                for cd in defs_of(callee, d["file"]):
                    for i, arg in enumerate(a):
                        if i < len(cd["params"]) and cd["params"][i] and mentions(arg, tv) \
                                and cd["params"][i] not in cd["tainted"]:
                            cd["tainted"].add(cd["params"][i])
                            changed = True
            if len(tv) != before:
                changed = True
print("# %d sources" % len(files))
hits = {}
for name, defs in funcs.items():
    for d in defs:
        for callee, a, at in calls(d):
            if callee not in readers or callee == name:
                continue
            io, ik = readers[callee]
            if len(a) <= max(io, ik) or not re.fullmatch(r'"[^"]*"', a[ik]):
                continue
            if mentions(a[io], d["tainted"]):
                line = files[d["file"]].count("\n", 0, d["at"] + at) + 1
                hits.setdefault(d["file"], []).append("%s:%d: %s(%s, %s)" % (d["file"], line, callee, a[io], a[ik]))
for f in sorted(hits):
    print(len(hits[f]), f)
if "--list" in sys.argv[1:]:
    for f in sorted(hits):
        print("\n".join(hits[f]))
