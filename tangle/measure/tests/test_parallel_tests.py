"""Unit tests of measure.py's test phase: every chapter's tests first, side by side, in GoogleTest
shards (run_all_tests), and the run's time in machine.json (add_run_time). Fake test binaries
stand for GoogleTest: one that honours sharding, one that ignores it, one that fails only beside
others, one that always fails."""
import json
import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402

# Four tests, T.t0..T.t3; honours GTEST_TOTAL_SHARDS/INDEX as GoogleTest does (touching the status
# file) when `sharding`; fails T.t2 when `fail` is 'always', or when sharded and `fail` is 'beside'.
FAKE_GTEST = """#!{python}
import json, os, sys
path = [a for a in sys.argv if a.startswith('--gtest_output=json:')][0].split(':', 1)[1]
sharding, fail = {sharding!r}, {fail!r}
total = int(os.environ.get('GTEST_TOTAL_SHARDS', '1'))
index = int(os.environ.get('GTEST_SHARD_INDEX', '0'))
names = ['t0', 't1', 't2', 't3']
if sharding and total > 1:
    open(os.environ['GTEST_SHARD_STATUS_FILE'], 'w').close()
    names = [n for i, n in enumerate(names) if i % total == index]
suite = []
for n in names:
    bad = n == 't2' and (fail == 'always' or (fail == 'beside' and total > 1))
    suite.append(dict(name=n, status='RUN', result='COMPLETED', **({{'failures': [{{}}]}} if bad else {{}})))
json.dump({{'testsuites': [{{'name': 'T', 'testsuite': suite}}]}}, open(path, 'w'))
sys.exit(1 if any('failures' in t for t in suite) else 0)
"""


class RunAllTests(unittest.TestCase):
    def binary(self, folder, name, sharding=True, fail=None):
        path = Path(folder) / name
        path.write_text(FAKE_GTEST.format(python=sys.executable, sharding=sharding, fail=fail))
        path.chmod(0o755)
        return path

    def run_all(self, binaries, folder, jobs=4, shards=3):
        scratch = Path(folder) / 'scratch'
        scratch.mkdir(exist_ok=True)
        with mock.patch('sys.stderr') as stderr, mock.patch('builtins.print') as printed:
            verdicts = measure.run_all_tests(binaries, scratch, jobs, shards)
        said = ''.join(str(c.args[0]) for c in stderr.write.call_args_list)
        said += ' '.join(str(c.args[0]) for c in printed.call_args_list if c.args)
        return verdicts, said

    def test_shards_add_up_to_the_whole_binary(self):
        with tempfile.TemporaryDirectory() as folder:
            a = self.binary(folder, 'a_test')
            verdicts, _ = self.run_all([a], folder)
            self.assertEqual(verdicts[a], ({'passed': 4, 'failed': 0, 'skipped': 0}, None))

    def test_a_binary_that_ignores_sharding_is_counted_once(self):
        with tempfile.TemporaryDirectory() as folder:
            b = self.binary(folder, 'b_test', sharding=False)
            verdicts, _ = self.run_all([b], folder)
            self.assertEqual(verdicts[b], ({'passed': 4, 'failed': 0, 'skipped': 0}, None))

    def test_a_failure_is_decided_by_the_binary_run_alone(self):
        with tempfile.TemporaryDirectory() as folder:
            always = self.binary(folder, 'always_test', fail='always')
            beside = self.binary(folder, 'beside_test', fail='beside')
            verdicts, said = self.run_all([always, beside], folder)
            counts, untimed = verdicts[always]
            self.assertEqual(counts['failed_tests'], ['T.t2'])
            self.assertIn('not timed: tests of always_test failed: T.t2', untimed)
            self.assertEqual(verdicts[beside], ({'passed': 4, 'failed': 0, 'skipped': 0}, None))
            self.assertIn('beside_test passed alone but failed beside other tests', said)

    def test_one_job_one_shard_is_the_serial_run(self):
        with tempfile.TemporaryDirectory() as folder:
            a = self.binary(folder, 'a_test')
            verdicts, _ = self.run_all([a], folder, jobs=1, shards=1)
            self.assertEqual(verdicts[a], ({'passed': 4, 'failed': 0, 'skipped': 0}, None))


class RunTime(unittest.TestCase):
    def test_machine_json_gets_the_run_time_and_the_build_time(self):
        machine = {'context': {'gpu': 'G'}}
        pending = [(Path('o/g/A.json'), {}), (Path('o/g/machine.json'), machine)]
        measure.add_run_time(pending, [('tests', 20.04), ('A', 9.0), ('3.1', 30.0)], 59.26, 61.0)
        self.assertEqual(machine['context']['measure_seconds'], 59.3)
        self.assertEqual(machine['context']['build_seconds'], 61.0)
        self.assertEqual(machine['run'], {'chapters': ['A', '3.1'],
                                          'seconds_by_chapter': {'tests': 20.0, 'A': 9.0, '3.1': 30.0}})

    def test_no_machine_json_no_run_time(self):
        pending = [(Path('o/g/3.1.json'), {'context': {}})]
        measure.add_run_time(pending, [('3.1', 30.0)], 30.0)
        self.assertEqual(pending[0][1], {'context': {}})


if __name__ == '__main__':
    unittest.main()
