# Expected: every run of the check fails with the same message (tests/e2e/40-lookahead.sh).
# Each run reports what an earlier run would have changed in an interpreter the runs shared: the
# collector's counts, the allocator's count of blocks in use, and where the next object lands.
# Runs forked from one unchanging data zygote report the same three whatever their point; a
# data zygote that did Python work for each run before forking it would hand every run a
# different state, and a run could count the runs forked before it (the last is the full run).
import gc
import sys


def signals(df):
    probe = object()
    raise RuntimeError("state %s %d %x" % (gc.get_count(), sys.getallocatedblocks(), id(probe)))
