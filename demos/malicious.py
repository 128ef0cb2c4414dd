# malicious.py - not a strategy: it tries to run a shell command, spawn a process, open a
# socket, plant a file outside its scratch directory, delete one, then spins forever.
# The audit must come out REJECTED_UNSAFE: the sandbox records five refusals and one
# wall-clock kill, returns no signals, and the host is untouched.
import os
import socket
import subprocess

PLANT = "/var/tmp/strataudit-planted.txt"
CANARY = "/var/tmp/strataudit-canary.txt"


def attempt(what, fn):
    try:
        fn()
        print("did:", what)
    except Exception as e:
        print("refused:", what, type(e).__name__)


def plant():
    with open(PLANT, "w") as f:
        f.write("persisted\n")


def signals(df):
    attempt("shell command", lambda: os.system("id > /var/tmp/strataudit-shell.txt"))
    attempt("spawn a process", lambda: subprocess.Popen(["/bin/sleep", "600"]))
    attempt("open a socket", lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM).connect(("127.0.0.1", 9)))
    attempt("plant a file", plant)
    attempt("delete a file", lambda: os.remove(CANARY))
    while True:
        pass
