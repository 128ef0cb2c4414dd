#!/usr/bin/python3
"""stage_fields.py - a reader of the stage files (the verdict, the nightly's row, the report or a
pipeline stage) fed each field of the stage-file table removed, then mistyped, one at a time, in
the files of real audits.

usage: stage_fields.py VERDICT FIELDS WORKDIR AUDIT_DIR...
       stage_fields.py --nightly NIGHTLY FIELDS WORKDIR AUDIT_DIR...
       stage_fields.py --report REPORT FIELDS WORKDIR AUDIT_DIR...
       stage_fields.py --stage SOURCE ROWS WORKDIR AUDIT_DIR -- STAGE ARGS...

With --stage, the rows are those the stage's SOURCE names (SA_FD_<id>, the id matching the regex
ROWS), each of which it must read: removed (where it may not be absent) and mistyped, the stage
(its arguments' {dir} the audit's copy) must write "ok": false with the file and the field in
its reason; see stage_main.

FIELDS is `verdict --fields`' output (file, key, type, absent, unit, meaning a line). For each
audit directory and each row whose field that audit's file holds (for "a[].b", in the array's
first element), the verdict is run on a copy of the directory with the field removed, then with
a value of another type in its place. The verdict read the field when the outcome differs from
the untouched directory's; then it must be INCOMPLETE, naming the file and the field, where the
row says the field is always there (removed) and always (mistyped). A removal of a field the
row says may be absent must never be called a break. Prints one "ok"/"not ok" line per row and
audit that fails, a summary line per row that was never read, and exits 1 on any failure.

With --nightly the reader is `nightly row --dir`: the row read the field when it differs from
the untouched directory's; then the row's note must name the file and the field (a verdict.json
breaking the table makes the row FAILED as well).

With --report the reader is the report (`report --dir`, the page and its files written into the
copy): it read the field when its exit, its message or report.html differ from the untouched
directory's; then it must exit 3 with a message naming the file and the field. Only the rows
the report's sources (report/*.c) name are tried, each run of the report being seconds."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys


def locate(doc, key):
    """(parent, name) of key in doc, following the first element through "[]"; None if absent."""
    at = doc
    steps = key.split(".")
    for i, step in enumerate(steps):
        last = i == len(steps) - 1
        arr = step.endswith("[]")
        name = step[:-2] if arr else step
        if not isinstance(at, dict) or name not in at:
            return None
        if last:
            return at, name
        at = at[name]
        if arr:
            if not isinstance(at, list) or not at:
                return None
            at = at[0]
    return None


def wrong(kind):
    """A value of another JSON type than kind (never null: null is a value some rows allow)."""
    return {"number": "1", "string": 1, "boolean": "true", "object": [], "array": {}}[kind]


def copy_dir(workdir, src, name, mutate, every=False):
    """A copy of src's JSON files (links; every: all its files) in workdir, name's file went
    through mutate (None: untouched)."""
    d = os.path.join(workdir, "dir")
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    for f in os.listdir(src):
        if every or f.endswith(".json") or f.endswith(".jsonl"):
            os.symlink(os.path.abspath(os.path.join(src, f)), os.path.join(d, f))
    if mutate:
        path = os.path.join(d, name)
        doc = json.load(open(path))
        mutate(doc)
        os.unlink(path)
        with open(path, "w") as fp:
            json.dump(doc, fp)
    return d


class Verdict:
    """The verdict stage: a break is INCOMPLETE with the summary naming it."""

    @staticmethod
    def least(rows):
        """rows read below which the harness itself is broken: the verdict reads most"""
        return len(rows) // 2

    def __init__(self, binary):
        self.binary = binary

    def run(self, workdir, src, name, mutate):
        d = copy_dir(workdir, src, name, mutate)
        out = os.path.join(workdir, "verdict.json")
        sealed = ["--sealed", os.path.join(d, "sealed.json")] if os.path.exists(
            os.path.join(src, "sealed.json")) else []
        subprocess.run([self.binary, "--dir", d, "-o", out] + sealed, check=True,
                       capture_output=True)
        return json.load(open(out))

    @staticmethod
    def outcome(v):
        return json.dumps({k: v[k] for k in v if k != "inputs"}, sort_keys=True)

    @staticmethod
    def judged(v, name, key):
        """(a break was called, the file and field were named, the outcome is the right one,
        what was said)"""
        said = v["summary"]
        return ("does not hold what its stage writes" in said,
                name in said and '"%s"' % key in said, v["verdict"] == "INCOMPLETE",
                "verdict %s, summary: %s" % (v["verdict"], said))


class NightlyRow:
    """The nightly's row of an audit: a break is named in its note."""

    @staticmethod
    def least(rows):
        """the row's figures: the verdict's, stats.json's headline, the data's span"""
        return 20

    def __init__(self, binary):
        self.binary = binary

    def run(self, workdir, src, name, mutate):
        d = copy_dir(workdir, src, name, mutate)
        out = subprocess.run([self.binary, "row", "--dir", d], check=True, capture_output=True,
                             text=True).stdout
        return json.loads(out)

    @staticmethod
    def outcome(v):
        return json.dumps(v, sort_keys=True)

    @staticmethod
    def judged(v, name, key):
        note = v["note"] or ""
        named = name in note and '"%s"' % key in note
        right = v["verdict"] == "FAILED" if name == "verdict.json" else True
        return named, named, right, "verdict %s, note: %s" % (v["verdict"], note)


class ReportPage:
    """The report: a break makes it exit 3 naming the file and the field."""

    @staticmethod
    def least(rows):
        """the verdict's, the trials' and the forward section's rows"""
        return 15

    @staticmethod
    def only(rows):
        """the rows the report's sources take (SA_FD_<id> of the table's X(<id>, FILE, "key"))"""
        head = open("lib/base/stagefile.h", encoding="utf-8").read()
        files = dict(re.findall(r'^\s*X\(([A-Z_]+), "([a-z_]+\.jsonl?)"', head, re.M))
        keys = {i: (files[f], k) for i, f, k in
                re.findall(r'^\s*X\(([A-Z0-9_]+), ([A-Z_]+), "([^"]+)"', head, re.M) if f in files}
        used = set()
        for src in glob.glob("report/*.c"):
            used.update(re.findall(r"\bSA_FD_([A-Z0-9_]+)", open(src, encoding="utf-8").read()))
        want = {keys[i] for i in used if i in keys}
        return [r for r in rows if (r[0], r[1]) in want]

    def __init__(self, binary):
        self.binary = binary

    def run(self, workdir, src, name, mutate):
        d = copy_dir(workdir, src, name, mutate)
        p = subprocess.run([self.binary, "--dir", d, "--name", "fields", "--templates",
                            "templates"], capture_output=True, text=True)
        page = os.path.join(d, "report.html")
        html = hashlib.sha256(open(page, "rb").read()).hexdigest() if p.returncode == 0 else ""
        return {"rc": p.returncode, "said": p.stderr.strip(), "html": html}

    @staticmethod
    def outcome(v):
        return json.dumps(v, sort_keys=True)

    @staticmethod
    def judged(v, name, key):
        said = v["said"]
        broke = v["rc"] == 3 and "does not hold what its stage writes" in said
        return (broke, name in said and '"%s"' % key in said, v["rc"] == 3,
                "exit %d: %s" % (v["rc"], said))


def table_rows(source, pattern):
    """[(id, file, key, type, absent)] of the table's rows source names (SA_FD_<id>) whose id
    matches pattern; type and absent as `verdict --fields` spells them."""
    head = open("lib/base/stagefile.h", encoding="utf-8").read()
    files = dict(re.findall(r'^\s*X\(([A-Z_]+), "([a-z_]+\.jsonl?)"', head, re.M))
    kinds = {"NUM": "number", "STR": "string", "BOOL": "boolean", "OBJ": "object", "ARR": "array"}
    rows = {i: (files[f], k, kinds[ty], ab.lower()) for i, f, k, ty, ab in re.findall(
        r'^\s*X\(([A-Z0-9_]+), ([A-Z_]+), "([^"]+)",\s*SA_FT_([A-Z]+),\s*SA_FA_([A-Z]+)', head, re.M)
        if f in files}
    named = set(re.findall(r"\bSA_FD_([A-Z0-9_]+)", open(source, encoding="utf-8").read()))
    return [(i,) + rows[i] for i in sorted(named) if i in rows and re.fullmatch(pattern, i)]


def stage_main(args):
    """--stage SOURCE ROWS WORKDIR AUDIT_DIR -- CMD...: each row of the table SOURCE names (its id
    matching the regex ROWS), removed and then mistyped in AUDIT_DIR's file, makes the stage CMD
    (its arguments' {dir} the copy of the audit) write "ok": false with a reason naming the file
    and the field; a removed row that may be absent is no break. CMD's -o names its output."""
    source, pattern, workdir, src = args[:4]
    cmd = args[args.index("--") + 1:]
    out = cmd[cmd.index("-o") + 1]
    failed, tried = 0, 0
    for rid, name, key, kind, absent in table_rows(source, pattern):
        path = os.path.join(src, name)
        if not os.path.exists(path) or locate(json.load(open(path)), key) is None:
            print("# %s: %s %s is not in this audit's file" % (rid, name, key))
            continue
        tried += 1
        for how, mutate in (("removed", lambda d, k=key: (lambda p: p[0].pop(p[1]))(locate(d, k))),
                            ("mistyped", lambda d, k=key, t=kind:
                             (lambda p: p[0].__setitem__(p[1], wrong(t)))(locate(d, k)))):
            d = copy_dir(workdir, src, name, mutate, every=True)
            argv = [a.replace("{dir}", d) for a in cmd]
            subprocess.run(argv, capture_output=True, timeout=600)
            res = json.load(open(out.replace("{dir}", d)))
            said = res.get("reason") or ""
            named = name in said and '"%s"' % key in said
            what = "%s %s %s %s" % (os.path.basename(cmd[0]), name, key, how)
            if how == "removed" and absent == "may":
                if named:
                    failed = 1
                    print("not ok - %s: a field that may be absent was called a break: %s" % (what, said))
            elif res.get("ok") is not False or not named:
                failed = 1
                print("not ok - %s: ok %s, reason: %s" % (what, res.get("ok"), said[:300]))
    print("# %d rows tried" % tried)
    if not tried:
        failed = 1
        print("not ok - no row of %s matching %s is in this audit's files" % (source, pattern))
    return failed


def main():
    args = sys.argv[1:]
    if args[0] == "--stage":
        return stage_main(args[1:])
    if args[0] == "--nightly":
        reader = NightlyRow(args.pop(1))
    elif args[0] == "--report":
        reader = ReportPage(args.pop(1))
    else:
        reader = Verdict(args[0])
    fields, workdir = args[1:3]
    dirs = args[3:]
    rows = [line.rstrip("\n").split("\t") for line in open(fields) if line.strip()]
    if hasattr(reader, "only"):
        rows = reader.only(rows)
    failed = 0
    read = {}
    for src in dirs:
        base = reader.outcome(reader.run(workdir, src, None, None))
        for name, key, kind, absent, _unit, _help in rows:
            path = os.path.join(src, name)
            if not name.endswith(".json") or not os.path.exists(path):
                continue
            doc = json.load(open(path))
            if doc.get("ok") is not True or locate(doc, key) is None:
                continue
            cases = [("removed", lambda d, k=key: (lambda p: p[0].pop(p[1]))(locate(d, k)))]
            cases.append(("mistyped", lambda d, k=key, t=kind:
                          (lambda p: p[0].__setitem__(p[1], wrong(t)))(locate(d, k))))
            for how, mutate in cases:
                v = reader.run(workdir, src, name, mutate)
                broke, named, right, said = reader.judged(v, name, key)
                what = "%s: %s %s %s" % (os.path.basename(src), name, key, how)
                if how == "removed" and absent == "may":
                    if broke:
                        failed = 1
                        print("not ok - %s: a field that may be absent was called a break" % what)
                    continue
                if reader.outcome(v) == base:
                    continue
                read.setdefault((name, key), 0)
                read[(name, key)] += 1
                if not right or not broke or not named:
                    failed = 1
                    print("not ok - %s: %s" % (what, said[:300]))
    for name, key, kind, absent, _unit, _help in rows:
        if (name, key) not in read:
            print("# never read in these audits: %s %s" % (name, key))
    print("# %d of %d rows read and held to the table" % (len(read), len(rows)))
    if len(read) < reader.least(rows):
        failed = 1
        print("not ok - fewer than %d of the table's rows were read: the harness is broken"
              % reader.least(rows))
    return failed


if __name__ == "__main__":
    sys.exit(main())
