"""Unit tests of tangle/measure/measure.py's pure functions (no GPU, no binaries)."""
import hashlib
import json
import os
import sys
import tempfile
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402


def run(name, repetition, real_time, time_unit='us', **counters):
    entry = {
        'name': name, 'run_name': name, 'run_type': 'iteration', 'family_index': 0,
        'per_family_instance_index': 0, 'repetitions': 3, 'repetition_index': repetition,
        'threads': 1, 'iterations': 100, 'real_time': real_time, 'cpu_time': 999.0,
        'time_unit': time_unit,
    }
    entry.update(counters)
    return entry


class ResultKey(unittest.TestCase):
    def test_strips_settings_and_joins_arguments(self):
        self.assertEqual(measure.result_key(
            'reduce/v1_naive/268435456/min_time:0.050/repeats:10/manual_time'),
            'reduce/v1_naive@268435456')
        self.assertEqual(measure.result_key('matmul/v3_smem_tiled/4096/4096/4096/manual_time'),
                         'matmul/v3_smem_tiled@4096x4096x4096')

    def test_no_arguments_gives_the_bare_name(self):
        self.assertEqual(measure.result_key('bench/x/repeats:10/real_time'), 'bench/x')

    def test_named_arguments_keep_their_values(self):
        self.assertEqual(measure.result_key('scan/v2/n:1024/k:8/threads:1'), 'scan/v2@1024x8')

    def test_a_numeric_first_part_is_a_name(self):
        self.assertEqual(measure.result_key('42/7'), '42@7')


class QuantityUnit(unittest.TestCase):
    """The unit rule of book/CONVENTIONS.md ("Units"); tests/weave/units_test.cpp checks the
    weaver's copy against the same names."""

    def test_by_name_then_by_suffix(self):
        expected = {
            'time': 's', 'bytes': 'B', 'flops': 'FLOP', 'bandwidth': 'B/s', 'flop_rate': 'FLOP/s',
            'latency': 's', 'read_ceiling': 'B/s', 'per_launch': 's', 'fetch_granularity': 'B',
            'predicted_time': 's', 'floor_time': 's', 'block_time': 's', 'model_latency': 's',
            'model_bytes': 'B', 'bytes_in_flight_per_sm': 'B', 'saturation_bytes_in_flight': 'B',
            'fp32_flops': 'FLOP', 'predicted_bandwidth': 'B/s', 'dram_bandwidth': 'B/s',
            'fp32_fma_rate': 'FLOP/s', 'sm_clock_mhz': 'MHz', 'k07_start': 's',
        }
        for name, unit in expected.items():
            self.assertEqual(measure.quantity_unit(name), unit, name)

    def test_declared_dimensionless(self):
        for name in ('warp_instructions', 'sm_count', 'achieved_occupancy', 'stall_barrier',
                     'limited_by_warps', 'throttled', 'eta', 'waves', 'measured_error'):
            self.assertEqual(measure.quantity_unit(name), '', name)

    def test_a_counter_without_a_unit_is_refused(self):
        data = {'benchmarks': [run('a/b', 0, 1.0, time_unit='ms', frobs=3.0)]}
        with self.assertRaisesRegex(measure.MeasureError, r'x\.json: benchmark a/b: the counter frobs has no unit'):
            measure.parse_benchmark_json(data, 'x.json')

    def test_every_committed_quantity_has_a_unit_by_the_rule(self):
        # The records made before the rule hold "" for some times and sizes: the rule gives each
        # a unit (the weaver applies it when it reads them), and never contradicts one recorded.
        folder = Path(__file__).resolve().parents[3] / 'book' / 'measurements'
        records = sorted(folder.glob('*/*.json'))
        self.assertTrue(records)
        for path in records:
            data = json.loads(path.read_text(encoding='utf-8'))
            for key, quantities in data.get('results', {}).items():
                for name, q in quantities.items():
                    unit = measure.unit_by_name(name)
                    self.assertIsNotNone(unit, f'{path.name}: {key}: {name}')
                    if q.get('unit'):
                        self.assertEqual(q['unit'], unit, f'{path.name}: {key}: {name}')


class ParseBenchmark(unittest.TestCase):
    def test_statistics_per_quantity_in_seconds(self):
        data = {'context': {}, 'benchmarks': [
            run('a/b/8/repeats:3/manual_time', 0, 3.0, bytes=10.0, bandwidth=5.0, sm_clock_mhz=1900),
            run('a/b/8/repeats:3/manual_time', 1, 1.0, bytes=10.0, bandwidth=9.0, sm_clock_mhz=1950),
            run('a/b/8/repeats:3/manual_time', 2, 2.0, bytes=10.0, bandwidth=7.0, sm_clock_mhz=1980),
            dict(run('a/b/8/repeats:3/manual_time', 0, 2.0), run_type='aggregate',
                 aggregate_name='mean', name='a/b/8/repeats:3/manual_time_mean'),
        ]}
        results, clocks = measure.parse_benchmark_json(data, 'x.json')
        self.assertEqual(list(results), ['a/b@8'])
        time = results['a/b@8']['time']
        self.assertAlmostEqual(time['median'], 2e-6)
        self.assertAlmostEqual(time['min'], 1e-6)
        self.assertAlmostEqual(time['max'], 3e-6)
        self.assertEqual(time['n'], 3)
        self.assertEqual(time['unit'], 's')
        self.assertEqual(results['a/b@8']['bandwidth']['median'], 7.0)
        self.assertEqual(results['a/b@8']['bandwidth']['unit'], 'B/s')
        self.assertEqual(results['a/b@8']['bytes']['unit'], 'B')
        self.assertEqual(results['a/b@8']['sm_clock_mhz']['unit'], 'MHz')
        self.assertNotIn('cpu_time', results['a/b@8'])
        self.assertEqual(clocks, [(1900, False), (1950, False), (1980, False)])  # no window seen

    def test_other_counters_have_no_unit(self):
        data = {'benchmarks': [run('a/b', 0, 1.0, time_unit='ms', throttled=0.0)]}
        results, _ = measure.parse_benchmark_json(data, 'x.json')
        self.assertEqual(results['a/b']['throttled']['unit'], '')
        self.assertAlmostEqual(results['a/b']['time']['median'], 1e-3)

    def test_a_failed_benchmark_is_recorded_failed_with_its_message(self):
        data = {'benchmarks': [dict(run('a/b', 0, 1.0), error_occurred=True,
                                    error_message='chapters/x.md:12: cudaMalloc: out of memory')]}
        results, _ = measure.parse_benchmark_json(data, 'x.json')
        self.assertEqual(results['a/b'], {'status': 'failed',
                                          'reason': 'chapters/x.md:12: cudaMalloc: out of memory'})

    def test_two_benchmarks_with_one_key_are_refused(self):
        second = dict(run('a/b', 0, 1.0), family_index=1)
        with self.assertRaisesRegex(measure.MeasureError, 'result key a/b'):
            measure.parse_benchmark_json({'benchmarks': [run('a/b', 0, 1.0), second]}, 'x.json')

    def test_nan_and_infinite_counters_are_refused_by_name(self):
        # Google Benchmark writes a counter divided by zero as a bare NaN or Infinity literal.
        text = json.dumps({'benchmarks': [run('a/b', 0, 1.0, bandwidth=5.0), run('a/b', 1, 1.0)]})
        for literal in ('NaN', 'Infinity', '-Infinity'):
            with self.subTest(literal):
                data = json.loads(text.replace('5.0', literal))
                with self.assertRaisesRegex(measure.MeasureError,
                                            rf'x.json: benchmark a/b: the counter bandwidth is {literal}, '
                                            'not a finite number.*Nothing of this chapter was written'):
                    measure.parse_benchmark_json(data, 'x.json')

    def test_an_infinite_time_is_refused(self):
        data = json.loads(json.dumps({'benchmarks': [run('a/b', 0, 7.0)]}).replace('7.0', 'Infinity'))
        with self.assertRaisesRegex(measure.MeasureError, 'benchmark a/b: the counter real_time is Infinity'):
            measure.parse_benchmark_json(data, 'x.json')

    def test_not_benchmark_json(self):
        with self.assertRaisesRegex(measure.MeasureError, 'x.json: not Google Benchmark JSON'):
            measure.parse_benchmark_json({'testsuites': []}, 'x.json')


class ParseSampledBenchmark(unittest.TestCase):
    """Runs in which bench::time_gpu took its own samples (appendix A's stopping rule)."""

    def sampled(self, name='a/b/8/iterations:1/manual_time', real_time=2.0, **extra):
        counters = dict(samples=14, converged=1, time__min=1.5e-6, time__max=4e-6, bytes=10.0,
                        bandwidth=5e6, bandwidth__min=2.5e6, bandwidth__max=6.67e6,
                        sm_clock_mhz=1755.0, sm_clock_mhz__min=1700.0, sm_clock_mhz__max=1800.0,
                        sm_clock_min_mhz=1700.0, throttled=0, held=1, nvml=1, power_end_watts=612.5)
        counters.update(extra)
        return dict(run(name, 0, real_time, **counters), iterations=1, repetitions=1)

    def test_the_harness_statistics_become_the_record(self):
        results, clocks = measure.parse_benchmark_json({'benchmarks': [self.sampled()]}, 'x.json')
        result = results['a/b@8']
        self.assertEqual(result['time'], {'median': 2e-6, 'min': 1.5e-6, 'max': 4e-6, 'n': 14,
                                          'unit': 's'})
        self.assertEqual(result['bandwidth'], {'median': 5e6, 'min': 2.5e6, 'max': 6.67e6, 'n': 14,
                                               'unit': 'B/s'})
        self.assertEqual(result['sm_clock_mhz']['min'], 1700.0)
        self.assertEqual(result['sm_clock_mhz']['unit'], 'MHz')
        self.assertEqual(result['sm_clock_min_mhz']['unit'], 'MHz')
        self.assertEqual(result['bytes'], {'median': 10.0, 'min': 10.0, 'max': 10.0, 'n': 14, 'unit': 'B'})
        for name in ('converged', 'held', 'nvml', 'power_end_watts', 'samples', 'throttled'):
            self.assertEqual(result[name]['unit'], '', name)
        self.assertFalse([q for q in result if '__' in q])  # the companions are not quantities
        self.assertEqual(clocks, [(1755.0, False)])

    def test_a_median_through_microseconds_is_not_below_its_minimum(self):
        # real_time 2 us read as 2e-6 s may land a rounding below time__min written in seconds.
        data = {'benchmarks': [self.sampled(real_time=1.5, time__min=1.5e-6 * (1 + 1e-12))]}
        results, _ = measure.parse_benchmark_json(data, 'x.json')
        self.assertEqual(results['a/b@8']['time']['min'], results['a/b@8']['time']['median'])

    def test_a_median_outside_its_extremes_is_refused(self):
        data = {'benchmarks': [self.sampled(sm_clock_mhz=1900.0)]}
        with self.assertRaisesRegex(measure.MeasureError, 'sm_clock_mhz is 1900.0, outside'):
            measure.parse_benchmark_json(data, 'x.json')

    def test_repeated_sampled_runs_are_pooled(self):
        first = self.sampled()
        second = dict(self.sampled(real_time=3.0, time__min=2e-6, time__max=5e-6, samples=10),
                      repetition_index=1)
        results, _ = measure.parse_benchmark_json({'benchmarks': [first, second]}, 'x.json')
        time = results['a/b@8']['time']
        self.assertAlmostEqual(time['median'], 2.5e-6)
        self.assertEqual((time['min'], time['max'], time['n']), (1.5e-6, 5e-6, 24))

    def test_sampled_and_repeated_runs_of_one_key_are_refused(self):
        data = {'benchmarks': [self.sampled(), run('a/b/8/iterations:1/manual_time', 1, 2.0)]}
        with self.assertRaisesRegex(measure.MeasureError, 'gpu_benchmark and\n?.*fixed_count'):
            measure.parse_benchmark_json(data, 'x.json')

    def test_a_count_that_is_not_a_count_is_refused(self):
        data = {'benchmarks': [self.sampled(samples=2.5)]}
        with self.assertRaisesRegex(measure.MeasureError, 'the counter samples is 2.5'):
            measure.parse_benchmark_json(data, 'x.json')


class CountTests(unittest.TestCase):
    def test_counts_and_names_failures(self):
        data = {'testsuites': [{'name': 'S', 'testsuite': [
            {'name': 'ok', 'status': 'RUN', 'result': 'COMPLETED'},
            {'name': 'gpu', 'status': 'RUN', 'result': 'SKIPPED'},
            {'name': 'bad', 'status': 'RUN', 'result': 'COMPLETED', 'failures': [{'failure': 'x'}]},
            {'name': 'off', 'status': 'NOTRUN', 'result': 'SUPPRESSED'},
        ]}]}
        counts, failed = measure.count_tests(data, 't.json')
        self.assertEqual(counts, {'passed': 1, 'failed': 1, 'skipped': 1})
        self.assertEqual(failed, ['S.bad'])


class FrontMatter(unittest.TestCase):
    def test_reads_top_level_fields(self):
        text = ('---\nid: "3.1"   # the id\ntitle: "A reduction: in three levels"\nsrc: reduce\n'
                'symbols: [B_copy, N_SM]\nkernels:\n  - {name: "x@1", flops: 1, bytes: 4}\n---\n# T\n')
        front = measure.parse_front_matter(text, 'c.md')
        self.assertEqual(front['id'], '3.1')
        self.assertEqual(front['title'], 'A reduction: in three levels')
        self.assertEqual(front['src'], 'reduce')
        self.assertEqual(front['symbols'], ['B_copy', 'N_SM'])
        self.assertEqual(front['kernels'], [{'name': 'x@1', 'flops': '1', 'bytes': '4'}])

    def test_the_tools_rules(self):
        # The rules of tangle/front_matter/ (book/SYNTAX.md): scalars as written, ~ absent, '...'
        # closes, CRLF read as LF, a key written twice refused.
        front = measure.parse_front_matter('---\r\nid: 3.10\r\nsrc: ~\r\ntitle: yes\r\n...\r\n', 'c.md')
        self.assertEqual(front['id'], '3.10')
        self.assertIsNone(front['src'])
        self.assertEqual(front['title'], 'yes')
        with self.assertRaisesRegex(measure.MeasureError, r"^c.md:4: .*'src' is written twice"):
            measure.parse_front_matter('---\nid: A\nsrc: a\nsrc: b\n---\n', 'c.md')
        with self.assertRaisesRegex(measure.MeasureError, r"^c.md:3: .*'src' must be a plain value"):
            measure.parse_front_matter('---\nid: A\nsrc: [a, b]\n---\n', 'c.md')
        with self.assertRaisesRegex(measure.MeasureError, r'^c.md:3: .*not YAML'):
            measure.parse_front_matter('---\nid: A\nsymbols: [a, b\nkernels:\n---\n', 'c.md')

    def test_profile_list_and_its_line(self):
        text = ('---\nid: "3.1"\nsrc: reduce\nprofile: ["reduce/v1_naive@268435456", '
                '"reduce/peer_cub_sum@268435456"]  # ncu\n---\n')
        front = measure.parse_front_matter(text, 'c.md')
        self.assertEqual(front['profile'], ['reduce/v1_naive@268435456', 'reduce/peer_cub_sum@268435456'])
        self.assertEqual(front.lines['profile'], 4)

    def test_errors_name_the_file(self):
        with self.assertRaisesRegex(measure.MeasureError, r'^c.md:1: .*front matter'):
            measure.parse_front_matter('# no front matter\n', 'c.md')
        with self.assertRaisesRegex(measure.MeasureError, r'^c.md:1: .*not closed'):
            measure.parse_front_matter('---\nid: A\nsrc: bench\n', 'c.md')
        with self.assertRaisesRegex(measure.MeasureError, r'^c.md: .*"id:"'):
            measure.parse_front_matter('---\nsrc: bench\n---\n', 'c.md')
        # No "src:" is allowed: an appendix with no code; measuring skips it.
        self.assertNotIn('src', measure.parse_front_matter('---\nid: B\n---\n', 'c.md'))
        with self.assertRaisesRegex(measure.MeasureError, r'^c.md:3: .*expected "key: value"'):
            measure.parse_front_matter('---\nid: A\nnonsense\n---\n', 'c.md')


class Chapters(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / 'book').mkdir()
        (self.root / 'chapters').mkdir()
        (self.root / 'book' / 'chapters.txt').write_text(
            '# order\nchapters/3.1-r.md\n\nchapters/A-bench.md  # appendix\n')
        (self.root / 'chapters' / '3.1-r.md').write_text('---\nid: "3.1"\nsrc: reduce\n---\n')
        (self.root / 'chapters' / 'A-bench.md').write_text('---\nid: "A"\nsrc: bench\n---\n')

    def tearDown(self):
        self.folder.cleanup()

    def test_all_in_book_order(self):
        chosen = measure.select_chapters(self.root)
        self.assertEqual([c for c, _ in chosen], ['chapters/3.1-r.md', 'chapters/A-bench.md'])

    def test_one_by_id_or_path(self):
        self.assertEqual(measure.select_chapters(self.root, 'A')[0][0], 'chapters/A-bench.md')
        self.assertEqual(measure.select_chapters(self.root, 'chapters/3.1-r.md')[0][1]['id'], '3.1')

    def test_a_byte_order_mark_is_ignored(self):
        chapter = self.root / 'chapters' / '3.1-r.md'
        chapter.write_bytes(b'\xef\xbb\xbf' + chapter.read_bytes())
        list_path = self.root / 'book' / 'chapters.txt'
        list_path.write_bytes(b'\xef\xbb\xbf' + list_path.read_bytes())
        self.assertEqual([front['id'] for _, front in measure.select_chapters(self.root)], ['3.1', 'A'])

    def test_unknown_chapter(self):
        with self.assertRaisesRegex(measure.MeasureError, 'chapters.txt: no chapter has id or path "9"'):
            measure.select_chapters(self.root, '9')

    def test_sources_from_the_manifest_and_their_hash(self):
        (self.root / 'src' / 'bench').mkdir(parents=True)
        (self.root / 'src' / 'bench' / 'b.cuh').write_bytes(b'B')
        (self.root / 'src' / 'bench' / 'a.cu').write_bytes(b'A')
        (self.root / 'src' / 'bench' / 'stray.txt').write_bytes(b'not tangled')
        (self.root / 'src' / '.tangle-manifest').write_text(
            'chapters/A-bench.md\tsrc/bench/b.cuh\nchapters/3.1-r.md\tsrc/reduce/r.cu\n'
            'chapters/A-bench.md\tsrc/bench/a.cu\n')
        sources = measure.chapter_sources(self.root, 'chapters/A-bench.md', 'bench')
        self.assertEqual(sources, ['src/bench/a.cu', 'src/bench/b.cuh'])
        expected = hashlib.sha256(b'src/bench/a.cu\0A\0src/bench/b.cuh\0B\0').hexdigest()
        self.assertEqual(measure.sources_sha256(self.root, sources), expected)
        # A prose edit moves the #line directives, not the code: the hash must not change.
        (self.root / 'src' / 'bench' / 'a.cu').write_bytes(b'#line 12 "chapters/A-bench.md"\nA')
        self.assertEqual(measure.sources_sha256(self.root, sources),
                         hashlib.sha256(b'src/bench/a.cu\0A\0src/bench/b.cuh\0B\0').hexdigest())

    def test_sources_fall_back_to_the_folder(self):
        (self.root / 'src' / 'reduce').mkdir(parents=True)
        (self.root / 'src' / 'reduce' / 'r.cu').write_bytes(b'R')
        self.assertEqual(measure.chapter_sources(self.root, 'chapters/3.1-r.md', 'reduce'),
                         ['src/reduce/r.cu'])

    def test_no_sources_is_an_error(self):
        with self.assertRaisesRegex(measure.MeasureError, 'run make tangle'):
            measure.chapter_sources(self.root, 'chapters/3.1-r.md', 'reduce')


class ContextAndCeilings(unittest.TestCase):
    def test_context_numbers_versions_and_clocks(self):
        bench_context = {'gpu': 'NVIDIA H200', 'sm_count': '132', 'l2_bytes': '62914560',
                         'sm_clock_start_mhz': '1980.25', 'driver': '13.0', 'runtime': '13.0',
                         'nvcc': '13.0.88', 'host_name': 'box', 'caches': []}
        context = measure.build_context(bench_context,
                                        [(1980.0, True), (1700.0, True), (2010.0, False), (1900.0, True)],
                                        smi=('580.159.04', 'NVIDIA H200'), nvcc='12.9.1')
        self.assertEqual(context['sm_count'], 132)
        self.assertEqual(context['sm_clock_start_mhz'], 1980.25)
        self.assertEqual(context['runtime'], '13.0')
        self.assertEqual(context['driver'], '580.159.04')
        self.assertEqual(context['driver_cuda_version'], '13.0')
        self.assertEqual(context['nvcc'], '13.0.88')  # the binary's compiler wins
        self.assertEqual(context['sm_clock_end_mhz'], 1900.0)
        self.assertEqual(context['sm_clock_min_mhz'], 1700.0)
        self.assertEqual(context['sm_clock_top_mhz'], 1980.0)  # 2010: read after a loop, no window
        self.assertEqual(context['host'], 'box')
        self.assertNotIn('caches', context)

    def test_slug(self):
        self.assertEqual(measure.gpu_slug('NVIDIA H200'), 'nvidia-h200')
        self.assertEqual(measure.gpu_slug('NVIDIA GeForce RTX 4090 (laptop)'),
                         'nvidia-geforce-rtx-4090-laptop')

    def test_a_folder_is_named_for_its_gpu_by_the_weavers_rule(self):
        # the GPU's letters and digits, then the end or a '-' and a suffix (--gpu-slug)
        for folder in ('nvidia-h200', 'nvidia-h200-24gib', 'nvidiah200'):
            self.assertTrue(measure.named_for(folder, 'NVIDIA H200'), folder)
        for folder in ('nvidia-h2000', 'nvidia-h100', 'nvidia', '', 'nvidia-h20'):
            self.assertFalse(measure.named_for(folder, 'NVIDIA H200'), folder)
        self.assertFalse(measure.named_for('anything', '!!!'))

    @staticmethod
    def appendix_a_results(copy=4e12, memcpy=4.2e12):
        """One result per ceiling benchmark, and a loaded sweep of 1 to 64 KiB per SM."""
        stat = {'median': 1.0, 'min': 1.0, 'max': 1.0, 'n': 1, 'unit': ''}
        results = {
            'bench/copy_bandwidth@2147483648': {'bandwidth': dict(stat, median=copy)},
            'bench/memcpy_bandwidth@2147483648': {'bandwidth': dict(stat, median=memcpy)},
            'bench/copy_cold_l2@16777216': {'bandwidth': stat},
            'bench/read_bandwidth@2147483648': {'bandwidth': dict(stat, median=4.5e12)},
            'bench/read_bulk_bandwidth@2147483648x32x3x1x1': {'bandwidth': dict(stat, median=4.4e12)},
            'bench/l2_bandwidth@16777216': {'bandwidth': dict(stat, median=8e12)},
            'bench/l2_shared_bandwidth@16777216x32x3x24x0': {'bandwidth': dict(stat, median=9e12)},
            'bench/shared_bandwidth@1024': {'bandwidth': stat},
            'bench/dram_latency@268435456': {'latency': dict(stat, median=6e-7)},
            'bench/dram_latency_wide@4294967296': {'latency': dict(stat, median=9e-7)},
            'bench/fp32_fma_rate@16384': {'flop_rate': stat},
            'bench/bf16_tensor_rate@8192': {'flop_rate': stat},
            'bench/launch_latency@1': {'time': stat},
            'bench/launch_throughput@1000': {'time': stat},
        }
        for name in ('bench/mma_sync_rate@8192', 'bench/wgmma_rate@2048', 'bench/exp2_rate@4096'):
            results[name] = {'flop_rate': stat, 'sm_cycle_flops': stat, 'kernel_clock_mhz': stat}
        # latency 0.40, 0.44, 0.42 us below the knee, then growing; bandwidth = 132 q / latency
        for q, latency in [(1024, 4.0e-7), (2048, 4.4e-7), (4096, 4.2e-7), (8192, 5e-7), (65536, 2e-6)]:
            results[f'bench/loaded_latency@{q}'] = {
                'latency': dict(stat, median=latency, min=0.9 * latency, max=1.1 * latency, unit='s'),
                'bytes_in_flight_per_sm': dict(stat, median=q),
                'bandwidth': dict(stat, median=132 * q / latency),
            }
        return results

    def test_ceilings_pick_each_benchmark_quantity(self):
        results = self.appendix_a_results()
        ceilings = measure.ceilings_from(results, 'b.json')
        self.assertEqual(sorted(ceilings), sorted(measure.ceiling_names()))
        self.assertEqual(ceilings['copy_kernel_bandwidth']['median'], 4e12)
        self.assertEqual(ceilings['dram_latency']['median'], 6e-7)  # not the wide chase
        del results['bench/launch_latency@1']
        with self.assertRaisesRegex(measure.MeasureError, 'b.json: expected one result for bench/launch_latency'):
            measure.ceilings_from(results, 'b.json')

    def test_read_and_l2_bandwidth_are_the_faster_reader_and_say_which(self):
        ceilings = measure.ceilings_from(self.appendix_a_results(), 'b.json')
        self.assertEqual(ceilings['read_bandwidth']['median'], 4.5e12)
        self.assertEqual(ceilings['read_bandwidth']['from'], 'read_stream_bandwidth')
        self.assertEqual(ceilings['read_bulk_bandwidth']['median'], 4.4e12)
        self.assertEqual(ceilings['l2_bandwidth']['median'], 9e12)
        self.assertEqual(ceilings['l2_bandwidth']['from'], 'l2_shared_bandwidth')

    def test_copy_bandwidth_is_the_faster_copy_and_says_which(self):
        ceilings = measure.ceilings_from(self.appendix_a_results(copy=4e12, memcpy=4.2e12), 'b.json')
        self.assertEqual(ceilings['copy_bandwidth']['median'], 4.2e12)
        self.assertEqual(ceilings['copy_bandwidth']['from'], 'memcpy_bandwidth')
        self.assertNotIn('from', ceilings['memcpy_bandwidth'])  # a copy, not the same object
        ceilings = measure.ceilings_from(self.appendix_a_results(copy=4.3e12, memcpy=4.2e12), 'b.json')
        self.assertEqual(ceilings['copy_bandwidth']['median'], 4.3e12)
        self.assertEqual(ceilings['copy_bandwidth']['from'], 'copy_kernel_bandwidth')

    def test_loaded_latency_is_the_median_of_the_points_below_the_knee(self):
        lam = measure.ceilings_from(self.appendix_a_results(), 'b.json')['dram_latency_loaded']
        self.assertAlmostEqual(lam['median'], 4.2e-7)  # of 0.40, 0.44, 0.42: not 0.5 or 2.0
        self.assertAlmostEqual(lam['min'], 0.9 * 4.0e-7)
        self.assertAlmostEqual(lam['max'], 1.1 * 4.4e-7)
        self.assertEqual(lam['unit'], 's')
        self.assertEqual(lam['n'], 3)
        self.assertEqual(lam['from'], ['bench/loaded_latency@1024', 'bench/loaded_latency@2048',
                                       'bench/loaded_latency@4096'])

    def test_loaded_latency_needs_low_points(self):
        results = self.appendix_a_results()
        for q in (1024, 2048, 4096):
            del results[f'bench/loaded_latency@{q}']
        with self.assertRaisesRegex(measure.MeasureError, 'b.json: no bench/loaded_latency point'):
            measure.ceilings_from(results, 'b.json')

    def test_loaded_latency_notes_a_point_past_the_knee(self):
        results = self.appendix_a_results()
        results['bench/loaded_latency@4096']['bandwidth']['median'] = 3e12  # 2/3 of B_read
        stderr = sys.stderr
        try:
            sys.stderr = captured = __import__('io').StringIO()
            measure.ceilings_from(results, 'b.json')
        finally:
            sys.stderr = stderr
        self.assertIn('bench/loaded_latency@4096 reaches 67% of read_bandwidth', captured.getvalue())

    def test_latency_has_seconds_as_its_unit(self):
        data = {'context': {}, 'benchmarks': [
            run('bench/dram_latency/268435456/manual_time', 0, 5.0, time_unit='ms', latency=6e-7)]}
        results, _ = measure.parse_benchmark_json(data, 'x.json')
        self.assertEqual(results['bench/dram_latency@268435456']['latency']['unit'], 's')


class AtomicWrite(unittest.TestCase):
    def test_writes_whole_file_and_leaves_no_temporary(self):
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / 'nvidia-h200' / 'A.json'
            measure.write_json_atomic(target, {'format': 1})
            self.assertEqual(json.loads(target.read_text()), {'format': 1})
            self.assertEqual(os.listdir(target.parent), ['A.json'])

    def test_failed_write_keeps_the_old_file(self):
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / 'A.json'
            measure.write_json_atomic(target, {'old': True})
            with self.assertRaises(TypeError):
                measure.write_json_atomic(target, {'bad': object()})
            self.assertEqual(json.loads(target.read_text()), {'old': True})
            self.assertEqual(os.listdir(folder), ['A.json'])

    def test_a_nan_is_never_written(self):
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / 'A.json'
            measure.write_json_atomic(target, {'old': True})
            with self.assertRaisesRegex(measure.MeasureError, 'A.json: not written: .*NaN'):
                measure.write_json_atomic(target, {'results': {'median': float('nan')}})
            self.assertEqual(json.loads(target.read_text()), {'old': True})
            self.assertEqual(os.listdir(folder), ['A.json'])


class Main(unittest.TestCase):
    def test_missing_build_folder_is_a_clear_error(self):
        with tempfile.TemporaryDirectory() as folder:
            self.assertEqual(measure.main(['--build', str(Path(folder) / 'nope')]), 1)



FAKE_TEST = """#!/usr/bin/env python3
import json, sys
path = [a for a in sys.argv if a.startswith('--gtest_output=json:')][0].split(':', 1)[1]
failed = %r
suite = [{'name': 'ok', 'status': 'RUN', 'result': 'COMPLETED'}]
if failed:
    suite.append({'name': 'wrong', 'status': 'RUN', 'result': 'COMPLETED', 'failures': [{}]})
json.dump({'testsuites': [{'name': 'T', 'testsuite': suite}]}, open(path, 'w'))
sys.exit(1 if failed else 0)
"""

FAKE_BENCH = """#!/usr/bin/env python3
import json, sys
runs = %r
if '--benchmark_list_tests=true' in sys.argv:
    print('\\n'.join(dict.fromkeys(r['name'] for r in runs)))
    sys.exit(0)
path = [a for a in sys.argv if a.startswith('--benchmark_out=')][0].split('=', 1)[1]
json.dump({'context': {'gpu': 'NVIDIA H200', 'sm_count': '132', 'host_name': 'h'},
           'benchmarks': runs}, open(path, 'w'))
"""


FAKE_NCU = """#!/usr/bin/env python3
import os, sys
if sys.argv[1:] == ['--version']:
    print('NVIDIA (R) Nsight Compute Command Line Profiler\\nVersion 2025.3.1.0 (build 36398880)')
    sys.exit(0)
assert os.environ.get('BENCH_PROFILE') == '1', 'time_gpu would not open the profiler'
assert sys.argv[1:6] == ['--clock-control', 'none', '--profile-from-start', 'off', '--csv'], sys.argv
assert any(a.startswith('--benchmark_filter=(^bench/launch_latency/') for a in sys.argv), sys.argv
sys.stdout.write(open(%r).read())
sys.exit(%d)
"""


class EndToEnd(unittest.TestCase):
    """measure.main over a fake book and fake binaries that write the JSON the real ones do."""

    def make_book(self, folder, failing_test=False, nan_counter=False, without=None):
        root = Path(folder) / 'book-root'
        (root / 'book').mkdir(parents=True)
        (root / 'chapters').mkdir()
        (root / 'src' / 'bench').mkdir(parents=True)
        (root / 'book' / 'chapters.txt').write_text('chapters/A-bench.md\n')
        (root / 'chapters' / 'A-bench.md').write_text('---\nid: "A"\ntitle: "The bench"\nsrc: bench\n---\n')
        (root / 'src' / 'bench' / 'check.cuh').write_text('// tangled\n')
        build = Path(folder) / 'build'
        build.mkdir()
        names = ['bench/copy_bandwidth/2147483648', 'bench/memcpy_bandwidth/2147483648',
                 'bench/read_bandwidth/2147483648', 'bench/l2_bandwidth/16777216',
                 'bench/read_bulk_bandwidth/2147483648/32/3/1/1',
                 'bench/l2_shared_bandwidth/16777216/32/3/24/0',
                 'bench/shared_bandwidth/1024', 'bench/dram_latency/268435456',
                 'bench/loaded_latency/1024', 'bench/loaded_latency/65536',
                 'bench/fp32_fma_rate/16384', 'bench/bf16_tensor_rate/8192',
                 'bench/launch_latency/1', 'bench/launch_throughput/1000',
                 'bench/mma_sync_rate/8192', 'bench/wgmma_rate/2048', 'bench/exp2_rate/4096']
        names = [n for n in names if n != without]
        runs = [dict(run(n + '/repeats:2/manual_time', r, 10.0 + r, bandwidth=1e12,
                         flop_rate=1e13, sm_clock_mhz=1980.0 - r, latency=5e-7,
                         sm_cycle_flops=2600.0, kernel_clock_mhz=1800.0 - r,
                         bytes_in_flight_per_sm=float(n.rsplit('/', 1)[1])), family_index=i)
                for i, n in enumerate(names) for r in range(2)]
        bench = FAKE_BENCH % runs
        if nan_counter:  # the fake writes it as Google Benchmark does: a bare NaN literal
            bench = bench.replace("'flop_rate': 10000000000000.0", "'flop_rate': float('nan')", 1)
        for name, text in (('bench_test', FAKE_TEST % failing_test), ('bench_bench', bench)):
            (build / name).write_text(text.replace('#!/usr/bin/env python3', '#!' + sys.executable))
            (build / name).chmod(0o755)
        return root, build

    def test_writes_the_record_and_machine_json(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder)
            out = Path(folder) / 'out'
            code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out),
                                 '--chapter', 'A'])
            self.assertEqual(code, 0)
            record = json.loads((out / 'nvidia-h200' / 'A.json').read_text())
            self.assertEqual(record['chapter'], 'A')
            self.assertEqual(record['tests'], {'passed': 1, 'failed': 0, 'skipped': 0})
            self.assertEqual(record['sources'], ['src/bench/check.cuh'])
            self.assertEqual(record['context']['sm_count'], 132)
            self.assertEqual(record['results']['bench/launch_latency@1']['time']['n'], 2)
            machine = json.loads((out / 'nvidia-h200' / 'machine.json').read_text())
            self.assertAlmostEqual(machine['ceilings']['launch_latency']['median'], 10.5e-6)
            self.assertEqual(machine['ceilings']['copy_bandwidth']['unit'], 'B/s')
            self.assertEqual(machine['ceilings']['dram_latency_loaded']['from'],
                             ['bench/loaded_latency@1024'])
            self.assertEqual(machine['ceilings']['dram_latency_loaded']['unit'], 's')
            self.assertEqual(machine['sources_sha256'], record['sources_sha256'])

    def with_fake_ncu(self, folder, root, status=0, csv=None):
        """A chapter that asks for counters, and an ncu on PATH that prints the recorded probe
        (or `csv`, its text)."""
        (root / 'chapters' / 'A-bench.md').write_text(  # the span: what ncu is asked to count
            '---\nid: "A"\ntitle: "The bench"\nsrc: bench\nprofile: ["bench/launch_latency@1"]\n---\n'
            '[bench/launch_latency@1 : shared_bank_conflicts]{.m}\n')
        fixtures = Path(__file__).resolve().parent / 'fixtures' / 'ncu'
        (root / 'book' / 'ncu-metrics.txt').write_text((fixtures / 'metrics.txt').read_text())
        tools = Path(folder) / 'tools'
        tools.mkdir()
        printed = fixtures / 'probe-metrics.csv'
        if csv is not None:
            printed = Path(folder) / 'printed.csv'
            printed.write_text(csv)
        (tools / 'ncu').write_text(FAKE_NCU % (str(printed), status))
        (tools / 'ncu').chmod(0o755)
        return mock.patch.dict(os.environ, {'PATH': f'{tools}{os.pathsep}{os.environ["PATH"]}'})

    def test_counters_join_the_timings(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder)
            out = Path(folder) / 'out'
            with self.with_fake_ncu(folder, root):
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
            self.assertEqual(code, 0)
            record = json.loads((out / 'nvidia-h200' / 'A.json').read_text())
            asked = record['profiler'].pop('metrics')
            self.assertEqual(record['profiler'], {'tool': 'ncu', 'version': '2025.3.1.0', 'clock_control': 'none',
                                                  'metrics_file': 'book/ncu-metrics.txt'})
            self.assertIn('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', asked)
            result = record['results']['bench/launch_latency@1']
            self.assertEqual(result['time']['n'], 2)
            self.assertEqual(result['shared_bank_conflicts'],
                             {'median': 63488, 'min': 63488, 'max': 63488, 'n': 1, 'unit': ''})
            self.assertNotIn('dram_bytes', record['results']['bench/launch_throughput@1000'])
            self.assertEqual(sorted(os.listdir(out / 'nvidia-h200')), ['A.json', 'machine.json'])

    def test_a_failing_ncu_keeps_the_timings(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder)
            out = Path(folder) / 'out'
            with self.with_fake_ncu(folder, root, status=3), mock.patch('sys.stderr') as stderr:
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
            self.assertEqual(code, 1)
            said = ''.join(call.args[0] for call in stderr.write.call_args_list)
            self.assertIn('chapters/A-bench.md:5: ncu exited with status 3', said)
            record = json.loads((out / 'nvidia-h200' / 'A.json').read_text())
            self.assertNotIn('profiler', record)
            self.assertEqual(record['results']['bench/launch_latency@1']['time']['n'], 2)
            self.assertTrue((out / 'nvidia-h200' / 'machine.json').exists())

    def test_a_counter_that_is_nan_or_negative_keeps_the_timings(self):  # MS10, MS11
        fixtures = Path(__file__).resolve().parent / 'fixtures' / 'ncu'
        probe = (fixtures / 'probe-metrics.csv').read_text()
        for value in ('nan', '-5'):
            with self.subTest(value), tempfile.TemporaryDirectory() as folder:
                root, build = self.make_book(folder)
                out = Path(folder) / 'out'
                csv = probe.replace('"27,431,936"', f'"{value}"')
                with self.with_fake_ncu(folder, root, csv=csv), mock.patch('sys.stderr') as stderr:
                    code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
                self.assertEqual(code, 1)
                said = ''.join(call.args[0] for call in stderr.write.call_args_list)
                self.assertIn(f'smsp__inst_executed.sum: the value "{value}" is not a finite', said)
                self.assertIn('the record keeps its timings, without counters', said)
                record = json.loads((out / 'nvidia-h200' / 'A.json').read_text())
                self.assertNotIn('profiler', record)
                self.assertEqual(record['results']['bench/launch_latency@1']['time']['n'], 2)

    def test_no_counters_runs_no_ncu(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder)
            out = Path(folder) / 'out'
            with self.with_fake_ncu(folder, root, status=3), mock.patch('builtins.print') as printed:
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out),
                                     '--no-counters'])
            self.assertEqual(code, 0)  # the failing ncu was never run
            record = json.loads((out / 'nvidia-h200' / 'A.json').read_text())
            self.assertNotIn('profiler', record)
            said = ' '.join(str(call.args[0]) for call in printed.call_args_list if call.args)
            self.assertIn('counters not asked for (--no-counters)', said)
            self.assertRegex(said, r'measure: time by chapter: tests \d+ s, A \d+ s; all 1 chapter\(s\) \d+ s')

    # A failing test: tangle/measure/tests/test_outcomes.py (its benchmarks are recorded as failed).
    def test_a_nan_counter_stops_before_any_record(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, nan_counter=True)
            out = Path(folder) / 'out'
            with mock.patch('sys.stderr') as stderr:
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
            self.assertEqual(code, 1)
            said = ''.join(call.args[0] for call in stderr.write.call_args_list)
            self.assertIn('benchmark bench/copy_bandwidth/2147483648/repeats:2/manual_time: '
                          'the counter flop_rate is NaN', said)
            self.assertFalse(out.exists())

    # Records are written as a set: a run that fails anywhere leaves every old record as it was.
    def test_a_missing_ceiling_leaves_both_old_records(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder, without='bench/fp32_fma_rate/16384')
            out = Path(folder) / 'out'
            for name in ('A.json', 'machine.json'):
                measure.write_json_atomic(out / 'nvidia-h200' / name, {'old': True})
            with mock.patch('sys.stderr') as stderr:
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
            self.assertEqual(code, 1)
            said = ''.join(call.args[0] for call in stderr.write.call_args_list)
            self.assertIn('expected one result for bench/fp32_fma_rate', said)
            for name in ('A.json', 'machine.json'):
                self.assertEqual(json.loads((out / 'nvidia-h200' / name).read_text()), {'old': True})
            self.assertEqual(sorted(os.listdir(out / 'nvidia-h200')), ['A.json', 'machine.json'])

    def test_a_later_chapter_failing_writes_no_record_of_the_run(self):
        with tempfile.TemporaryDirectory() as folder:
            root, build = self.make_book(folder)
            (root / 'book' / 'chapters.txt').write_text('chapters/A-bench.md\nchapters/B-other.md\n')
            (root / 'chapters' / 'B-other.md').write_text('---\nid: "B"\ntitle: "Other"\nsrc: other\n---\n')
            out = Path(folder) / 'out'
            with mock.patch('sys.stderr') as stderr:
                code = measure.main(['--root', str(root), '--build', str(build), '--out', str(out)])
            self.assertEqual(code, 1)
            said = ''.join(call.args[0] for call in stderr.write.call_args_list)
            self.assertIn('neither other_test nor other_bench', said)
            self.assertFalse(out.exists())


if __name__ == '__main__':
    unittest.main()
