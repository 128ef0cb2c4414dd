"""feather.py - writes an Arrow IPC file (Feather version 2) of a timestamp column and float64
columns, as pandas' DataFrame.to_feather writes freqtrade's candles (freqtrade: compression
"lz4"), its buffers plain, LZ4-framed or ZSTD-framed. Debian 12 packages no pyarrow, so this
writes the format from its specification (format/Schema.fbs, Message.fbs, File.fbs): the
flatbuffers laid out front to back, each object after the field that points at it.

write(path, times_ns, columns, codec=None, rows_per_batch=None, time_name="date"): columns is
a list of (name, [float, ...]); codec None, "lz4" or "zstd".
"""
import struct

import lz4.frame
import zstandard

V5 = 4  # MetadataVersion.V5
T_FLOAT, T_TIMESTAMP = 3, 10
H_SCHEMA, H_RECORD_BATCH = 1, 3


class Table:
    """A flatbuffer table: fields by slot, each (format, value) or (None, child object)."""

    def __init__(self, *slots):
        self.slots = slots


class Vec:
    """A vector of tables, or (raw=bytes, n=count, align=8) one of structs."""

    def __init__(self, items=None, raw=None, n=0):
        self.items, self.raw, self.n = items, raw, n


class Str:
    def __init__(self, s):
        self.s = s.encode()


def _pad(buf, align):
    while len(buf) % align:
        buf.append(0)


def _put(buf, obj):
    """Writes obj at the end of buf; returns its position."""
    if isinstance(obj, Str):
        _pad(buf, 4)
        at = len(buf)
        buf += struct.pack("<I", len(obj.s)) + obj.s + b"\0"
        return at
    if isinstance(obj, Vec) and obj.raw is not None:
        while (len(buf) + 4) % 8:
            buf.append(0)
        at = len(buf)
        buf += struct.pack("<I", obj.n) + obj.raw
        return at
    if isinstance(obj, Vec):
        _pad(buf, 4)
        at = len(buf)
        buf += struct.pack("<I", len(obj.items))
        refs = []
        for _ in obj.items:
            refs.append(len(buf))
            buf += b"\0\0\0\0"
        for ref, item in zip(refs, obj.items):
            struct.pack_into("<I", buf, ref, _put(buf, item) - ref)
        return at
    # a table: its vtable, then the table (8-aligned), then the objects its fields point at
    layout, size = [], 4
    for slot in obj.slots:
        if slot is None:
            layout.append(None)
            continue
        fmt = slot[0] or "<I"
        w = struct.calcsize(fmt)
        size = (size + w - 1) // w * w
        layout.append(size)
        size += w
    _pad(buf, 2)
    vt = len(buf)
    buf += struct.pack("<HH", 4 + 2 * len(layout), size)
    buf += b"".join(struct.pack("<H", 0 if o is None else o) for o in layout)
    _pad(buf, 8)
    at = len(buf)
    buf += struct.pack("<i", at - vt) + bytes(size - 4)
    children = []
    for slot, o in zip(obj.slots, layout):
        if slot is None:
            continue
        if slot[0]:
            struct.pack_into(slot[0], buf, at + o, slot[1])
        else:
            children.append((at + o, slot[1]))
    for ref, child in children:
        struct.pack_into("<I", buf, ref, _put(buf, child) - ref)
    return at


def _flatbuffer(root):
    buf = bytearray(8)  # the root offset, then padding to 8
    struct.pack_into("<I", buf, 0, _put(buf, root))
    _pad(buf, 8)
    return bytes(buf)


def _schema(names):
    def field(name, is_time):
        kind = Table(("<h", 3), (None, Str("UTC"))) if is_time else Table(("<h", 2))
        return Table((None, Str(name)), ("<?", False), ("<B", T_TIMESTAMP if is_time else T_FLOAT),
                     (None, kind), None, (None, Vec(items=[])))
    return Table(("<h", 0), (None, Vec(items=[field(n, i == 0) for i, n in enumerate(names)])))


def _compress(codec, data):
    if codec is None:
        return data
    if codec == "lz4":
        body = lz4.frame.compress(data)
    else:
        body = zstandard.ZstdCompressor(level=3).compress(data)
    return struct.pack("<q", len(data)) + body


def _message(header_type, header, body_len):
    fb = _flatbuffer(Table(("<h", V5), ("<B", header_type), (None, header), ("<q", body_len)))
    return struct.pack("<Ii", 0xFFFFFFFF, len(fb)) + fb


def _batch(times, columns, codec):
    n = len(times)
    values = [struct.pack("<%dq" % n, *times)] + [struct.pack("<%dd" % n, *v) for _, v in columns]
    body, bufs = bytearray(), []
    for v in values:
        bufs.append((len(body), 0))  # the validity bitmap: none, no value is missing
        data = _compress(codec, v)
        bufs.append((len(body), len(data)))
        body += data
        _pad(body, 8)
    nodes = b"".join(struct.pack("<qq", n, 0) for _ in values)
    raw = b"".join(struct.pack("<qq", o, ln) for o, ln in bufs)
    rb = Table(("<q", n), (None, Vec(raw=nodes, n=len(values))), (None, Vec(raw=raw, n=len(bufs))),
               (None, Table(("<b", 0 if codec == "lz4" else 1), ("<b", 0))) if codec else None)
    return _message(H_RECORD_BATCH, rb, len(body)), bytes(body)


def write(path, times_ns, columns, codec=None, rows_per_batch=None, time_name="date"):
    names = [time_name] + [name for name, _ in columns]
    out = bytearray(b"ARROW1\0\0")
    out += _message(H_SCHEMA, _schema(names), 0)
    step = rows_per_batch or len(times_ns)
    blocks = []
    for lo in range(0, len(times_ns), step):
        meta, body = _batch(times_ns[lo:lo + step], [(c, v[lo:lo + step]) for c, v in columns], codec)
        blocks.append(struct.pack("<qi4xq", len(out), len(meta), len(body)))
        out += meta + body
    footer = _flatbuffer(Table(("<h", V5), (None, _schema(names)), None,
                               (None, Vec(raw=b"".join(blocks), n=len(blocks)))))
    out += footer + struct.pack("<i", len(footer)) + b"ARROW1"
    with open(path, "wb") as f:
        f.write(out)
