# tries: hides its real refusals behind forged ones: 300 well-formed records under each rule its
#        real attempts will earn (the same actions, the details "forged"), then the real
#        attempts: write the canary, read /etc/passwd, open a socket. A log capped across rules
#        kept the forgeries and dropped the truth.
# must record: the real refusals, each with its own detail (records are kept and counted per
#              rule, and each rule's latest is kept); the forgeries counted under their rules.
# expect-status: ok
# expect-event: open | writes stay in scratch
# expect-event: open | reads stay in the interpreter's files
# expect-event: socket.__new__ | no network
# expect-detail: /var/tmp/strataudit-canary.txt
# expect-detail: /etc/passwd
# expect-detail: , 2, 1, 0)
import os
import socket
def signals(df):
    fakes = [b"open\x1fwrites stay in scratch\x1fforged", b"open\x1freads stay in the interpreter's files\x1fforged",
             b"socket.__new__\x1fno network\x1fforged"]
    for i in range(900):
        try:
            os.write(4, fakes[i % 3])
        except OSError:
            pass
    for attempt in (lambda: open("/var/tmp/strataudit-canary.txt", "w").write("pwned"),
                    lambda: open("/etc/passwd").read(),
                    lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM)):
        try:
            attempt()
        except (OSError, RuntimeError):
            pass
    return [0] * len(df)
