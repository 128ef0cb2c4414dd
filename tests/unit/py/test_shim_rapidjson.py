# test_shim_rapidjson.py - the rapidjson shim (sandbox/inside/shims/rapidjson.py), which freqtrade
# strategies import to read and write their own JSON files: python-rapidjson's calls and
# constants over the standard json module, its decode error a ValueError.
# Run by tests/run-all unit: /usr/bin/python3 -I -B tests/unit/py/test_shim_rapidjson.py
import io
import os
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SHIM = os.path.join(HERE, '..', '..', '..', 'sandbox', 'inside', 'shims', 'rapidjson.py')


def shim():
    with open(SHIM, encoding='ascii') as f:
        src = f.read()
    d = {'__name__': 'rapidjson'}
    exec(compile(src, '<rapidjson>', 'exec'), d)
    return d


class RapidJson(unittest.TestCase):
    def setUp(self):
        self.rj = shim()

    def test_round_trip_through_a_file(self):
        obj = {'pair': 'BTC/USDT', 'profit': 0.0125, 'slots': [1, 2, 3], 'on': True, 'none': None}
        fp = io.StringIO()
        self.rj['dump'](obj, fp, number_mode=self.rj['NM_NATIVE'])
        fp.seek(0)
        self.assertEqual(self.rj['load'](fp, number_mode=self.rj['NM_NATIVE'],
                                         parse_mode=self.rj['PM_COMMENTS'] | self.rj['PM_TRAILING_COMMAS']), obj)

    def test_loads_takes_bytes_and_dumps_indents(self):
        self.assertEqual(self.rj['loads'](b'{"a": [1.5, 2]}'), {'a': [1.5, 2]})
        self.assertEqual(self.rj['dumps']({'b': 1, 'a': 2}, indent=2, sort_keys=True),
                         '{\n  "a": 2,\n  "b": 1\n}')

    def test_bad_text_is_its_decode_error_and_a_value_error(self):
        err = self.rj['JSONDecodeError']
        self.assertTrue(issubclass(err, ValueError))
        for text in ('{"a": 1,}', '// note\n{"a": 1}', '{"a": '):
            with self.assertRaises(err):
                self.rj['loads'](text)

    def test_the_modes_strategies_combine_are_distinct_bits(self):
        self.assertEqual(self.rj['PM_COMMENTS'] & self.rj['PM_TRAILING_COMMAS'], 0)
        self.assertNotEqual(self.rj['PM_COMMENTS'] | self.rj['PM_TRAILING_COMMAS'], 0)


if __name__ == '__main__':
    unittest.main()
