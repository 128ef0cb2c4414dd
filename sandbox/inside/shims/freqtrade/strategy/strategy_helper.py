"""freqtrade.strategy.strategy_helper: the helpers as freqtrade.strategy's."""
from freqtrade.strategy import (merge_informative_pair, stoploss_from_absolute,  # noqa: F401
                                stoploss_from_open)
