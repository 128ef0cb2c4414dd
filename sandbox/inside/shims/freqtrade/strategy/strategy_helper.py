"""freqtrade.strategy.strategy_helper: the helpers as freqtrade.strategy's."""
from freqtrade.strategy import stoploss_from_absolute, stoploss_from_open  # noqa: F401
from freqtrade.strategy.informative_decorator import merge_informative_pair  # noqa: F401
