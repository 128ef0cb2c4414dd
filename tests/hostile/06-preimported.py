# tries: modules pandas already imported (subprocess via sys.modules), so no import happens.
# must record: the spawn refused (subprocess.Popen).
# expect-status: ok
# expect-action: subprocess.Popen
import sys
def signals(df):
    try:
        sys.modules["subprocess"].run(["/bin/sh", "-c", "touch /var/tmp/strataudit-hostile-06"])
    except Exception:
        pass
    return [0] * len(df)
