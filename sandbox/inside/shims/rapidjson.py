# rapidjson.py - python-rapidjson's surface freqtrade strategies use (freqtrade itself depends on
# it, so strategies import it for their own files), over the standard json module: load, loads,
# dump, dumps, JSONDecodeError and the mode constants, accepted and ignored: a text with comments
# or trailing commas raises JSONDecodeError, as rapidjson does without PM_COMMENTS or
# PM_TRAILING_COMMAS.
import json

NM_NONE = 0
NM_DECIMAL = 1
NM_NAN = 2
NM_NATIVE = 4
PM_NONE = 0
PM_COMMENTS = 1
PM_TRAILING_COMMAS = 2
MM_NONE = 0
MM_COERCE_KEYS_TO_STRINGS = 1
MM_SKIP_NON_STRING_KEYS = 2
MM_SORT_KEYS = 4
DM_NONE = 0
DM_ISO8601 = 1
UM_NONE = 0
UM_CANONICAL = 1
WM_COMPACT = 0
WM_PRETTY = 1
BM_NONE = 0
BM_UTF8 = 1


class JSONDecodeError(ValueError):
    pass


def loads(s, **kwargs):
    if isinstance(s, (bytes, bytearray)):
        s = s.decode('utf-8')
    try:
        return json.loads(s)
    except ValueError as exc:
        raise JSONDecodeError(str(exc))


def load(fp, **kwargs):
    return loads(fp.read(), **kwargs)


def dumps(obj, indent=None, sort_keys=False, ensure_ascii=True, default=None, **kwargs):
    return json.dumps(obj, indent=indent, sort_keys=sort_keys, ensure_ascii=ensure_ascii,
                      default=default)


def dump(obj, fp, **kwargs):
    fp.write(dumps(obj, **kwargs))
