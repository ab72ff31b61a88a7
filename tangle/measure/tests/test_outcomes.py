"""make measure on a device that cannot run everything: benchmarks that skip, fail, run out of
memory or crash the binary, and tests that fail. Fake binaries stand for the real ones (no GPU)."""
import io
import json
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402
import outcomes  # noqa: E402

# A fake *_bench: lists its benchmarks, honours an exact --benchmark_filter, and runs each as the
# plan says: 'ok' (two repetitions), an error message (Google Benchmark's error_occurred), or
# 'crash' (writes what it finished, flushed as the harness's reporter does, then aborts the way an
# uncaught exception does). Each run appends its name to a log, so a test can see what ran twice.
FAKE_BENCH = r"""#!/usr/bin/env python3
import json, os, re, sys
plan = %r
log = %r
names = [name for name, _ in plan]
if '--benchmark_list_tests=true' in sys.argv:
    print('\n'.join(names))
    sys.exit(0)
out = [a for a in sys.argv if a.startswith('--benchmark_out=')][0].split('=', 1)[1]
wanted = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--benchmark_filter=')]
if wanted:
    names = [n for n in names if re.fullmatch(wanted[0], n)]
head = json.dumps({'gpu': 'NVIDIA H200', 'sm_count': '132'})
handle = open(out, 'w')
handle.write('{\n  "context": ' + head + ',\n  "benchmarks": [\n')
first = True
def write(run):
    global first
    handle.write(('' if first else ',\n') + json.dumps(run))
    first = False
    handle.flush()
for family, name in enumerate(names):
    what = dict(plan)[name]
    open(log, 'a').write(name + '\n')
    if what == 'crash':
        handle.write(',\n{"name": "' + name + '", "run_na')  # cut off mid-run
        handle.flush()
        sys.stderr.write("terminate called after throwing an instance of 'std::runtime_error'\n"
                         "  what():  chapters/x.md:40: cudaMalloc(&data_, bytes): "
                         "cudaErrorMemoryAllocation (out of memory)\n")
        os._exit(134)
    for repetition in range(2):
        run = {'name': name, 'run_name': name, 'run_type': 'iteration', 'family_index': family,
               'per_family_instance_index': 0, 'repetitions': 2, 'repetition_index': repetition,
               'threads': 1, 'iterations': 10, 'real_time': 5.0 + repetition, 'cpu_time': 1.0,
               'time_unit': 'us', 'bandwidth': 1e12, 'flop_rate': 1e13, 'latency': 5e-7,
               'bytes_in_flight_per_sm': float(name.split('/')[2]),
               'sm_cycle_flops': 2600.0, 'kernel_clock_mhz': 1980.0}
        if what != 'ok':
            run = {'name': name, 'run_name': name, 'run_type': 'iteration', 'family_index': family,
                   'error_occurred': True, 'error_message': what}
        write(run)
handle.write('\n  ]\n}\n')
"""

FAKE_TEST = r"""#!/usr/bin/env python3
import json, sys
path = [a for a in sys.argv if a.startswith('--gtest_output=json:')][0].split(':', 1)[1]
suite = [{'name': 'ok', 'status': 'RUN', 'result': 'COMPLETED'}]
if %r:
    suite.append({'name': 'wrong_sum', 'status': 'RUN', 'result': 'COMPLETED', 'failures': [{}]})
json.dump({'testsuites': [{'name': 'Reduce', 'testsuite': suite}]}, open(path, 'w'))
sys.exit(1 if %r else 0)
"""

CEILING_NAMES = ['bench/copy_bandwidth/2147483648', 'bench/memcpy_bandwidth/2147483648',
                 'bench/read_bandwidth/2147483648', 'bench/l2_bandwidth/16777216',
                 'bench/read_bulk_bandwidth/2147483648/32/3/1/1',
                 'bench/l2_shared_bandwidth/16777216/32/3/24/0',
                 'bench/shared_bandwidth/1024', 'bench/dram_latency/268435456',
                 'bench/loaded_latency/1024', 'bench/fp32_fma_rate/16384',
                 'bench/bf16_tensor_rate/8192', 'bench/launch_latency/1',
                 'bench/launch_throughput/1000', 'bench/mma_sync_rate/8192',
                 'bench/wgmma_rate/2048', 'bench/exp2_rate/4096']
OOM = 'chapters/x.md:40: cudaMalloc(&data_, bytes): cudaErrorMemoryAllocation (out of memory)'
SKIP = 'skipped: needs 26.0 GiB, 23.6 GiB free'


def suffix(name):
    return name + '/repeats:2/manual_time'


class Outcomes(unittest.TestCase):
    def test_a_skip_is_told_from_a_failure_by_its_prefix(self):
        self.assertEqual(outcomes.from_error_message(SKIP),
                         {'status': 'skipped', 'reason': 'needs 26.0 GiB, 23.6 GiB free'})
        self.assertEqual(outcomes.from_error_message(OOM), {'status': 'failed', 'reason': OOM})
        self.assertEqual(outcomes.from_error_message(''),
                         {'status': 'failed', 'reason': 'no reason given'})

    def test_an_unfinished_json_keeps_every_whole_run(self):
        text = ('{\n "context": {"gpu": "G"},\n "benchmarks": [\n {"name": "a", "x": 1},\n'
                ' {"name": "b", "x": NaN},\n {"name": "c", "run_na')
        data = outcomes.read_partial_benchmark_json(text)
        self.assertEqual(data['context'], {'gpu': 'G'})
        self.assertEqual([run['name'] for run in data['benchmarks']], ['a', 'b'])
        self.assertEqual(outcomes.read_partial_benchmark_json('')['benchmarks'], [])

    def test_the_filter_selects_exactly_the_names(self):
        import re
        names = ['a/v1/8/repeats:10/manual_time', 'a/v1.5/8/manual_time']
        pattern = outcomes.exact_filter(names)
        self.assertNotIn('\\/', pattern)
        self.assertTrue(all(re.fullmatch(pattern, name) for name in names))
        self.assertFalse(re.fullmatch(pattern, 'a/v1x5/8/manual_time'))
        self.assertFalse(re.fullmatch(pattern, 'a/v1/8/repeats:10/manual_time/extra'))

    def test_a_crash_reason_names_the_exception(self):
        self.assertEqual(outcomes.crash_message(-11, ''),
                         'the benchmark binary killed by signal 11 while running it')
        said = "terminate called\n  what():  out of memory\n"
        self.assertEqual(outcomes.crash_message(134, said),
                         'the benchmark binary exited with status 134 while running it: out of memory')

    def test_a_crash_on_an_allocation_that_does_not_fit_is_a_skip(self):
        said = "terminate called after throwing an instance of 'bench::DoesNotFit'\n" \
               "  what():  skipped: needs 26.0 GiB, 23.6 GiB free\n"
        self.assertEqual(outcomes.from_error_message(outcomes.crash_message(134, said)),
                         {'status': 'skipped', 'reason': 'needs 26.0 GiB, 23.6 GiB free'})


class DeviceThatCannotRunEverything(unittest.TestCase):
    """measure.main over a book of two chapters: appendix A (the ceilings) and a lesson."""

    def make_book(self, folder, lesson_plan, ceiling_plan=None, failing_test=False):
        root = Path(folder) / 'book-root'
        for part in ('book', 'chapters', 'src/bench', 'src/attention'):
            (root / part).mkdir(parents=True)
        (root / 'book' / 'chapters.txt').write_text('chapters/A-bench.md\nchapters/4.3-attention.md\n')
        (root / 'chapters' / 'A-bench.md').write_text('---\nid: "A"\ntitle: "Bench"\nsrc: bench\n---\n')
        (root / 'chapters' / '4.3-attention.md').write_text(
            '---\nid: "4.3"\ntitle: "Attention"\nsrc: attention\n---\n')
        (root / 'src' / 'bench' / 'a.cuh').write_text('// tangled\n')
        (root / 'src' / 'attention' / 'b.cu').write_text('// tangled\n')
        build = Path(folder) / 'build'
        build.mkdir()
        self.log = Path(folder) / 'ran.log'
        ceilings = [(suffix(n), (ceiling_plan or {}).get(n, 'ok')) for n in CEILING_NAMES]
        lesson = [(suffix(n), what) for n, what in lesson_plan]
        binaries = {'bench_test': FAKE_TEST % (False, False),
                    'bench_bench': FAKE_BENCH % (ceilings, str(self.log)),
                    'attention_test': FAKE_TEST % (failing_test, failing_test),
                    'attention_bench': FAKE_BENCH % (lesson, str(self.log))}
        for name, text in binaries.items():
            (build / name).write_text(text.replace('#!/usr/bin/env python3', '#!' + sys.executable))
            (build / name).chmod(0o755)
        return root, build

    def measure(self, root, build, out, *extra):
        said = io.StringIO()
        with redirect_stderr(said):
            code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out), *extra])
        return code, said.getvalue()

    def read(self, out, name, slug='nvidia-h200'):
        return json.loads((Path(out) / slug / name).read_text())

    def test_out_of_memory_and_a_skip_are_recorded_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [
                ('attention/v1_naive/8192', OOM), ('attention/v1_naive/4096', 'ok'),
                ('attention/v2_flash/65536', SKIP), ('attention/v2_flash/4096', 'ok')])
            out = Path(folder) / 'out'
            code, said = self.measure(root, build, out)
            self.assertEqual(code, measure.INCOMPLETE)
            results = self.read(out, '4.3.json')['results']
            self.assertEqual(results['attention/v1_naive@8192'], {'status': 'failed', 'reason': OOM})
            self.assertEqual(results['attention/v2_flash@65536'],
                             {'status': 'skipped', 'reason': 'needs 26.0 GiB, 23.6 GiB free'})
            self.assertEqual(results['attention/v1_naive@4096']['time']['n'], 2)
            self.assertNotIn('status', results['attention/v2_flash@4096'])
            self.assertTrue((out / 'nvidia-h200' / 'machine.json').exists())
            # the table: one line each, failures first
            table = said[said.index('result(s) skipped'):]
            self.assertIn('1 result(s) skipped, 1 failed', said)
            self.assertLess(table.index('attention/v1_naive@8192'), table.index('attention/v2_flash@65536'))
            self.assertIn('4.3      skipped  attention/v2_flash@65536  needs 26.0 GiB, 23.6 GiB free', said)

    def test_a_crash_keeps_what_finished_and_runs_the_rest(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [
                ('attention/v1_naive/4096', 'ok'), ('attention/v1_naive/8192', 'crash'),
                ('attention/v2_flash/4096', 'ok'), ('attention/v2_flash/8192', 'ok')])
            out = Path(folder) / 'out'
            code, said = self.measure(root, build, out)
            self.assertEqual(code, measure.INCOMPLETE)
            results = self.read(out, '4.3.json')['results']
            crashed = results['attention/v1_naive@8192']
            self.assertEqual(crashed['status'], 'failed')
            self.assertEqual(crashed['reason'], 'the benchmark binary exited with status 134 while '
                             'running it: ' + OOM)
            for key in ('attention/v1_naive@4096', 'attention/v2_flash@4096', 'attention/v2_flash@8192'):
                self.assertEqual(results[key]['time']['n'], 2, key)
            ran = [line for line in self.log.read_text().split('\n') if line.startswith('attention')]
            self.assertEqual(ran, [suffix('attention/v1_naive/4096'), suffix('attention/v1_naive/8192'),
                                   suffix('attention/v2_flash/4096'), suffix('attention/v2_flash/8192')])
            self.assertIn('running the 2 benchmark(s) after it in a new process', said)

    def test_a_crash_in_the_last_benchmark(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [('attention/v1_naive/4096', 'ok'),
                                                  ('attention/v1_naive/8192', 'crash')])
            out = Path(folder) / 'out'
            code, _ = self.measure(root, build, out)
            self.assertEqual(code, measure.INCOMPLETE)
            self.assertEqual(self.read(out, '4.3.json')['results']['attention/v1_naive@8192']['status'],
                             'failed')

    def test_a_failing_test_leaves_its_benchmarks_untimed_and_failed(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [('attention/v1_naive/4096', 'ok'),
                                                  ('attention/v2_flash/4096', 'ok')], failing_test=True)
            out = Path(folder) / 'out'
            code, said = self.measure(root, build, out)
            self.assertEqual(code, measure.INCOMPLETE)
            record = self.read(out, '4.3.json')
            self.assertEqual(record['tests'], {'passed': 1, 'failed': 1, 'skipped': 0,
                                               'failed_tests': ['Reduce.wrong_sum']})
            for key in ('attention/v1_naive@4096', 'attention/v2_flash@4096'):
                self.assertEqual(record['results'][key], {
                    'status': 'failed', 'reason': 'not timed: tests of attention_test failed: '
                    'Reduce.wrong_sum'})
            self.assertNotIn('attention', self.log.read_text())  # never run, only listed
            self.assertEqual(self.read(out, 'A.json')['tests']['failed'], 0)

    def test_a_skipped_ceiling_is_written_as_such_in_machine_json(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [('attention/v1_naive/4096', 'ok')], ceiling_plan={
                'bench/read_bandwidth/2147483648': 'skipped: needs 2.0 GiB, 1.5 GiB free',
                'bench/copy_bandwidth/2147483648': OOM})
            out = Path(folder) / 'out'
            code, said = self.measure(root, build, out)
            self.assertEqual(code, measure.INCOMPLETE)
            ceilings = self.read(out, 'machine.json')['ceilings']
            self.assertEqual(ceilings['read_stream_bandwidth'], {
                'status': 'skipped',
                'reason': 'bench/read_bandwidth@2147483648: needs 2.0 GiB, 1.5 GiB free'})
            self.assertEqual(ceilings['read_bandwidth']['from'], 'read_bulk_bandwidth')
            self.assertEqual(ceilings['copy_kernel_bandwidth']['status'], 'failed')
            self.assertEqual(ceilings['copy_bandwidth']['from'], 'memcpy_bandwidth')
            self.assertEqual(ceilings['fp32_fma_rate']['unit'], 'FLOP/s')
            self.assertIn('A (machine.json)', said)

    def test_a_binary_that_dies_before_its_first_benchmark_stops_the_run(self):
        # No GPU context (no device): nothing ran, so nothing is recorded as measured or failed.
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [('attention/v1_naive/4096', 'ok')])
            (build / 'bench_bench').write_text(
                '#!/bin/sh\necho "bench_bench: cannot read the GPU\'s context" >&2\nexit 1\n')
            out = Path(folder) / 'out'
            code, said = self.measure(root, build, out)
            self.assertEqual(code, 1)
            self.assertIn("exited with status 1 while running it: bench_bench: cannot read the GPU's "
                          'context, before its first benchmark', said)
            self.assertFalse(out.exists())

    def test_records_go_under_the_slug_asked_for(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, [('attention/v1_naive/4096', 'ok')])
            out = Path(folder) / 'out'
            code, _ = self.measure(root, build, out, '--gpu-slug', 'nvidia-h200-12gib')
            self.assertEqual(code, 0)
            self.assertEqual(sorted(p.name for p in (out / 'nvidia-h200-12gib').iterdir()),
                             ['4.3.json', 'A.json', 'machine.json'])
            self.assertEqual(self.read(out, '4.3.json', 'nvidia-h200-12gib')['gpu'], 'NVIDIA H200')
            code, said = self.measure(root, build, out, '--gpu-slug', '../up')
            self.assertEqual(code, 1)
            self.assertIn('--gpu-slug', said)
            # a folder named for another GPU: the weaver would refuse it, so nothing is written
            code, said = self.measure(root, build, out, '--gpu-slug', 'nvidia-h2000')
            self.assertEqual(code, 1)
            self.assertIn('--gpu-slug nvidia-h2000 does not name this GPU, NVIDIA H200', said)
            self.assertFalse((out / 'nvidia-h2000').exists())


class Peers(unittest.TestCase):
    def test_a_failing_peer_is_recorded_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / 'src' / 'p').mkdir(parents=True)  # peers are tangled scripts under src/
            (root / 'src/p/bad.py').write_text('import sys\nsys.exit("no such kernel")\n')
            (root / 'src/p/away.py').write_text(
                'import sys\nsys.stderr.write("no torch\\n")\nsys.exit(77)\n')
            results = {}
            with redirect_stderr(io.StringIO()):
                contexts = measure.measure_peers(root, ['src/p/bad.py', 'src/p/away.py'], results,
                                                 'x.md:3')
            self.assertEqual(contexts['src/p/bad.py']['status'], 'failed')
            self.assertIn('exited with status 1 (no such kernel)', contexts['src/p/bad.py']['reason'])
            self.assertEqual(contexts['src/p/away.py']['status'], 'skipped')
            rows = outcomes.collect('4.3', results, contexts)
            self.assertEqual([row[1] for row in rows], ['peer src/p/bad.py', 'peer src/p/away.py'])

if __name__ == '__main__':
    unittest.main()
