# A backtesting.py strategy that orders on fixed bars, to check its fill rule (the next bar's
# open) and that, without exclusive_orders, a buy against an open short is not filled.
from backtesting import Strategy


class FixedBars(Strategy):
    def next(self):
        bar = len(self.data) - 1
        if bar == 100:
            self.buy()
        elif bar == 150:
            self.position.close()
        elif bar == 200:
            self.sell()
        elif bar == 250:
            self.buy()
        elif bar == 300:
            self.position.close()
        elif bar == 350:
            self.buy()
        elif bar == 400 and self.position.is_long and self.trades[0].entry_bar == 351:
            self.position.close()
