"""ta (Technical Analysis Library in Python), as far as strategies use it: ta.volatility's
keltner_channel_wband and donchian_channel_pband, ta.trend's ichimoku_base_line and
KSTIndicator, ta.utils' dropna, as ta defines them. Any other of its names (add_all_ta_features
among them) is refused by name."""
from ta import trend, utils, volatility  # noqa: F401
from ta.utils import refuse


def __getattr__(name):
    return refuse('ta', name)
