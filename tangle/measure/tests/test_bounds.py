"""No input of 1 MB or less makes measure.py's readers run longer than 2 s of CPU or use more than
1 GiB (issue 22 goal 5, as tests/weave/bounds_test.py does for the tangler and the weaver): the
front matter's YAML (a billion laughs, a 100 000-deep flow list, 1300-deep block maps), Google
Benchmark's JSON, whole or cut short (400 000 nested arrays, a megabyte of open braces), and
ncu's CSV (a megabyte-long field, 30 000 rows). Each case runs in a child process under a 1 GiB
address-space limit; the reader may refuse the input with its own error (MeasureError,
NcuError), but may not crash, run out of memory or take longer."""
import json
import resource
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

TANGLE = Path(__file__).resolve().parents[3] / 'tangle' / 'measure'
MB = 1_000_000
SECONDS = 2.0
MEMORY = 1 << 30


def billion_laughs():
    lines = ['lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]']
    lines += ['lol%d: &l%d [%s]' % (i, i, ', '.join(['*l%d' % (i - 1)] * 9)) for i in range(1, 10)]
    return '\n'.join(lines) + '\n'


def front_matter(body):
    return '---\nid: "9.9"\n' + body + '---\n# Title\n'


def cases():
    """name -> (the reader's call, in Python source, on a file `path`; the file's text)."""
    front = "measure.parse_front_matter(open(path, encoding='utf-8').read(), path)"
    yield 'a billion laughs in the front matter', (front, front_matter(billion_laughs()))
    yield 'a 100 000-deep flow list', (front, front_matter('x: ' + '[' * 100_000 + ']' * 100_000 + '\n'))
    yield '1300-deep block maps', (front, front_matter(''.join(' ' * i + 'k%d:\n' % i for i in range(1300))))
    deep = '[' * 400_000 + ']' * 400_000
    yield 'benchmark JSON nested 400 000 deep', ("measure.read_json(path, 'benchmark')", deep)
    yield 'the same, read as a cut-short run', (
        "outcomes.read_partial_benchmark_json(open(path).read())", '{"benchmarks": [' + deep)
    yield 'a megabyte of open braces', ("outcomes.read_partial_benchmark_json(open(path).read())",
                                        '{"benchmarks": [' + '{' * (MB - 100))
    yield 'a long run list', ("measure.read_json(path, 'benchmark')",
                              json.dumps({'context': {}, 'benchmarks': [{'name': 'a/%d' % i, 'real_time': 1}
                                                                        for i in range(25_000)]}))
    header = '"ID","Process ID","Kernel Name","Metric Name","Metric Unit","Metric Value"\n'
    yield 'ncu CSV with a megabyte-long field', (
        "ncu.parse_metrics_csv(open(path).read(), path)",
        header + '"0","1","k","m","byte","' + '9' * (MB - 200) + '"\n')
    yield 'ncu CSV of 30 000 rows', (
        "ncu.parse_metrics_csv(open(path).read(), path)",
        header + ''.join('"%d","1","k","m%d","byte","1"\n' % (i // 10, i % 10) for i in range(30_000)))


CHILD = r'''
import resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))
sys.path.insert(0, {tangle!r})
import measure, ncu, outcomes
path = {path!r}
start = time.process_time()
try:
    {call}
except (measure.MeasureError, ncu.NcuError) as error:
    print('refused:', str(error)[:200])
print('cpu', time.process_time() - start)
'''


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


class ReadersAreBounded(unittest.TestCase):
    def test_every_case_ends_in_time_without_a_crash(self):
        for name, (call, text) in cases():
            self.assertLessEqual(len(text.encode()), MB, name)
            with self.subTest(name), tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / 'input'
                path.write_text(text, encoding='utf-8')
                child = CHILD.format(memory=MEMORY, tangle=str(TANGLE), path=str(path), call=call)
                done = subprocess.run([sys.executable, '-c', child], capture_output=True, text=True,
                                      timeout=60)
                self.assertEqual(done.returncode, 0, f'{name}: {done.stderr[-800:]}')
                cpu = float(done.stdout.rsplit('cpu', 1)[1])
                self.assertLess(cpu, SECONDS, f'{name}: {cpu:.2f} s of CPU')


if __name__ == '__main__':
    unittest.main()
