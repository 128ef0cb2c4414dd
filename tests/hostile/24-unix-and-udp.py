# tries: the socket kinds Landlock does not cover here: a UDP datagram and a unix socket.
# must record: refused (socket.__new__); seccomp refuses the socket() call as well.
# expect-status: ok
# expect-action: socket.__new__
import _socket
def signals(df):
    for fam, typ, addr in ((_socket.AF_INET, _socket.SOCK_DGRAM, ("127.0.0.1", 47913)),
                           (_socket.AF_UNIX, _socket.SOCK_STREAM, "/run/systemd/private")):
        try:
            s = _socket.socket(fam, typ)
            s.connect(addr)
            s.send(b"leak")
        except Exception:
            pass
    return [0] * len(df)
