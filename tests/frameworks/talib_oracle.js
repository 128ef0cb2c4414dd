// talib_oracle.js - TA-Lib itself (its C code compiled to WebAssembly, npm's talib-web) run on
// tests/frameworks/talib_input.csv, written as talib_golden.json for tests/frameworks/check_talib.py.
// Test-only: `npm install talib-web@0.1.3` in a folder outside the project, then
//   NODE_PATH=that/node_modules node tests/frameworks/talib_oracle.js > tests/frameworks/talib_golden.json
// The package's own wrapper passes endIdx one past the end and no outBegIdx, so the C
// functions are called here directly, with TA-Lib's own begIdx and count.
'use strict';
delete globalThis.fetch; // node's fetch cannot read a file path: the module then reads the file
const fs = require('fs');
const path = require('path');
const talib = require('talib-web');

const OHLC = ['open', 'high', 'low', 'close'];
// candlestick patterns answer integers (100, -100, 0). Only those that use no candle setting:
// this build never calls TA_Initialize, so its settings are zero (talib_patterns_oracle.py has
// the others, from TA-Lib's C with its settings initialised)
const PATTERNS = ['CDLENGULFING'];
const CASES = [
  ['SMA', ['close'], [30], 1], ['SMA', ['close'], [5], 1],
  ['EMA', ['close'], [30], 1], ['EMA', ['close'], [9], 1],
  ['WMA', ['close'], [10], 1], ['DEMA', ['close'], [10], 1], ['TEMA', ['close'], [9], 1],
  ['RSI', ['close'], [14], 1], ['RSI', ['close'], [5], 1], ['CMO', ['close'], [14], 1],
  ['MOM', ['close'], [10], 1],
  ['MACD', ['close'], [12, 26, 9], 3], ['MACD', ['close'], [5, 13, 4], 3],
  ['STOCHF', ['high', 'low', 'close'], [5, 3, 0], 2], ['STOCHF', ['high', 'low', 'close'], [14, 3, 1], 2],
  ['STOCH', ['high', 'low', 'close'], [5, 3, 0, 3, 0], 2], ['STOCH', ['high', 'low', 'close'], [14, 3, 1, 3, 1], 2],
  ['CCI', ['high', 'low', 'close'], [14], 1], ['CCI', ['high', 'low', 'close'], [20], 1],
  ['MFI', ['high', 'low', 'close', 'volume'], [14], 1],
  ['PLUS_DI', ['high', 'low', 'close'], [14], 1], ['MINUS_DI', ['high', 'low', 'close'], [14], 1],
  ['ADX', ['high', 'low', 'close'], [14], 1], ['ADX', ['high', 'low', 'close'], [7], 1],
  ['TRANGE', ['high', 'low', 'close'], [], 1], ['ATR', ['high', 'low', 'close'], [14], 1],
  ['BBANDS', ['close'], [20, 2.0, 2.0, 0], 3], ['BBANDS', ['close'], [5, 1.5, 2.5, 1], 3],
  ['SAR', ['high', 'low'], [0.02, 0.2], 1], ['SAR', ['high', 'low'], [0.05, 0.3], 1],
  ['OBV', ['close', 'volume'], [], 1],
  ['MIN', ['close'], [30], 1], ['MAX', ['close'], [30], 1],
  // HT_SINE is in talib_patterns_oracle.py: this build's last bar differs from TA-Lib 0.4.0's C
  ['BOP', OHLC, [], 1],
  ['AVGPRICE', OHLC, [], 1], ['MEDPRICE', ['high', 'low'], [], 1],
  ['TYPPRICE', ['high', 'low', 'close'], [], 1], ['WCLPRICE', ['high', 'low', 'close'], [], 1],
  ['ROC', ['close'], [10], 1], ['ROCP', ['close'], [10], 1], ['ROCR', ['close'], [10], 1],
  ['ROCR100', ['close'], [7], 1], ['SUM', ['close'], [30], 1], ['MIDPOINT', ['close'], [14], 1],
  ['MIDPRICE', ['high', 'low'], [14], 1], ['WILLR', ['high', 'low', 'close'], [14], 1],
  ...['ACOS', 'ASIN', 'ATAN', 'CEIL', 'FLOOR', 'COS', 'COSH', 'SIN', 'SINH', 'TAN', 'TANH', 'EXP',
    'LN', 'LOG10', 'SQRT'].map((f) => [f, [f === 'ACOS' || f === 'ASIN' ? 'unit' : f === 'EXP' || f === 'COSH' || f === 'SINH' ? 'small' : 'close'], [], 1]),
  ...['ADD', 'SUB', 'MULT', 'DIV'].map((f) => [f, ['high', 'low'], [], 1]),
  ['VAR', ['close'], [5, 1.0], 1], ['STDDEV', ['close'], [5, 1.0], 1], ['STDDEV', ['close'], [20, 2.0], 1],
  ['PLUS_DM', ['high', 'low'], [14], 1], ['MINUS_DM', ['high', 'low'], [14], 1],
  ['PLUS_DM', ['high', 'low'], [1], 1], ['DX', ['high', 'low', 'close'], [14], 1],
  ['ADXR', ['high', 'low', 'close'], [14], 1], ['NATR', ['high', 'low', 'close'], [14], 1],
  ['AROON', ['high', 'low'], [14], 2], ['AROONOSC', ['high', 'low'], [14], 1],
  ['APO', ['close'], [12, 26, 0], 1], ['PPO', ['close'], [12, 26, 0], 1],
  ['TRIMA', ['close'], [30], 1], ['TRIMA', ['close'], [9], 1], ['TRIX', ['close'], [15], 1],
  ['ULTOSC', ['high', 'low', 'close'], [7, 14, 28], 1], ['AD', ['high', 'low', 'close', 'volume'], [], 1],
  ['ADOSC', ['high', 'low', 'close', 'volume'], [3, 10], 1],
  ['LINEARREG', ['close'], [14], 1], ['LINEARREG_SLOPE', ['close'], [14], 1],
  ['LINEARREG_INTERCEPT', ['close'], [14], 1], ['LINEARREG_ANGLE', ['close'], [14], 1],
  ['TSF', ['close'], [14], 1], ['CORREL', ['high', 'low'], [30], 1],
  ['MAXINDEX', ['close'], [30], 1, 'integer'], ['MININDEX', ['close'], [30], 1, 'integer'],
  ['MINMAX', ['close'], [30], 2],
  ['MINMAXINDEX', ['close'], [30], 2, 'integer'], ['MACDFIX', ['close'], [9], 3],
  ['STOCHRSI', ['close'], [14, 5, 3, 0], 2], ['KAMA', ['close'], [30], 1], ['KAMA', ['close'], [10], 1],
  ['T3', ['close'], [5, 0.7], 1], ['T3', ['close'], [8, 0.5], 1], ['BETA', ['high', 'low'], [5], 1],
  ['MACDEXT', ['close'], [12, 0, 26, 0, 9, 0], 3], ['MACDEXT', ['close'], [12, 1, 26, 1, 9, 1], 3],
  ['MACDEXT', ['close'], [5, 3, 13, 2, 4, 4], 3],
  ['SAREXT', ['high', 'low'], [0, 0, 0.02, 0.02, 0.2, 0.02, 0.02, 0.2], 1],
  ['SAREXT', ['high', 'low'], [0, 0.01, 0.03, 0.01, 0.25, 0.01, 0.04, 0.3], 1],
  ['SAREXT', ['high', 'low'], [-40100, 0, 0.02, 0.02, 0.2, 0.02, 0.02, 0.2], 1],
  ...PATTERNS.map((p) => [p, OHLC, [], 1, 'integer']),
];

function readInput(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  const cols = Object.fromEntries(head.map((h) => [h, []]));
  for (const line of lines.slice(1))
    line.split(',').forEach((v, i) => cols[head[i]].push(Number(v)));
  return cols;
}

// One TA-Lib call over the whole input: outputs of full length, null inside the lookback.
function call(M, name, inputs, opts, nOut, integer) {
  const n = inputs[0].length;
  const ptrs = inputs.map((a) => { const p = M._malloc(8 * n); M.HEAPF64.set(a, p / 8); return p; });
  const outs = Array.from({ length: nOut }, () => M._malloc(8 * n));
  const beg = M._malloc(4), nb = M._malloc(4);
  const args = [0, n - 1, ...ptrs, ...opts, beg, nb, ...outs];
  const rc = M.ccall('TA_' + name, 'number', args.map(() => 'number'), args);
  if (rc !== 0) throw new Error(name + ' returned ' + rc);
  const b = M.HEAP32[beg / 4], k = M.HEAP32[nb / 4];
  const res = outs.map((p) => {
    const full = new Array(n).fill(null);
    for (let i = 0; i < k; i++) full[b + i] = integer ? M.HEAP32[p / 4 + i] : M.HEAPF64[p / 8 + i];
    return full;
  });
  [...ptrs, ...outs, beg, nb].forEach((p) => M._free(p));
  return res;
}

talib.init(path.join(path.dirname(require.resolve('talib-web')), 'talib.wasm')).then((M) => {
  const cols = readInput(path.join(__dirname, 'talib_input.csv'));
  // inputs in the domains of the inverse trigonometric and exponential functions
  const lo = Math.min(...cols.close), hi = Math.max(...cols.close);
  cols.unit = cols.close.map((v) => (2 * (v - lo)) / (hi - lo) - 1);
  cols.small = cols.close.map((v) => (v - lo) / (hi - lo) * 5);
  const cases = CASES.map(([name, ins, opts, nOut, kind]) => ({
    function: name, inputs: ins, params: opts, integer: kind === 'integer',
    outputs: call(M, name, ins.map((c) => cols[c]), opts, nOut, kind === 'integer'),
  }));
  // an indicator of an indicator: TA-Lib's Python wrapper starts it where its input's NaNs end
  const rsi = call(M, 'RSI', [cols.close], [14], 1)[0];
  const from = rsi.findIndex((v) => v !== null);
  const ema = call(M, 'EMA', [rsi.slice(from)], [9], 1)[0];
  cases.push({ function: 'EMA_OF_RSI', inputs: ['close'], params: [14, 9],
    outputs: [new Array(from).fill(null).concat(ema)] });
  process.stdout.write(JSON.stringify({ source: 'talib-web 0.1.3 (TA-Lib C, WebAssembly)', cases }, null, 0) + '\n');
});
