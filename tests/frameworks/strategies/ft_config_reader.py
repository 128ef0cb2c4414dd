# A freqtrade strategy that reads its configuration the way large community strategies do in
# __init__: the exchange's settings (its name, its whitelist, ccxt options it sets), the stake,
# the run and trading modes, and a cache file of its own in the user-data directory, which it
# loads when it exists and writes when it changed; and its data provider's live-only answers
# (a chat message, the exchange's latest candles). It trades only when every value is the one
# freqtrade's backtest of one pair would give it; otherwise it never enters.
import json

import talib.abstract as ta
from pandas import DataFrame

from freqtrade.strategy import IStrategy


class ConfigReader(IStrategy):
    INTERFACE_VERSION = 3
    minimal_roi = {"0": 0.05}
    stoploss = -0.1
    timeframe = '1h'
    startup_candle_count = 20

    def __init__(self, config: dict) -> None:
        exchange = config["exchange"]
        if "ccxt_config" not in exchange:
            exchange["ccxt_config"] = {}
        exchange["ccxt_config"]["options"] = {"brokerId": None}
        super().__init__(config)
        cache = self.config["user_data_dir"] / ("cache-" + exchange["name"] + "-" +
                                                self.config["stake_currency"] + ".json")
        try:
            with cache.open("r") as f:
                self.cached = json.load(f)
        except FileNotFoundError:
            self.cached = {}
        self.cached["runs"] = self.cached.get("runs", 0) + 1
        with cache.open("w") as f:
            json.dump(self.cached, f)
        with cache.open("r") as f:
            written = json.load(f)
        self.as_backtest = (
            self.config["runmode"].value == "backtest"
            and self.config["dry_run"] is True
            and self.config["trading_mode"] == "spot"
            and self.config["stake_amount"] == "unlimited"
            and self.config["max_open_trades"] == 1
            and len(exchange["pair_whitelist"]) == 1
            and exchange["pair_whitelist"] == self.config["pairs"]
            and isinstance(exchange["name"], str) and exchange["name"]
            and self.config["exit_pricing"]["price_side"] in ("same", "other", "ask", "bid")
            and written == {"runs": 1}
        )

    def populate_indicators(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        self.dp.send_msg("indicators for " + metadata['pair'])  # sent only in dry-run and live
        self.as_backtest = self.as_backtest and self.dp.ohlcv(metadata['pair'], self.timeframe).empty
        dataframe['rsi'] = ta.RSI(dataframe, timeperiod=14)
        return dataframe

    def populate_entry_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        whitelisted = metadata['pair'] in self.config["exchange"]["pair_whitelist"]
        dataframe.loc[(dataframe['rsi'] < 35) & self.as_backtest & whitelisted, 'enter_long'] = 1
        return dataframe

    def populate_exit_trend(self, dataframe: DataFrame, metadata: dict) -> DataFrame:
        dataframe.loc[dataframe['rsi'] > 65, 'exit_long'] = 1
        return dataframe
