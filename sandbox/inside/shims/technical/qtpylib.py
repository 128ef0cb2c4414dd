"""technical.qtpylib: the same helpers as freqtrade.vendor.qtpylib.indicators."""
from freqtrade.vendor.qtpylib.indicators import *  # noqa: F401,F403
