# tries: to learn the host and ship it out in its stdout: the kernel's release and build
#        (os.uname), the machine's RAM and free RAM (os.sysconf, which glibc answers from
#        sysinfo), its uptime (CLOCK_BOOTTIME, CLOCK_MONOTONIC, os.times' elapsed count of
#        ticks since boot), the host-wide pipe inode counter (os.pipe, then fstat), and
#        whether a read leaves a mark another run could stat (a library's access time).
# must record: the pipe refused by the kernel filter, "nothing of the host to learn"; the rest
#              answered with what is the same in every run: a fixed uname, the run's own memory
#              budget (512 MB here) as the machine's RAM, free and total, and clocks that start
#              at about one second when the run is forked (a time namespace of its own) while
#              the host has been up far longer; the read roots' access times fixed ahead. The
#              lines below are what the run saw.
# expect-status: ok
# expect-event: seccomp.pipe2 | nothing of the host to learn
# expect-stdout: uname Linux sandbox 6.0.0 #1 SMP x86_64
# expect-stdout: ram 536870912 free 536870912
# expect-stdout: boot clock under 30 s: True
# expect-stdout: monotonic clock under 30 s: True
# expect-stdout: times elapsed under 30 s: True
# expect-stdout: pipe inode: refused
# expect-stdout: access time moved by a read: False
# expect-signal-sum: 0
import os
import time
def signals(df):
    page = os.sysconf("SC_PAGE_SIZE")
    print("uname", " ".join(os.uname()))
    print("ram", os.sysconf("SC_PHYS_PAGES") * page, "free", os.sysconf("SC_AVPHYS_PAGES") * page)
    print("boot clock under 30 s:", time.clock_gettime(time.CLOCK_BOOTTIME) < 30)
    print("monotonic clock under 30 s:", time.monotonic() < 30)
    print("times elapsed under 30 s:", os.times().elapsed < 30)
    try:
        r, w = os.pipe()
        print("pipe inode:", os.fstat(r).st_ino)
    except OSError:
        print("pipe inode: refused")
    import numpy
    before = os.stat(numpy.__file__).st_atime_ns
    with open(numpy.__file__, "rb") as f:
        f.read()
    print("access time moved by a read:", os.stat(numpy.__file__).st_atime_ns != before)
    return [0] * len(df)
