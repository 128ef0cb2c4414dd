# tries: walks frames upward (sys._getframe().f_back) looking for the runner's globals and a
#        way to the host, then calls system() through whatever builtins it finds.
# must record: the shell call refused (os.system); no frame above signals() holds data.
# expect-status: ok
# expect-action: os.system
import sys
def signals(df):
    f, depth = sys._getframe(), 0
    while f is not None:
        depth += 1
        f = f.f_back
    b = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
    try:
        b["__import__"]("os").system("touch /var/tmp/strataudit-hostile-02")
    except Exception:
        pass
    return [0] * len(df)
