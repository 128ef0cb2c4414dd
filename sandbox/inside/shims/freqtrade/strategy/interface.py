"""freqtrade.strategy.interface: where IStrategy is defined in freqtrade; the same class as
freqtrade.strategy's."""
from freqtrade.strategy import IStrategy  # noqa: F401
