#!/usr/bin/python3
"""stage_fields.py - the verdict fed each field of the stage-file table removed, then mistyped,
one at a time, in the files of real audits.

usage: stage_fields.py VERDICT FIELDS WORKDIR AUDIT_DIR...

FIELDS is `verdict --fields`' output (file, key, type, absent, unit, meaning a line). For each
audit directory and each row whose field that audit's file holds (for "a[].b", in the array's
first element), the verdict is run on a copy of the directory with the field removed, then with
a value of another type in its place. The verdict read the field when the outcome differs from
the untouched directory's; then it must be INCOMPLETE, naming the file and the field, where the
row says the field is always there (removed) and always (mistyped). A removal of a field the
row says may be absent must never be called a break. Prints one "ok"/"not ok" line per row and
audit that fails, a summary line per row that was never read, and exits 1 on any failure."""
import json
import os
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


def run(verdict, workdir, src, name, mutate):
    """The verdict over a copy of src whose file name went through mutate (None: untouched)."""
    d = os.path.join(workdir, "dir")
    shutil.rmtree(d, ignore_errors=True)
    os.mkdir(d)
    for f in os.listdir(src):
        if f.endswith(".json") or f.endswith(".jsonl"):
            os.symlink(os.path.abspath(os.path.join(src, f)), os.path.join(d, f))
    if mutate:
        path = os.path.join(d, name)
        doc = json.load(open(path))
        mutate(doc)
        os.unlink(path)
        with open(path, "w") as fp:
            json.dump(doc, fp)
    out = os.path.join(workdir, "verdict.json")
    sealed = ["--sealed", os.path.join(d, "sealed.json")] if os.path.exists(
        os.path.join(src, "sealed.json")) else []
    subprocess.run([verdict, "--dir", d, "-o", out] + sealed, check=True, capture_output=True)
    v = json.load(open(out))
    return v


def outcome(v):
    return json.dumps({k: v[k] for k in v if k != "inputs"}, sort_keys=True)


def main():
    verdict, fields, workdir = sys.argv[1:4]
    dirs = sys.argv[4:]
    rows = [line.rstrip("\n").split("\t") for line in open(fields) if line.strip()]
    failed = 0
    read = {}
    for src in dirs:
        base = outcome(run(verdict, workdir, src, None, None))
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
                v = run(verdict, workdir, src, name, mutate)
                said = v["summary"]
                broke = "does not hold what its stage writes" in said
                named = name in said and '"%s"' % key in said
                what = "%s: %s %s %s" % (os.path.basename(src), name, key, how)
                if how == "removed" and absent == "may":
                    if broke:
                        failed = 1
                        print("not ok - %s: a field that may be absent was called a break" % what)
                    continue
                if outcome(v) == base:
                    continue
                read.setdefault((name, key), 0)
                read[(name, key)] += 1
                if v["verdict"] != "INCOMPLETE" or not broke or not named:
                    failed = 1
                    print("not ok - %s: verdict %s, summary: %s" % (what, v["verdict"], said[:300]))
    for name, key, kind, absent, _unit, _help in rows:
        if (name, key) not in read:
            print("# never read in these audits: %s %s" % (name, key))
    print("# %d of %d rows read and held to the table" % (len(read), len(rows)))
    if len(read) < len(rows) // 2:
        failed = 1
        print("not ok - fewer than half the table's rows were read: the harness is broken")
    return failed


if __name__ == "__main__":
    sys.exit(main())
