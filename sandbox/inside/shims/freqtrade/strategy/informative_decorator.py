"""freqtrade.strategy.informative_decorator: the decorator as freqtrade.strategy's."""
from freqtrade.strategy import informative  # noqa: F401
