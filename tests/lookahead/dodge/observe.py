# Expected: clean, for every fact (tests/e2e/41-dodge.sh writes one copy per FACT).
# A detector: it reads one fact a run can learn about itself and writes a hash of it into its
# first 64 signals. If the fact were different in a truncated run from the full run, the
# truncated run's signals would differ on bars it saw and the check would name it: so "clean"
# proves the fact cannot tell a truncated run from the full one. The data's length aside, which
# every run knows (len(df)), nothing here may depend on which run this is.
import gc
import hashlib
import os
import posix
import resource
import sys
import threading

import numpy as np

FACT = "@FACT@"


def chain(x):
    """The types along an array's .base chain (not addresses: those differ between processes)."""
    out = []
    while x is not None and len(out) < 8:
        out.append(type(x).__name__)
        x = getattr(x, "base", None)
    return out


def flags(a):
    f = a.flags
    return (f.owndata, f.writeable, f.c_contiguous, f.f_contiguous, f.aligned, a.strides[0] if a.ndim == 1 else a.strides)


def exists(p):
    try:
        posix.stat(p)
        return True
    except OSError as e:
        return "raised " + type(e).__name__


def attempt(fn):
    try:
        return repr(fn())
    except BaseException as e:  # the kind of failure is itself a fact
        return "raised " + type(e).__name__


def fact(df):
    block = df._mgr.blocks[0].values
    table = {
        "pid": lambda: (os.getpid(), os.getppid(), os.getpgrp(), os.getsid(0)),
        # calls no layer refuses (posix.stat raises no audit event; a readlink of a name that is
        # not there is let through), so the run is compared, not refused
        "proc": lambda: (exists("/proc"), exists("/proc/self"),
                         attempt(lambda: os.readlink("/proc/self")),
                         attempt(lambda: os.readlink("/proc/thread-self"))),
        "frame_flags": lambda: (flags(df["close"].to_numpy()), flags(block), flags(df.index.asi8),
                                df.values.flags.owndata, df.values.strides == block.T.strides),
        "frame_base": lambda: (chain(df["close"].to_numpy()), chain(block), chain(df.index.asi8)),
        "frame_types": lambda: (type(df.index).__name__, str(df.index.dtype), df.index.freq,
                                df.index.name, list(df.columns), [str(d) for d in df.dtypes],
                                df._mgr.nblocks, type(df._mgr).__name__),
        "gc": lambda: (gc.get_count(), [s["collections"] for s in gc.get_stats()], gc.isenabled(),
                       gc.get_freeze_count()),
        "blocks": lambda: sys.getallocatedblocks(),
        # a run's own major faults and blocks read say whether the interpreter's pages were in
        # the page cache: the channel sandbox/README "What runs share" names (cold on a fresh
        # machine, warm after), not a mark of the full run, so they are left out here
        "rusage": lambda: (tuple(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in
                                 ("ru_utime", "ru_stime", "ru_maxrss", "ru_minflt", "ru_majflt")),
                           resource.getrusage(resource.RUSAGE_SELF).ru_oublock,
                           resource.getrusage(resource.RUSAGE_SELF).ru_nswap),
        "descriptors": lambda: [attempt(lambda fd=fd: os.fstat(fd).st_mode) for fd in range(16)],
        "cwd": lambda: (os.getcwd(), sorted(os.listdir("."))),
        "mounts": lambda: (exists("/"), exists("/sys"), exists("/dev/shm"), exists("/dev/null"),
                           posix.stat("/tmp").st_mode, posix.stat("/").st_mode),
        "uid": lambda: (os.getuid(), os.geteuid(), os.getgid(), os.getgroups(), os.getresuid()),
        "environment": lambda: (sorted(os.environ.items()), sys.argv, sys.flags, sys.path),
        "limits": lambda: [resource.getrlimit(r) for r in
                           (resource.RLIMIT_CPU, resource.RLIMIT_FSIZE, resource.RLIMIT_NOFILE,
                            resource.RLIMIT_NPROC, resource.RLIMIT_CORE, resource.RLIMIT_MEMLOCK)],
        "threads": lambda: (threading.active_count(), [t.name for t in threading.enumerate()]),
        "modules": lambda: sorted(sys.modules),
    }
    return table[FACT]()


def signals(df):
    digest = hashlib.sha256(repr(fact(df)).encode()).digest()
    bits = np.unpackbits(np.frombuffer(digest[:8], dtype=np.uint8))
    out = np.zeros(len(df), dtype=int)
    k = min(64, len(df))
    out[:k] = np.where(bits[:k] == 1, 1, -1)
    return out
