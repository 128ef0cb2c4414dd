# tries: connects to a listener on the host's loopback and to the outside world.
# must record: the name lookup and the socket refused (socket.getaddrinfo, socket.__new__);
#              the listener sees nothing.
# expect-status: ok
# expect-action: socket.getaddrinfo
# expect-action: socket.__new__
import socket
def signals(df):
    try:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.connect(("127.0.0.1", 47913))
    except Exception:
        pass
    for addr in (("127.0.0.1", 47913), ("1.1.1.1", 443)):
        try:
            socket.create_connection(addr, timeout=1).sendall(b"leak")
        except Exception:
            pass
    return [0] * len(df)
