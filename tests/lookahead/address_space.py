# Expected: clean, on the bars tests/e2e/40-lookahead.sh writes (bar i: open 100 + i/64, high
# open + 2/256, low open - 1/256, close open + 1/256, volume 1000 + i: no price of one column
# equals any of another, so a pair found is the pair looked for). Reads every readable page of
# its own address space it can find, through numpy's array interface (no ctypes, no /proc: the
# sandbox refuses both), looking for the bar after the last one it was given. A truncated run
# that finds it flips its last signal, so a leak of even one bar into memory is a mismatch.
#
# Mappings are found without /proc/self/maps: a page is readable when the kernel can copy it
# (os.pwrite of it to a scratch file succeeds, EFAULT otherwise), a region extends as far as
# that holds, and the regions are discovered from the addresses of live objects and then from
# every pointer-like word inside the regions found, until no new page turns up. A mapping that
# no live pointer leads to is not reached; the frame's columns and index are seeded directly. Pages are read
# back through the same file, so one unmapped meanwhile is skipped rather than a crash. Outside
# the sandbox this reaches every readable mapping /proc/self/maps lists but the kernel's clock
# pages ([vvar]), which hold no data.
#
# The needles are pairs of adjacent 8-byte words, never one value: the scanner's own copy of a
# value sits in an object with a header before it, so only the data can hold two in a row. The
# bar's (high, low) pair is adjacent in any row layout, (close, next close) in any column one.
# Its own last bar must be found the same way, or it raises: a scan that sees nothing proves
# nothing.
import bisect
import os
import sys

import numpy as np

PAGE = 4096
CHUNK = 1 << 20
LO, HI = 1 << 16, 1 << 47


class _At:
    def __init__(self, addr, size):
        self.__array_interface__ = {"data": (addr, False), "shape": (size,),
                                    "typestr": "|u1", "version": 3}


def _readable(fd, addr, size):
    """How many bytes from addr the kernel can read, up to size (0 if none)."""
    try:
        return os.pwrite(fd, np.asarray(_At(addr, size)), 0) // PAGE * PAGE
    except (OSError, ValueError):  # not mapped; or an address numpy will not take
        return 0


def _region(fd, page):
    """The readable run of pages around page: (start, end)."""
    start = page
    while start - CHUNK >= LO and _readable(fd, start - CHUNK, CHUNK) == CHUNK:
        start -= CHUNK
    while start - PAGE >= LO and _readable(fd, start - PAGE, PAGE) == PAGE:
        start -= PAGE
    end = page
    while True:
        got = _readable(fd, end, CHUNK)
        end += got
        if got < CHUNK:
            break
    # a chunk past the top of the user address space is refused whole (EFAULT, not a short
    # copy), and a stack laid out without randomisation ends right there: the rest by pages
    while _readable(fd, end, PAGE) == PAGE:
        end += PAGE
    return start, end


def _merged(regions):
    out = []
    for start, end in sorted(regions):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _covered(regions, pages):
    if not regions:
        return np.zeros(len(pages), dtype=bool)
    starts = np.array([r[0] for r in regions], dtype=np.uint64)
    ends = np.array([r[1] for r in regions], dtype=np.uint64)
    order = np.argsort(starts)
    starts, ends = starts[order], ends[order]
    i = np.searchsorted(starts, pages, side="right") - 1
    ok = i >= 0
    out = np.zeros(len(pages), dtype=bool)
    out[ok] = pages[ok] < ends[i[ok]]
    return out


def _words(fd, start, end):
    """The region's words, chunk by chunk, copied out by the kernel (a page freed meanwhile is
    skipped, not a crash): pwrite of the pages to the scratch file, then pread of them back."""
    a = start
    while a < end:
        got = _readable(fd, a, min(CHUNK, end - a))
        if got == 0:
            a += PAGE
            continue
        yield np.frombuffer(os.pread(fd, got, 0), dtype=np.uint64)
        a += got


def _pointer_pages(fd, start, end):
    found = []
    for w in _words(fd, start, end):
        p = w[(w >= LO) & (w < HI)] & np.uint64(~(PAGE - 1) & (HI - 1))
        found.append(np.unique(p))
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.uint64)


def _map(fd, seeds):
    regions = []
    starts = []
    todo = np.unique(np.array([s & ~(PAGE - 1) for s in seeds if LO <= s < HI], dtype=np.uint64))
    while len(todo):
        new = []
        for page in todo[~_covered(regions, todo)]:
            page = int(page)
            # a region found earlier in this pass may hold it: a bisection over the sorted,
            # merged regions, rebuilt only when one is added
            i = bisect.bisect_right(starts, page) - 1
            if i >= 0 and page < regions[i][1]:
                continue
            if _readable(fd, page, PAGE) != PAGE:
                continue
            r = _region(fd, page)
            regions = _merged(regions + [r])
            starts = [a for a, _ in regions]
            new.append(r)
        if not new:
            break
        todo = np.unique(np.concatenate([_pointer_pages(fd, *r) for r in _merged(new)]))
    return regions


def _pairs(fd, regions, pairs):
    """How often each (a, b) occurs as two adjacent aligned words, over every region."""
    bits = [(np.float64(a).view(np.uint64), np.float64(b).view(np.uint64)) for a, b in pairs]
    hits = [0] * len(bits)
    for start, end in regions:
        prev = None
        for w in _words(fd, start, end):
            for k, (a, b) in enumerate(bits):
                m = w[:-1] == a
                m &= w[1:] == b
                hits[k] += int(np.count_nonzero(m)) + int(prev == a and w[0] == b)
            prev = w[-1]
    return hits


def _bar(i):
    o = 100.0 + i / 64.0
    return o, o + 2 / 256, o - 1 / 256, o + 1 / 256


CALLS = [0]


def signals(df):
    n = len(df)
    first = float(df["open"].iloc[0])
    if first != 100.0:
        raise ValueError("these are not the bars this test writes")
    out = ((np.arange(n) // 17) % 2).astype(int)
    # A run calls once; a live run (one process fed one bar at a time) many times: it scans at
    # its first decision and every 16th after, so its appended bars are searched too, in time.
    CALLS[0] += 1
    if (CALLS[0] - 1) % 16:
        return out
    seeds = [id(df), id(df._mgr), id(np), id(os), id(int), id(np.ndarray), id(sys.modules)]
    seeds += [b.values.__array_interface__["data"][0] for b in df._mgr.blocks]
    # each column's own start: columns need not share one mapping
    seeds += [df[c].values.__array_interface__["data"][0] for c in df.columns]
    seeds += [df.index.asi8.__array_interface__["data"][0]]
    seeds += [id(m) for m in list(sys.modules.values())]
    fd = os.open("scan.tmp", os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        regions = _map(fd, seeds)
        # its own last bar, as a row (high, low) and as a column (close before, close)
        own_row, own_col, next_row, next_col = _pairs(fd, regions, [
            _bar(n - 1)[1:3], (_bar(n - 2)[3], _bar(n - 1)[3]),
            _bar(n)[1:3], (_bar(n)[3], _bar(n + 1)[3])])
    finally:
        os.close(fd)
        os.unlink("scan.tmp")
    own, nxt = own_row + own_col, next_row + next_col
    print("bars %d: %d regions, %d bytes, own last bar %d, bar after %d"
          % (n, len(regions), sum(e - s for s, e in regions), own, nxt), file=sys.stderr)
    # (a one-bar column has no pair to find: there the control rests on the other runs)
    if own == 0 and n >= 2:
        raise RuntimeError("the scan did not find the last bar it was given")
    if nxt:
        out[-1] = 1 - out[-1]
    return out
