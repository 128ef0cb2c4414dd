"""technical.util: resampling a strategy's candles to a longer interval and merging the result
back, as technical defines them. resample_to_interval groups the candles into intervals of the
given minutes labelled by their start (pandas' resample, empty intervals dropped);
resampled_merge puts each interval's row on the candle that ends it (its date moved on by the
interval less the candle), so a candle sees only intervals that have closed, names its columns
resample_<minutes>_<column>, and with fill_na carries every column forward."""
import pandas as pd

TICKER_INTERVAL_MINUTES = {'1m': 1, '5m': 5, '15m': 15, '30m': 30, '1h': 60, '60m': 60, '2h': 120,
                           '4h': 240, '6h': 360, '12h': 720, '1d': 1440, '1w': 10080}


def compute_interval(dataframe, exchange_interval=False):
    """The smallest step between two dates, in minutes (or its name, with exchange_interval)."""
    minutes = int((dataframe['date'] - dataframe['date'].shift()).min().total_seconds() // 60)
    if not exchange_interval:
        return minutes
    for name, value in TICKER_INTERVAL_MINUTES.items():
        if value == minutes:
            return name
    raise ValueError('sorry, your interval of %s is not supported in %s'
                     % (minutes, TICKER_INTERVAL_MINUTES))


def resample_to_interval(dataframe, interval):
    """The candles as intervals of `interval` minutes (or a name such as '1h'), dated by their start."""
    if isinstance(interval, str):
        interval = TICKER_INTERVAL_MINUTES[interval]
    df = dataframe.copy()
    df = df.set_index(pd.DatetimeIndex(df['date']))
    how = {'open': 'first', 'high': 'max', 'low': 'min', 'close': 'last', 'volume': 'sum'}
    df = df.resample('%dmin' % interval, label='left').agg(how).dropna()
    return df.reset_index()


def resampled_merge(original, resampled, fill_na=True):
    """resampled's rows on original's candles, each on the candle that closes its interval. Like
    technical's, it renames resampled's columns in place."""
    step = compute_interval(original)
    interval = compute_interval(resampled)
    if step >= interval:
        raise ValueError('Tried to merge a faster timeframe to a slower timeframe. Upsampling is '
                         'not possible.')
    resampled['date_merge'] = (resampled['date'] + pd.to_timedelta(interval, 'm')
                               - pd.to_timedelta(step, 'm'))
    resampled.columns = ['resample_%d_%s' % (interval, c) for c in resampled.columns]
    key = 'resample_%d_date_merge' % interval
    out = pd.merge(original, resampled, how='left', left_on='date', right_on=key).drop(key, axis=1)
    return out.ffill() if fill_na else out
