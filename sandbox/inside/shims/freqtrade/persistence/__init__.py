"""freqtrade.persistence: the names callback signatures and annotations use (Trade, Order,
PairLocks, LocalTrade). A backtest of one pair keeps no database: a class-level query (e.g.
Trade.get_trades_proxy) is refused with a sentence naming it."""
from sa_frameworks import NotSupported


class _NoDatabase(type):
    def __getattr__(cls, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise NotSupported('%s.%s is not supported: the audit backtests one pair and keeps no '
                           'trade database; a strategy reads its trade only through the callbacks '
                           'the audit runs' % (cls.__name__, name))


class Trade(metaclass=_NoDatabase):
    """A trade, as a type for signatures."""


class LocalTrade(Trade):
    """freqtrade's in-memory trade, as a type for signatures."""


class Order(metaclass=_NoDatabase):
    """An order, as a type for signatures."""


class PairLocks(metaclass=_NoDatabase):
    """Pair locks, as a type for signatures."""
