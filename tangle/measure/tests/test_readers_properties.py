"""Property-based tests of measure.py's and ncu.py's readers (Debian: python3-hypothesis): for any
input, a reader returns, or raises its own error (MeasureError, NcuError) with a message; never
another exception, whose traceback would hide the file (tools.md C6, O7; issue 22 goal 4).
What it returns holds finite, non-negative numbers only: the rule every record keeps."""
import math
import sys
import unittest
from pathlib import Path

try:
    from hypothesis import HealthCheck, given, settings, strategies as st
except ImportError:  # .ci/deps installs it (python3-hypothesis); another Python may lack it
    raise unittest.SkipTest('hypothesis is not installed for this Python: apt install python3-hypothesis')

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402
import ncu  # noqa: E402

SETTINGS = settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])

scalars = st.one_of(st.none(), st.booleans(), st.integers(min_value=-10**400, max_value=10**400),
                    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                    st.sampled_from(['ns', 'us', 'ms', 's', 'iteration', 'aggregate', '1e400']))
json_values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                            st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                           max_leaves=8)
FIELDS = ['name', 'run_name', 'real_time', 'time_unit', 'run_type', 'error_occurred', 'error_message',
          'sm_clock_mhz', 'bytes', 'flops', 'family_index', 'per_family_instance_index', 'iterations',
          measure.SAMPLED_COUNT, 'time__min', 'time__max', 'bytes__min']
runs = st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=8)
good_run = st.fixed_dictionaries({'name': st.just('reduce/v1/1024'), 'run_name': st.just('reduce/v1/1024'),
                                  'real_time': st.floats(0, 1e9), 'time_unit': st.sampled_from(['ns', 'us'])})


def numbers_in(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from numbers_in(v)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield value


class BenchmarkJson(unittest.TestCase):
    @SETTINGS
    @given(st.one_of(json_values, st.fixed_dictionaries({'benchmarks': st.lists(st.one_of(runs, good_run, json_values),
                                                                                      max_size=4)})))
    def test_any_json_is_read_or_refused_in_words(self, data):
        try:
            results, clocks = measure.parse_benchmark_json(data, 'out.json')
        except measure.MeasureError as error:
            self.assertTrue(str(error).startswith('out.json'), str(error))
            return
        for key, quantities in results.items():
            for number in numbers_in(quantities):
                self.assertTrue(math.isfinite(number) and number >= 0, (key, quantities))
        for clock in clocks:
            self.assertTrue(math.isfinite(clock))


class FrontMatter(unittest.TestCase):
    yamlish = st.lists(st.sampled_from(['id: "1"', 'src: a', 'src: ../x', 'peers: [a]', 'peers: [[a]]',
                                        '? [a]\n: b', '- x', 'id: [1]', '&a [*a]', 'k: &x [1]', 'j: *x',
                                        '[' * 40, '{a: {b: {c: [d]}}}', 'id: "../x"', 'title: "t"',
                                        'kernels:\n  - {name: "a@2^3"}', ': :', '"', "'", '\t', '...']),
                       max_size=6).map('\n'.join)

    @SETTINGS
    @given(st.one_of(yamlish, st.text(max_size=60)))
    def test_any_front_matter_is_read_or_refused_with_its_line(self, body):
        try:
            measure.parse_front_matter('---\n' + body + '\n---\n# t\n', 'ch.md')
        except measure.MeasureError as error:
            self.assertTrue(str(error).startswith('ch.md'), str(error))

    def test_deep_nesting_is_refused_not_a_recursion_error(self):  # row M22
        with self.assertRaisesRegex(measure.MeasureError, 'ch.md:2'):
            measure.parse_front_matter('---\nx: ' + '[' * 5000 + ']' * 5000 + '\n---\n', 'ch.md')


class NcuCsv(unittest.TestCase):
    header = '"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"'
    cells = st.one_of(st.text(max_size=8), st.sampled_from(['1', '1,024.5', 'nan', 'inf', '-3', '%', 'Kbyte',
                                                           'msecond', 'cycle', 'GHz']))
    rows = st.lists(st.lists(cells, min_size=0, max_size=7).map(
        lambda cells: ','.join('"%s"' % c.replace('"', '""') for c in cells)), max_size=5)

    @SETTINGS
    @given(rows, st.booleans())
    def test_any_csv_is_read_or_refused_in_words(self, rows, with_header):
        text = '==PROF== Connected\n' + (self.header + '\n' if with_header else '') + '\n'.join(rows) + '\n'
        try:
            ncu.parse_metrics_csv(text, 'ncu.csv')
        except ncu.NcuError as error:
            self.assertTrue(str(error).startswith('ncu.csv'), str(error))


if __name__ == '__main__':
    unittest.main()
