# A freqtrade strategy whose hyperopt space is a search the file declares:
# 26 x 16 x 2 x 1 x 2 = 1664 points; the second class adds a continuous range.
from freqtrade.strategy import (BooleanParameter, CategoricalParameter, DecimalParameter,
                                IntParameter, IStrategy, RealParameter)

LOW = 10


class Searched(IStrategy):
    buy_rsi = IntParameter(15, 40, default=35, space='buy')
    band = DecimalParameter(1.5, 3.0, default=2.0, decimals=1, space='buy')
    kind = CategoricalParameter(['ema', 'sma'], default='ema', space='sell')
    fixed = IntParameter(1, 100, default=3, optimize=False)
    use = BooleanParameter(default=True)

    def populate_indicators(self, dataframe, metadata):
        return dataframe


class Wider(Searched):
    stake = RealParameter(0.1, 0.9, default=0.5)
    window = IntParameter(LOW, 50, default=20)
