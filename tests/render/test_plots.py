#!/usr/bin/python3
"""figures/plots/*.py (waves-staircase.py, launch-timeline.py, occupancy-littles-law.py,
transpose-ladder.py, coalescing-traffic.py, reuse-working-set.py, profile-speed-of-light.py,
histogram-ladder.py, attention-traffic.py): each draws its SVG from a record
byte-identically, draws a 'not measured' panel when the record is absent (so the page's link is
never broken) or when what it needs was skipped on the record's GPU, and exits 2 on a bad record; every figure is drawn at a phone's width (4 in) with no
text under 8.5 pt, so that a 390 px screen shows none under 9 px. The model diagrams
(coalescing-sectors.py, banks-layouts.py) read no record: they draw byte-identically, and their
counts are the models'."""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                'book', 'render'))
from figure_runner import run_script  # noqa: E402  (book/render/figure_runner.py)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
PLOTS = os.path.join(REPO, 'figures', 'plots')


class PlotTest:
    """What every figure's test shares; a subclass (also a unittest.TestCase) names its script, the
    chapter record it reads and the SVG it writes."""
    SCRIPT = RECORD = SVG = None

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='plots-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.records = os.path.join(self.work, 'records')
        os.makedirs(self.records)

    def write(self, record, name=None):
        """Writes record as RECORDS_DIR/<name> (the chapter's record unless named, e.g. machine.json)."""
        with open(os.path.join(self.records, name or self.RECORD), 'w') as f:
            json.dump(record, f)

    def draw(self, out):
        # as `python3 SCRIPT RECORDS OUT` runs it, forked with Matplotlib imported (figure_runner.py)
        return run_script(os.path.join(PLOTS, self.SCRIPT), self.records, os.path.join(self.work, out))

    def svg(self, out):
        with open(os.path.join(self.work, out, self.SVG), 'rb') as f:
            return f.read()

    def assert_draws_byte_identically(self):
        """Draws the records written so far twice; both SVGs are the same bytes, with no date."""
        for out in ('a', 'b'):
            done = self.draw(out)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.svg('a').startswith(b'<?xml'))
        self.assertEqual(self.svg('a'), self.svg('b'))
        self.assertNotIn(b'<dc:date>', self.svg('a'))
        self.assert_readable_on_a_phone(self.svg('a').decode())
        return self.svg('a')

    def assert_readable_on_a_phone(self, svg):
        """4 in (288 pt) wide, and every line of text (a glyph group scale(S -S): 100 S pt) >= 8.5 pt."""
        self.assertIn('viewBox="0 0 288 ', svg)
        sizes = [100 * float(v) for v in re.findall(r'<g\b[^>]*\btransform="[^"]*scale\(([0-9.e-]+) -\1\)"', svg)]
        self.assertTrue(sizes)
        self.assertGreaterEqual(min(sizes), 8.5 - 1e-9)

    def assert_an_error(self, *words):
        """The script exits 2 on the records written, its message naming the record and every word."""
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        for word in (self.RECORD,) + words:
            self.assertIn(word, done.stderr)

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_record_whose_results_this_gpu_skipped_still_draws(self):
        # a reader's GPU that cannot run what the figure needs (a rung over its shared memory, an
        # architecture's own chapter): the book renders; plotlib.main draws 'not measured' where
        # the script itself has no panel for it
        self.write({'gpu': 'NVIDIA GeForce RTX 4090', 'date': '2026-12-01T00:00:00Z',
                    'results': {'x/y@1': {'status': 'skipped', 'reason': 'skipped: needs sm_90a'}}})
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr[-500:])
        self.assertTrue(self.svg('a').startswith(b'<?xml'))


def staircase_record():
    """A synthetic chapter 1.2 record: two staircases on a 132-SM GPU."""
    results = {}
    for name, wave, grids in (('waves/staircase_b1', 132, range(1, 595)),
                              ('waves/staircase_b4', 528, range(33, 2113, 33))):
        for g in grids:
            predicted = 2.5e-6 + math.ceil(g / wave) * 25e-6
            results['%s@%d' % (name, g)] = {
                'time': {'median': predicted * 1.01, 'min': predicted, 'max': predicted * 1.02, 'n': 3, 'unit': 's'},
                'predicted_time': {'median': predicted, 'min': predicted, 'max': predicted, 'n': 3, 'unit': ''}}
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class StaircaseTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'waves-staircase.py', '1.2.json', 'waves-staircase.svg'

    def test_draws_byte_identically(self):
        self.write(staircase_record())
        self.assert_draws_byte_identically()

    def test_a_record_without_the_staircase_is_an_error(self):
        self.write({'results': {'waves/peer_empty@1': {}}})
        self.assert_an_error()


def timeline_record(kernels=50):
    """A synthetic chapter 1.4 record: a stream step with 3 us gaps, a graph step with 0.2 us gaps."""
    results = {}
    for key, gap in (('launch/timeline_stream@50', 3e-6), ('launch/timeline_graph@50', 0.2e-6)):
        quantities = {}
        for k in range(kernels):
            start = k * (1e-6 + gap)
            for name, value in (('k%02d_start' % k, start), ('k%02d_end' % k, start + 1e-6)):
                quantities[name] = {'median': value, 'min': value, 'max': value, 'n': 10, 'unit': ''}
        results[key] = quantities
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class TimelineTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'launch-timeline.py', '1.4.json', 'launch-timeline.svg'

    def test_draws_byte_identically(self):
        self.write(timeline_record())
        self.assertIn(b'CUDA graph', self.assert_draws_byte_identically())

    def test_a_record_without_the_timelines_is_an_error(self):
        self.write({'results': {'launch/v1_stream@50x1': {}}})
        self.assert_an_error('timeline_stream')

    def test_a_kernel_without_its_end_is_an_error(self):
        record = timeline_record()
        del record['results']['launch/timeline_graph@50']['k07_end']
        self.write(record)
        self.assert_an_error('kernel 7')


def stream_record():
    """A synthetic chapter 1.3 record: the streaming sweep on a 132-SM GPU, lambda 0.39 us, 4.5 TB/s."""
    results = {}
    for warps in (4, 8, 16, 32, 64):
        for per_thread in (16, 32, 64, 128):
            q = warps * 32 * per_thread
            b = min(132 * q / 0.39e-6, 4.5e12) * 0.95
            one = lambda v, unit='': {'median': v, 'min': v, 'max': v, 'n': 5, 'unit': unit}
            results['occupancy/stream@%dx%d' % (warps, per_thread)] = {
                'bandwidth': {'median': b, 'min': b * 0.98, 'max': b * 1.01, 'n': 5, 'unit': 'B/s'},
                'latency': one(0.39e-6, 's'), 'read_ceiling': one(4.5e12)}
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'context': {'sm_count': 132}, 'results': results}


class LittlesLawTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'occupancy-littles-law.py', '1.3.json', 'occupancy-littles-law.svg'

    def test_draws_byte_identically(self):
        self.write(stream_record())
        self.assert_draws_byte_identically()

    def test_a_record_without_the_sweep_is_an_error(self):
        self.write({'context': {'sm_count': 132}, 'results': {'occupancy/peer_read_stream@1': {}}})
        self.assert_an_error()


def ladder_record(counted=True):
    """A synthetic chapter 2.2 record: the five rungs, the staged copy and the two peers at 8192^2."""
    one = lambda v, unit='': {'median': v, 'min': v, 'max': v, 'n': 10, 'unit': unit}
    model = {'v1_naive': 0, 'v2_tiled': 69206016, 'v3_padded': 4194304, 'v4_swizzled': 4194304,
             'v5_vectorized': 4194304, 'copy_staged': 4194304, 'peer_copy': None, 'peer_memcpy': None}
    times = {'v1_naive': 600e-6, 'v2_tiled': 290e-6, 'v3_padded': 140e-6, 'v4_swizzled': 141e-6,
             'v5_vectorized': 128e-6, 'copy_staged': 123e-6, 'peer_copy': 121e-6, 'peer_memcpy': 119e-6}
    results = {}
    for rung, t in times.items():
        entry = {'time': one(t, 's'), 'bandwidth': one(8 * 8192 * 8192 / t, 'B/s')}
        if model[rung] is not None:
            entry['model_shared_wavefronts'] = one(model[rung])
            if counted:
                entry['shared_wavefronts'] = one(model[rung] * 1.001)
        results['transpose/%s@8192x8192' % rung] = entry
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class LadderTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'transpose-ladder.py', '2.2.json', 'transpose-ladder.svg'

    def test_draws_byte_identically(self):
        self.write(ladder_record())
        self.write({'ceilings': {'copy_bandwidth': {'median': 4.28e12, 'unit': 'B/s'}}}, 'machine.json')
        self.assert_draws_byte_identically()

    def test_draws_without_counters_or_ceiling(self):
        self.write(ladder_record(counted=False))
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_a_record_without_the_ladder_is_an_error(self):
        self.write({'results': {'transpose/peer_copy@8192x8192': {}}})
        self.assert_an_error()


def coalescing_record(counted=True):
    """A synthetic chapter 2.1 record: every pattern, with or without ncu's dram_bytes."""
    n = 1 << 26
    patterns = {'unit_stride@67108864': 8 * n, 'unit_stride_float4@67108864': 8 * n,
                'stride@67108864x2': 12 * n, 'stride@67108864x4': 20 * n, 'stride@67108864x8': 36 * n,
                'stride@67108864x32': 36 * n, 'stride_fetch32@67108864x32': 36 * n,
                'misaligned@67108864x1': 8 * n, 'aos@67108864': 36 * n, 'soa@67108864': 20 * n}
    one = lambda v, unit='': {'median': v, 'min': v, 'max': v, 'n': 1, 'unit': unit}
    results = {}
    for name, model in patterns.items():
        time = model / 4e12
        useful = 20 * n if name.startswith(('aos', 'soa')) else 8 * n
        quantities = {'time': one(time, 's'), 'bandwidth': one(useful / time, 'B/s'),
                      'model_dram_bytes': one(model, 'B')}
        if counted:
            quantities['dram_bytes'] = one(model * 0.97, 'B')
        results['coalescing/' + name] = quantities
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class CoalescingTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'coalescing-traffic.py', '2.1.json', 'coalescing-traffic.svg'

    def test_draws_byte_identically(self):
        self.write(coalescing_record())
        self.write({'ceilings': {'copy_bandwidth': {'median': 4.2e12}}}, 'machine.json')
        self.assert_draws_byte_identically()

    def test_without_counters_says_so(self):
        self.write(coalescing_record(counted=False))
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'no counters', self.svg('a'))

    def test_a_record_without_the_patterns_is_an_error(self):
        self.write({'results': {'coalescing/peer_memcpy@67108864': {}}})
        self.assert_an_error()

    def test_a_pattern_without_its_model_is_an_error(self):
        record = coalescing_record()
        del record['results']['coalescing/soa@67108864']['model_dram_bytes']
        self.write(record)
        self.assert_an_error('soa')


def reuse_record():
    """A synthetic chapter 2.3 record and machine.json: three plateaus, and a ridge near r = 29."""
    mib = 1 << 20
    stat = lambda v, unit='': {'median': v, 'min': v * 0.98, 'max': v * 1.01, 'n': 5, 'unit': unit}
    results = {}
    for w in (1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 80, 96, 128, 256, 1024, 4096):
        l2 = 7.5e12 if w <= 40 else 4.4e12
        results['reuse/sweep_ca@%d' % (w * mib)] = {'bandwidth': stat(25e12 if w <= 24 else l2, 'B/s')}
        results['reuse/sweep_cg@%d' % (w * mib)] = {'bandwidth': stat(l2, 'B/s')}
    results['reuse/plateau_edges@1048576'] = {'l1_plateau_end_bytes': stat(30 * mib, 'B'),
                                              'l2_plateau_end_bytes': stat(44 * mib, 'B')}
    n = 1 << 26
    for r in (1, 2, 4, 8, 16, 24, 32, 64, 128, 256):
        t = max(4 * n / 4.5e12, 2 * r * n / 65e12)
        results['reuse/register_reuse@%dx%d' % (4 * n, r)] = {
            'time': stat(t, 's'), 'bytes': stat(4 * n + 4 * 135168, 'B'), 'flops': stat(2 * r * n, 'FLOP')}
    record = {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:40:00Z', 'context': {'l2_bytes': 60 * mib},
              'results': results}
    machine = {'ceilings': {'read_bandwidth': stat(4.5e12, 'B/s'), 'l2_bandwidth': stat(7.7e12, 'B/s'),
                            'shared_bandwidth': stat(33e12, 'B/s'), 'fp32_fma_rate': stat(65e12, 'FLOP/s')}}
    return record, machine


class ReuseWorkingSetTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'reuse-working-set.py', '2.3.json', 'reuse-working-set.svg'

    def test_draws_byte_identically(self):
        record, machine = reuse_record()
        self.write(record)
        self.write(machine, 'machine.json')
        self.assertIn(b'L2 = 60 MiB', self.assert_draws_byte_identically())

    def test_draws_without_machine_json(self):
        record, _ = reuse_record()
        self.write(record)
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_a_record_without_the_sweep_is_an_error(self):
        self.write({'results': {'reuse/register_reuse@268435456x1': {}}})
        self.assert_an_error()

    def test_an_unreadable_machine_json_is_named(self):
        record, _ = reuse_record()
        self.write(record)
        with open(os.path.join(self.records, 'machine.json'), 'w') as f:
            f.write('{not json')
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('machine.json', done.stderr)


def speed_of_light_record(drop=None):
    """A synthetic chapter 4.2 record: the four profiled kernels with their fractions of peak."""
    one = lambda v: {'median': v, 'min': v, 'max': v, 'n': 1, 'unit': ''}
    units = ('sol_dram', 'sol_l2', 'sol_l1', 'sol_sm', 'pipe_tensor', 'issue_active')
    keys = ('profile/reduce_v5@268435456', 'profile/transpose_conflicted@8192x8192',
            'profile/mma_bf16@4096x4096x4096', 'profile/stream_latency@268435456')
    results = {}
    for k, key in enumerate(keys):
        results[key] = {unit: one(0.1 + 0.8 * ((k + u) % 6) / 5) for u, unit in enumerate(units)}
    if drop:
        del results[keys[2]][drop]
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T12:00:00Z', 'results': results}


class SpeedOfLightTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'profile-speed-of-light.py', '4.2.json', 'profile-speed-of-light.svg'

    def test_draws_byte_identically(self):
        self.write(speed_of_light_record())
        self.assert_draws_byte_identically()

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_kernel_without_its_counters_is_an_error(self):
        self.write(speed_of_light_record(drop='pipe_tensor'))
        self.assert_an_error('profile/mma_bf16@4096x4096x4096', 'pipe_tensor')


def histogram_record():
    """A synthetic chapter 4.4 record: the ladder and CUB on both inputs, the probe, the read stream."""
    n = 268435456
    one = lambda v, unit='': {'median': v, 'min': v, 'max': v, 'n': 1, 'unit': unit}
    results = {'histogram/probe_shared_conflict_free@4096': {'atomics_per_second': one(4.0e12)},
               'histogram/peer_read@%d' % n: {'bandwidth': one(4.1e12, 'B/s')}}
    times = {'v1_global_atomics': 0.07, 'v2_shared_atomics': 3.7e-4, 'v3_vector_loads': 1.2e-4,
             'v4_lane_private': 7.2e-5, 'peer_cub': 1.3e-4}
    for rung, time in times.items():
        for distinct in (256, 1):
            entry = {'time': one(time, 's'), 'bandwidth': one(n / time, 'B/s')}
            if rung != 'peer_cub':
                entry['predicted_time'] = one(time * 0.95, 's')
            results['histogram/%s@%dx%d' % (rung, n, distinct)] = entry
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class HistogramLadderTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'histogram-ladder.py', '4.4.json', 'histogram-ladder.svg'

    def test_draws_byte_identically(self):
        self.write(histogram_record())
        self.write({'ceilings': {'read_bandwidth': {'median': 4.52e12, 'unit': 'B/s'}}}, 'machine.json')
        self.assert_draws_byte_identically()

    def test_draws_without_machine_json(self):
        self.write(histogram_record())
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_a_record_without_the_ladder_is_an_error(self):
        self.write({'results': {'histogram/peer_read@268435456': {}}})
        self.assert_an_error()

    def test_without_the_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

def attention_record(counted=True):
    """A synthetic chapter 4.3 record: the traffic sweep of both rungs, with or without ncu's counts."""
    one = lambda v, unit='': {'median': v, 'min': v, 'max': v, 'n': 1, 'unit': unit}
    results = {}
    for b, h, n in ((16, 16, 1024), (4, 16, 2048), (1, 16, 4096), (1, 4, 8192), (1, 1, 16384)):
        heads, d = b * h, 128
        naive = heads * (12 * n * n + 8 * n * d)
        flash, l2 = heads * 8 * n * d, heads * (4 * n * d + (n // 128) * 4 * n * d)
        entry = {'bytes': one(naive, 'B'), 'time': one(naive / 4e12, 's')}
        if counted:
            entry['dram_bytes'] = one(naive * 0.9, 'B')
        results['attention/v1_naive@%dx%dx%dx128x0' % (b, h, n)] = entry
        entry = {'bytes': one(flash, 'B'), 'model_l2_bytes': one(l2, 'B'), 'time': one(1e-3, 's')}
        if counted:
            entry['dram_bytes'] = one(flash * 1.1, 'B')
            entry['l2_bytes'] = one(l2 * 1.02, 'B')
        results['attention/v2_flash@%dx%dx%dx128x0' % (b, h, n)] = entry
    results['attention/v2_flash@4x16x4096x128x1'] = {'bytes': one(1.0, 'B')}  # not in the sweep
    return {'gpu': 'NVIDIA H200', 'date': '2026-11-30T10:00:00Z', 'results': results}


class AttentionTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'attention-traffic.py', '4.3.json', 'attention-traffic.svg'

    def test_draws_byte_identically(self):
        self.write(attention_record())
        self.assert_draws_byte_identically()

    def test_without_counters_says_so(self):
        self.write(attention_record(counted=False))
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'no counters', self.svg('a'))

    def test_a_record_without_the_sweep_is_an_error(self):
        self.write({'results': {'attention/v2_flash@4x16x4096x128x0': {}}})
        self.assert_an_error()

    def test_a_sweep_point_without_its_model_is_an_error(self):
        record = attention_record()
        del record['results']['attention/v2_flash@1x4x8192x128x0']['bytes']
        self.write(record)
        self.assert_an_error('8192')

def load_script(name):
    """A figure script as a module, so that its model functions can be checked."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name.replace('-', '_')[:-3], os.path.join(PLOTS, name))
    module = importlib.util.module_from_spec(spec)
    sys.dont_write_bytecode = True
    spec.loader.exec_module(module)
    return module


class ModelDiagram(PlotTest):
    """A diagram drawn from a chapter's model: no record is read, and none is needed."""

    def test_draws_byte_identically_without_a_record(self):
        self.assertIn(b'<svg', self.assert_draws_byte_identically())

    def test_without_a_record_says_not_measured(self):  # PlotTest's rule, which a model diagram breaks
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn(b'not measured', self.svg('a'))

    def test_a_wrong_command_line_is_refused(self):
        done = subprocess.run([sys.executable, os.path.join(PLOTS, self.SCRIPT)],
                              capture_output=True, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn('RECORDS_DIR OUT_DIR', done.stderr)


class SectorsTest(ModelDiagram, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'coalescing-sectors.py', '2.1.json', 'coalescing-sectors.svg'

    def test_the_counts_are_chapter_2_1s(self):
        # (sectors, lines) of coalescing_model_test.cpp's warp_touch cases
        touch = load_script(self.SCRIPT).touch
        counts = {(s, o): tuple(len(x) for x in touch(s, o)) for s, o in
                  [(1, 0), (1, 1), (2, 0), (8, 0), (32, 0)]}
        self.assertEqual(counts, {(1, 0): (4, 1), (1, 1): (5, 2), (2, 0): (8, 2), (8, 0): (32, 8),
                                  (32, 0): (32, 32)})


class BanksTest(ModelDiagram, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'banks-layouts.py', '2.2.json', 'banks-layouts.svg'

    def test_the_wavefronts_are_chapter_2_2s(self):
        # transpose_model_test.cpp: 32 for the plain tile's column read, 1 for the other three
        banks = load_script(self.SCRIPT)
        self.assertEqual([banks.wavefronts(index, rows) for _, index, rows, _ in banks.LAYOUTS],
                         [32, 1, 1, 1])


if __name__ == '__main__':
    unittest.main()
