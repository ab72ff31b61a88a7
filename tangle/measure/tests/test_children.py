"""make measure's child processes (tools.md MS01-MS06, MS12, MS13, MS18, M9): what the binaries'
environment holds, a binary that reports fewer benchmarks than it lists, output in any encoding,
time limits, interrupts, and a re-run filter too long for one argument. Fake binaries stand for the
real ones (no GPU)."""
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from unittest import mock

MEASURE = Path(__file__).resolve().parents[3] / 'tangle' / 'measure'
sys.path.insert(0, str(MEASURE))
import measure  # noqa: E402
import processes  # noqa: E402

# A fake *_bench that behaves as Google Benchmark does: it lists its benchmarks, honours
# --benchmark_filter and, like the real library, BENCHMARK_FILTER from the environment; each
# benchmark runs as the plan says: 'ok', 'crash' (dies in it), 'hang' (sleeps in it), 'missing'
# (exits 0 without reporting it). `shape` replaces the JSON written ('dict': "benchmarks": {},
# exit 0; 'text context, then a crash').
# `context` is the device context it reports (the GPU's name).
# Its pid goes to <log>.pid, every benchmark it runs to <log>, and `noise` (bytes) to stderr.
FAKE_BENCH = r"""#!/usr/bin/env python3
import json, os, re, sys, time
plan, log, noise, shape, context = %r, %r, %r, %r, %r
open(log + '.pid', 'a').write(str(os.getpid()) + '\n')
names = [name for name, _ in plan]
wanted = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--benchmark_filter=')]
wanted = wanted or [os.environ.get('BENCHMARK_FILTER', '')]
names = [n for n in names if re.search(wanted[0], n)]
if '--benchmark_list_tests=true' in sys.argv:
    print('\n'.join(names))
    sys.exit(0)
sys.stderr.buffer.write(noise)
sys.stderr.flush()
out = [a for a in sys.argv if a.startswith('--benchmark_out=')][0].split('=', 1)[1]
handle = open(out, 'w')
if shape == 'dict':
    handle.write('{"context": ' + json.dumps(context) + ', "benchmarks": {}}')
    sys.exit(0)
if shape == 'text context, then a crash':
    handle.write('{"context": "x", "benchmarks": []}')
    sys.exit(1)
handle.write('{"context": ' + json.dumps(context) + ', "benchmarks": [\n')
handle.flush()  # the harness's reporter writes the context first
first = True
for family, name in enumerate(names):
    what = dict(plan)[name]
    open(log, 'a').write(name + '\n')
    print(name, flush=True)
    if what == 'crash':
        sys.stderr.write('Segmentation fault\n')
        sys.stderr.flush()
        os._exit(139)
    if what == 'hang':
        time.sleep(3600)
    if what == 'missing':
        continue
    run = {'name': name, 'run_name': name, 'run_type': 'iteration', 'family_index': family,
           'per_family_instance_index': 0, 'repetitions': 1, 'repetition_index': 0,
           'threads': 1, 'iterations': 10, 'real_time': 5.0, 'cpu_time': 1.0, 'time_unit': 'us'}
    handle.write(('' if first else ',\n') + json.dumps(run))
    handle.flush()
    first = False
handle.write('\n]}\n')
"""

# A fake *_test: passes, or sleeps first when `hang`; writes its environment's GTEST_ variables.
FAKE_TEST = r"""#!/usr/bin/env python3
import json, os, sys, time
hang, log = %r, %r
open(log + '.pid', 'a').write(str(os.getpid()) + '\n')
open(log + '.gtest', 'a').write(' '.join(sorted(k for k in os.environ if k.startswith('GTEST_'))) + '\n')
if hang:
    time.sleep(3600)
path = [a for a in sys.argv if a.startswith('--gtest_output=json:')][0].split(':', 1)[1]
json.dump({'testsuites': [{'name': 'T', 'testsuite': [{'name': 'ok', 'status': 'RUN',
                                                       'result': 'COMPLETED'}]}]}, open(path, 'w'))
"""


def gone(pid, seconds=5.0):
    """Whether the process ends within `seconds` (a killed group can take a moment to go on a
    loaded machine)."""
    deadline = time.monotonic() + seconds
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    return not alive(pid)


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie of ours is dead too
        return Path(f'/proc/{pid}/stat').read_text().split(')')[-1].split()[0] != 'Z'
    except OSError:
        return False


class Book:
    """A book of one chapter, 9.9 (src fk), with a fake test and benchmark binary."""

    def __init__(self, folder, plan, noise=b'', shape=None, hanging_test=False,
                 context=(('gpu', 'NVIDIA H200'),)):
        self.folder = Path(folder)
        self.root = self.folder / 'book-root'
        for part in ('book', 'chapters', 'src/fk'):
            (self.root / part).mkdir(parents=True)
        (self.root / 'book' / 'chapters.txt').write_text('chapters/9.9-fake.md\n')
        (self.root / 'chapters' / '9.9-fake.md').write_text('---\nid: "9.9"\ntitle: "F"\nsrc: fk\n---\n')
        (self.root / 'src' / 'fk' / 'a.cu').write_text('// tangled\n')
        self.build = self.folder / 'build'
        self.build.mkdir()
        self.log = str(self.folder / 'ran.log')
        self.out = self.folder / 'out'
        self.write('fk_bench', FAKE_BENCH % (plan, self.log, noise, shape, dict(context)))
        self.write('fk_test', FAKE_TEST % (hanging_test, self.log))

    def write(self, name, text):
        (self.build / name).write_text(text.replace('#!/usr/bin/env python3', '#!' + sys.executable))
        (self.build / name).chmod(0o755)

    def arguments(self, *extra):
        return ['--root', str(self.root), '--build', str(self.build), '--out', str(self.out),
                '--test-jobs', '1', *extra]

    def measure(self, *extra):
        said = io.StringIO()
        with redirect_stderr(said), redirect_stdout(io.StringIO()):
            code = measure.main(self.arguments(*extra))
        return code, said.getvalue()

    def record(self):
        return json.loads((self.out / 'nvidia-h200' / '9.9.json').read_text())

    def ran(self):
        path = Path(self.log)
        return path.read_text().split() if path.exists() else []

    def pids(self):
        return [int(p) for p in Path(self.log + '.pid').read_text().split()]


class Environment(unittest.TestCase):
    """MS01: BENCHMARK_* and GTEST_* never reach the binaries."""

    def setUp(self):
        processes._told_cleared.clear()

    def test_benchmark_and_gtest_variables_are_cleared_and_said_once(self):
        with mock.patch.dict(os.environ, {'BENCHMARK_FILTER': 'x', 'GTEST_FILTER': 'y', 'KEEP': '1'}):
            said = io.StringIO()
            with redirect_stderr(said):
                first = processes.child_environment({'GTEST_SHARD_INDEX': '0'})
                second = processes.child_environment()
        self.assertNotIn('BENCHMARK_FILTER', first)
        self.assertNotIn('GTEST_FILTER', first)
        self.assertEqual((first['KEEP'], first['GTEST_SHARD_INDEX']), ('1', '0'))
        self.assertNotIn('GTEST_FILTER', second)
        self.assertEqual(said.getvalue().count('BENCHMARK_FILTER, GTEST_FILTER cleared'), 1)

    def test_a_filter_in_the_environment_does_not_cut_the_record(self):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok'), ('fk/b', 'ok')])
            with mock.patch.dict(os.environ, {'BENCHMARK_FILTER': 'fk/b', 'GTEST_FILTER': 'None'}):
                code, said = book.measure()
            self.assertEqual(code, 0, said)
            self.assertEqual(sorted(book.record()['results']), ['fk/a', 'fk/b'])
            self.assertIn('BENCHMARK_FILTER, GTEST_FILTER cleared from the environment', said)
            self.assertNotIn('GTEST_FILTER', Path(book.log + '.gtest').read_text())


class FewerThanListed(unittest.TestCase):
    """MS02, M9: every benchmark the binary lists has a run or an outcome."""

    def test_a_benchmark_the_binary_skipped_at_exit_0_is_failed(self):
        for plan in ([('fk/a', 'ok'), ('fk/b', 'missing')], [('fk/a', 'missing'), ('fk/b', 'missing')]):
            with self.subTest(plan), tempfile.TemporaryDirectory() as folder:
                book = Book(folder, plan)
                code, said = book.measure()
                self.assertEqual(code, measure.INCOMPLETE, said)
                results = book.record()['results']
                self.assertEqual(results['fk/b'], {'status': 'failed',
                                                   'reason': 'the binary exited 0 without running it'})
                self.assertEqual(sorted(results), ['fk/a', 'fk/b'])
                self.assertIn('exited 0 without running', said)

    def test_benchmarks_not_a_list_is_an_error(self):
        for shape in ('dict', 'text context, then a crash'):
            with self.subTest(shape), tempfile.TemporaryDirectory() as folder:
                book = Book(folder, [('fk/a', 'ok')], shape=shape)
                code, said = book.measure()
                self.assertEqual(code, 1)
                self.assertIn('fk_bench: its --benchmark_out is not Google Benchmark JSON (no '
                              '"benchmarks" list, or a "context" that is not an object)', said)
                self.assertNotIn('Traceback', said)
                self.assertFalse(book.out.exists())


class AnyEncoding(unittest.TestCase):
    """MS03, MS18: bytes that are not UTF-8 on a child's output crash nothing."""

    def test_non_utf8_on_a_benchmarks_stderr(self):
        for plan in ([('fk/a', 'ok')], [('fk/a', 'ok'), ('fk/b', 'crash'), ('fk/c', 'ok')]):
            with self.subTest(plan), tempfile.TemporaryDirectory() as folder:
                book = Book(folder, plan, noise=b'bad \xff\xfe bytes\n')
                code, said = book.measure()
                self.assertIn(code, (0, measure.INCOMPLETE), said)
                self.assertIn('bad \ufffd\ufffd bytes', said)
                self.assertEqual(book.record()['results']['fk/a']['time']['n'], 1)

    def test_non_utf8_in_a_test_binarys_json(self):
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / 'x_test'
            binary.write_text(
                f'#!{sys.executable}\nimport sys\n'
                'path = [a for a in sys.argv if a.startswith("--gtest_output=json:")][0][20:]\n'
                'open(path, "wb").write(b\'{"testsuites": [{"name": "S", "testsuite": [{"name": '
                '"t", "failures": [{"failure": "\\xff"}]}]}]}\')\nsys.exit(1)\n')
            binary.chmod(0o755)
            with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
                counts, untimed = measure.run_tests(binary, folder)
            self.assertEqual(counts['failed_tests'], ['S.t'])
            self.assertIn('tests of x_test failed: S.t', untimed)

    def test_non_utf8_from_the_tools_queried(self):  # nvidia-smi, nvcc, ncu --version
        with tempfile.TemporaryDirectory() as folder:
            for tool in ('nvidia-smi', 'nvcc', 'ncu'):
                (Path(folder) / tool).write_text(
                    f'#!{sys.executable}\nimport sys\n'
                    'sys.stdout.buffer.write(b"580.1, NVIDIA \\xff\\nrelease 13.0, V13.0.88\\n'
                    'Version 2025.3.1.0\\n")\n')
                (Path(folder) / tool).chmod(0o755)
            with mock.patch.dict(os.environ, {'PATH': f'{folder}{os.pathsep}{os.environ["PATH"]}'}):
                self.assertEqual(measure.query_nvidia_smi(), ('580.1', 'NVIDIA \ufffd'))
                self.assertEqual(measure.query_nvcc(), '13.0.88')
                self.assertEqual(measure.ncu.ncu_version(str(Path(folder) / 'ncu')), '2025.3.1.0')

    def test_non_utf8_when_listing(self):
        with tempfile.TemporaryDirectory() as folder:
            binary = Path(folder) / 'x_bench'
            binary.write_text(f'#!{sys.executable}\nimport sys\nsys.stdout.buffer.write(b"a/\\xff\\n")\n')
            binary.chmod(0o755)
            self.assertEqual(measure.list_benchmarks(binary), ['a/\ufffd'])

    def test_non_utf8_from_a_peer(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / 'src' / 'p').mkdir(parents=True)
            (root / 'src/p/bytes.py').write_text(
                'import sys\nsys.stdout.buffer.write(b"\\xff{}")\nsys.stderr.buffer.write(b"\\xfe")\n')
            with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
                contexts = measure.measure_peers(root, ['src/p/bytes.py'], {}, 'x.md:3')
            self.assertEqual(contexts['src/p/bytes.py']['status'], 'failed')
            self.assertIn('not JSON', contexts['src/p/bytes.py']['reason'])


class TimeLimits(unittest.TestCase):
    """MS04, MS18: every child has a time limit; what it was running is recorded as failed."""

    def test_a_hanging_benchmark_is_failed_and_the_rest_run(self):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok'), ('fk/b', 'hang'), ('fk/c', 'ok')])
            started = time.monotonic()
            code, said = book.measure('--timeout', '2')
            self.assertLess(time.monotonic() - started, 30)
            self.assertEqual(code, measure.INCOMPLETE, said)
            results = book.record()['results']
            self.assertEqual(results['fk/b']['status'], 'failed')
            self.assertIn('timed out after 2 s', results['fk/b']['reason'])
            self.assertEqual(results['fk/c']['time']['n'], 1)
            self.assertEqual(book.ran(), ['fk/a', 'fk/b', 'fk/c'])
            self.assertFalse([pid for pid in book.pids() if alive(pid)])
            self.assertEqual(measure.TIME_LIMIT, measure.DEFAULT_TIME_LIMIT)  # that run's only

    def test_a_hanging_test_binary_leaves_its_benchmarks_untimed(self):
        for jobs in ('1', '2'):
            with self.subTest(jobs=jobs), tempfile.TemporaryDirectory() as folder:
                book = Book(folder, [('fk/a', 'ok')], hanging_test=True)
                code, said = book.measure('--timeout', '1', '--test-jobs', jobs, '--test-shards', '1')
                self.assertEqual(code, measure.INCOMPLETE, said)
                self.assertEqual(book.record()['results']['fk/a'], {
                    'status': 'failed', 'reason': 'not timed: tests of fk_test timed out after 1 s'})
                self.assertFalse([pid for pid in book.pids() if alive(pid)])

    def test_a_hanging_peer_is_failed(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / 'src' / 'p').mkdir(parents=True)
            (root / 'src/p/sleep.py').write_text('import time\ntime.sleep(3600)\n')
            with mock.patch.object(measure, 'TIME_LIMIT', 1), redirect_stdout(io.StringIO()), \
                    redirect_stderr(io.StringIO()):
                contexts = measure.measure_peers(root, ['src/p/sleep.py'], {}, 'x.md:3')
            self.assertEqual(contexts['src/p/sleep.py']['status'], 'failed')
            self.assertIn('timed out after 1 s', contexts['src/p/sleep.py']['reason'])

    def test_the_group_is_stopped_with_its_children(self):
        # A child that starts one of its own (ncu starts the binary): both stop at the limit.
        with tempfile.TemporaryDirectory() as folder:
            pidfile = Path(folder) / 'grandchild'
            script = (f'import subprocess, sys, time\n'
                      f'p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])\n'
                      f'open({str(pidfile)!r}, "w").write(str(p.pid))\ntime.sleep(3600)\n')
            done = processes.run([sys.executable, '-c', script], 2)
            self.assertTrue(done.timed_out)
            self.assertTrue(gone(int(pidfile.read_text())))


    def test_ncu_past_its_limit_is_stopped_with_the_binary_it_runs(self):
        with tempfile.TemporaryDirectory() as folder:
            pidfile = Path(folder) / 'binary'
            fake_ncu = (f'import subprocess, sys, time\n'
                        f'p = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"])\n'
                        f'open({str(pidfile)!r}, "w").write(str(p.pid))\ntime.sleep(3600)\n')
            said = []

            def profile():
                try:
                    measure.ncu.run_profiled([sys.executable, '-c', fake_ncu], 'x.md:5', timeout=1)
                except measure.ncu.NcuError as error:
                    said.append(str(error))

            runner = threading.Thread(target=profile, daemon=True)
            runner.start()
            runner.join(30)
            self.assertFalse(runner.is_alive(), 'run_profiled waited for the binary ncu started')
            self.assertEqual(said, ['x.md:5: ncu ran longer than 1 s; profile a smaller size'])
            self.assertTrue(gone(int(pidfile.read_text())))  # killed with ncu's group


class BoundedOutput(unittest.TestCase):
    """MS05: a child's standard error is kept as its last TAIL_BYTES only."""

    def test_only_the_tail_of_stderr_is_kept(self):
        script = ('import sys\nfor i in range(100000):\n    sys.stderr.write(f"line {i}\\n")\n'
                  'sys.stderr.write("the last line\\n")\n')
        with redirect_stdout(io.StringIO()):
            done = measure.run_timed([sys.executable, '-c', script])
        self.assertLessEqual(len(done.stderr), processes.TAIL_BYTES)
        self.assertGreater(done.stderr_size, 1_000_000)
        self.assertTrue(done.stderr.endswith('the last line\n'))
        self.assertTrue(done.stderr.startswith('line '))  # cut at a line's start


class CannotStart(unittest.TestCase):
    def test_a_binary_that_cannot_be_started_is_one_line(self):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok')])
            book.write('fk_bench', '#!/nonexistent/interpreter\n')
            for jobs in ('1', '2'):
                code, said = book.measure('--test-jobs', jobs)
                self.assertEqual(code, 1)
                self.assertIn('fk_bench: cannot run it (No such file or directory)', said)
                self.assertNotIn('Traceback', said)
            book.write('fk_test', '#!/nonexistent/interpreter\n')
            code, said = book.measure()
            self.assertEqual(code, 1)
            self.assertIn('fk_test: cannot run it (No such file or directory)', said)


class LongFilters(unittest.TestCase):
    """MS06: the re-run after a crash is batched so that no filter exceeds FILTER_BYTES."""

    def test_batches_fit_the_limit_and_cover_every_name(self):
        names = [f'family/benchmark_with_a_long_name_{i:05d}/1048576/manual_time' for i in range(5000)]
        batches, rest = [], names
        while rest:
            batch = measure.filter_batch(rest)
            self.assertLessEqual(len(measure.outcomes.exact_filter(batch)), measure.FILTER_BYTES)
            batches.append(batch)
            rest = rest[len(batch):]
        self.assertGreater(len(batches), 2)
        self.assertEqual(sum(batches, []), names)
        self.assertEqual(measure.filter_batch(['x' * 200_000]), ['x' * 200_000])  # one, however long

    def test_a_crash_before_1500_long_names_runs_them_in_batches(self):
        names = [f'fk/b_{i:04d}_' + 'n' * 60 for i in range(1500)]  # 110 KB of filter
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'crash')] + [(n, 'ok') for n in names])
            code, said = book.measure()
            self.assertEqual(code, measure.INCOMPLETE, said)
            results = book.record()['results']
            self.assertEqual(len(results), 1501)
            self.assertEqual(results['fk/a']['status'], 'failed')
            self.assertIn('a filter is at most', said)


class Interrupts(unittest.TestCase):
    """MS12, MS13: Ctrl-C or SIGTERM stops the children, removes the temporaries, writes nothing."""

    def interrupt(self, signum):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok'), ('fk/b', 'hang')])
            scratch = Path(folder) / 'tmp'
            scratch.mkdir()
            command = [sys.executable, str(MEASURE / 'measure.py'), *book.arguments()]
            child = subprocess.Popen(command, env=dict(os.environ, TMPDIR=str(scratch)),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(300):  # until the fake is inside fk/b
                if 'fk/b' in book.ran():
                    break
                time.sleep(0.1)
            child.send_signal(signum)
            out, err = child.communicate(timeout=60)
            self.assertEqual(child.returncode, 128 + signum, err)
            self.assertNotIn(b'Traceback', err)
            self.assertFalse(book.out.exists())
            self.assertEqual(list(scratch.iterdir()), [])
            for _ in range(50):
                if not any(alive(pid) for pid in book.pids()):
                    break
                time.sleep(0.1)
            self.assertFalse([pid for pid in book.pids() if alive(pid)])
            return err.decode()

    def test_ctrl_c(self):
        self.assertIn('measure: interrupted; nothing written', self.interrupt(signal.SIGINT))

    def test_sigterm(self):
        self.assertIn('measure: interrupted (SIGTERM); nothing written', self.interrupt(signal.SIGTERM))


if __name__ == '__main__':
    unittest.main()
