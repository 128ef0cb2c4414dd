#!/usr/bin/env bash
# 32-minimal-root.sh - a run sees its own minimal root and nothing of the host: every name the
# host has under /, /etc, /dev, /usr (and below it on the way to the read roots), /home, /root
# and along this checkout's path is probed from inside a run with the calls no layer records
# (posix.stat and lstat, os.access, os.readlink, os.statvfs). A name counts as seen when a call
# returns or fails with anything but ENOENT (EACCES, EINVAL, ENOTDIR all say it is there). The
# names seen must all belong to the root the zygote builds: the read roots (sys.path and the
# libraries' directories), the directories and links on the way to them, the alternatives links
# into them, /dev/null, an empty /proc and the scratch mount point.
source "$(dirname "$0")/../lib.sh"

head -n 101 data/ohlcv.csv >"$TMP/bars.csv" 2>/dev/null || { not_ok "data/ohlcv.csv present (make data/ohlcv.csv)"; finish; }
cat >"$TMP/config.json" <<'JSON'
{"stage": "config", "schema": 1, "ok": true,
 "limits": {"wall_s": 10, "cpu_s": 5, "mem_mb": 512, "scratch_mb": 4, "nofile": 64}}
JSON

# The names to probe, as the host has them, and the root a run should see, as the host's
# interpreter and libraries place it.
"$PY" - "$ROOT" "$TMP" <<'PYEOF'
import json, os, sys
root, tmp = sys.argv[1], sys.argv[2]
def entries(d):
    try:
        return [os.path.join(d, e) for e in sorted(os.listdir(d))]
    except OSError:
        return []
names = set()
for d in ("/", "/etc", "/dev", "/usr", "/usr/share", "/usr/local", "/usr/local/lib", "/usr/lib",
          "/home", "/root", "/var", "/run", "/sys"):
    names.add(d)
    names.update(entries(d))
names.update(["/etc/shadow", "/etc/passwd", "/etc/hostname", "/etc/localtime", "/etc/resolv.conf",
              "/proc/self", "/proc/1", "/proc/cpuinfo", "/proc/mounts", "/proc/sys", "/dev/shm",
              "/usr/bin/python3", "/usr/share/zoneinfo/UTC", "/usr/lib/python3/dist-packages"])
# the checkout, each directory on the way to it and what each of them holds
d = root
while d != "/":
    names.add(d)
    names.update(entries(d))
    d = os.path.dirname(d)
# sys.path as the zygote's interpreter (isolated, Debian's python3) has it, and the libraries'
roots = [p for p in sys.path if p and os.path.isdir(p)]
roots += ["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu", "/usr/lib64", "/lib64",
          "/etc/ld.so.cache", "/usr/share/zoneinfo"]
json.dump({"names": sorted(names), "roots": roots, "checkout": root}, open(tmp + "/probe.json", "w"))
PYEOF

# The probe: the names go in as a literal (a run reads no host file), what it saw comes out on
# stdout as one JSON line.
"$PY" - "$TMP" <<'PYEOF'
import json, sys
tmp = sys.argv[1]
names = json.load(open(tmp + "/probe.json"))["names"]
open(tmp + "/probe.py", "w").write('''import errno, json, os, posix
NAMES = %r
def seen(p):
    hits = []
    for call in (posix.stat, posix.lstat, os.readlink, os.statvfs):
        try:
            call(p)
            hits.append(call.__name__)
        except OSError as e:
            # EPERM: refused by the syscall filter (statfs), which tells nothing
            if e.errno not in (None, errno.ENOENT, errno.EPERM):
                hits.append("%%s:%%s" %% (call.__name__, errno.errorcode.get(e.errno, e.errno)))
        except Exception:
            pass
    try:
        if os.access(p, os.F_OK):
            hits.append("access")
    except Exception:
        pass
    return hits
def signals(df):
    out = {p: h for p in NAMES for h in [seen(p)] if h}
    try:
        v = os.statvfs("/")
        size = v.f_blocks * v.f_frsize
    except OSError:
        size = None  # refused (and recorded) by the syscall filter
    print(json.dumps({"seen": sorted(out), "root_bytes": size}))
    return [0] * len(df)
''' % names)
PYEOF

"$BIN/sandbox" --strategy "$TMP/probe.py" --data "$TMP/bars.csv" --config "$TMP/config.json" \
	-o "$TMP/run.json" --events "$TMP/events.jsonl" 2>"$TMP/err"
expect_eq "the probe runs" "0 ok" "$? $(jget "$TMP/run.json" status)"

"$PY" - "$TMP" >"$TMP/verdict" <<'PYEOF'
import json, os, sys
tmp = sys.argv[1]
p = json.load(open(tmp + "/probe.json"))
run = json.load(open(tmp + "/run.json"))
try:
    got = json.loads(run["stdout"].strip().splitlines()[-1])
except (ValueError, IndexError):
    print("not-ok the probe's report is one JSON line (%d bytes of stdout)" % len(run["stdout"]))
    sys.exit(0)
seen = set(got["seen"])
# The root: each read root by its name and its real path, what lies beneath, the directories
# and links on the way, the alternatives links into a root, and the three fixed names.
real = [os.path.realpath(r) for r in p["roots"] if os.path.exists(r)]
def beneath(x, d):
    return x == d or x.startswith(d.rstrip("/") + "/")
def on_the_way(x, r):
    return r == x or r.startswith(x.rstrip("/") + "/")
def in_root(x):
    if x in ("/dev", "/dev/null", "/proc", "/tmp", "/etc/alternatives") or x.startswith("/etc/alternatives/") and \
            any(beneath(os.path.realpath(x), r) for r in real):
        return True
    return any(beneath(x, r) or on_the_way(x, r) for r in real + p["roots"])
stray = sorted(x for x in seen if not in_root(x))
print(("ok" if not stray else "not-ok") + " only the minimal root's names are seen " + " ".join(stray[:40]))
for x in ["/home", "/root", "/etc/shadow", "/etc/passwd", "/etc/hostname", "/etc/localtime",
          "/proc/self", "/proc/1", "/proc/cpuinfo", "/sys", "/dev/shm", "/var", "/usr/bin/python3"]:
    print(("not-ok" if x in seen else "ok") + " not seen: " + x)
d = p["checkout"]
while d != "/":
    # a directory on the way that is one of the root's own names (a checkout under /tmp, the
    # scratch mount point) is the root's, not the host's
    if not in_root(d):
        print(("not-ok" if d in seen else "ok") + " not seen: the checkout's path, " + d)
    d = os.path.dirname(d)
top = sorted(x for x in seen if x.count("/") == 1 and x != "/")
want = sorted({"/" + r.split("/")[1] for r in real + p["roots"] if os.path.lexists(r)} | {"/dev", "/proc", "/tmp"})
print(("ok" if top == want else "not-ok") + " / holds %s (want %s)" % (" ".join(top), " ".join(want)))
print(("ok" if sorted(x for x in seen if x.startswith("/dev/")) == ["/dev/null"] else "not-ok") + " /dev holds only null")
# the probe could see: the names it must find are there (the check is not empty)
must = [r for r in real if r in p["names"]][:3] + ["/dev/null", "/etc/ld.so.cache", "/"]
print(("ok" if all(x in seen for x in must) else "not-ok") + " the probe sees the root itself: " + " ".join(x for x in must if x not in seen))
size = got["root_bytes"]
print(("ok" if size is None or size <= 1 << 20 else "not-ok") + " / is the root's own small tmpfs, not the host's disk (%s)" %
      ("statvfs refused" if size is None else "%d bytes" % size))
PYEOF
while read -r word what; do
	if [ "$word" = ok ]; then ok "$what"; else not_ok "$what"; fi
done <"$TMP/verdict"
[ -s "$TMP/verdict" ] || not_ok "the probe's report was judged"
finish
