"""pandas_ta: importable, with none of its indicators; each one a strategy calls, as
pandas_ta.<name>(...) or through the DataFrame's .ta accessor, is refused by name."""
import pandas as pd

from sa_frameworks import NotSupported

version = 'strataudit'


def _refuse(name):
    return NotSupported('pandas_ta.%s is not supported: the sandbox\'s pandas_ta can be imported '
                        'but provides no indicators; talib, talib.abstract, qtpylib, technical and '
                        'ta provide the common ones' % name)


def __getattr__(name):
    if name.startswith('__'):
        raise AttributeError(name)
    raise _refuse(name)


class _Accessor:
    """DataFrame.ta: every indicator refused by name."""

    def __init__(self, frame):
        self._frame = frame

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise _refuse(name)


if not hasattr(pd.DataFrame, 'ta'):
    pd.api.extensions.register_dataframe_accessor('ta')(_Accessor)
