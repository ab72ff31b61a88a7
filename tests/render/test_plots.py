#!/usr/bin/python3
"""figures/plots/*.py (waves-staircase.py, launch-timeline.py, occupancy-littles-law.py,
reuse-working-set.py): each draws its SVG from a record
byte-identically, draws a 'not measured' panel when the record is absent (so the page's link is
never broken), and exits 2 on a bad record."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
STAIRCASE = os.path.join(REPO, 'figures', 'plots', 'waves-staircase.py')
TIMELINE = os.path.join(REPO, 'figures', 'plots', 'launch-timeline.py')
LITTLE = os.path.join(REPO, 'figures', 'plots', 'occupancy-littles-law.py')
REUSE = os.path.join(REPO, 'figures', 'plots', 'reuse-working-set.py')


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


class StaircaseTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='plots-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.records = os.path.join(self.work, 'records')
        os.makedirs(self.records)

    def draw(self, out):
        return subprocess.run([sys.executable, STAIRCASE, self.records, os.path.join(self.work, out)],
                              capture_output=True, text=True)

    def svg(self, out):
        with open(os.path.join(self.work, out, 'waves-staircase.svg'), 'rb') as f:
            return f.read()

    def test_draws_byte_identically(self):
        with open(os.path.join(self.records, '1.2.json'), 'w') as f:
            json.dump(staircase_record(), f)
        for out in ('a', 'b'):
            done = self.draw(out)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.svg('a').startswith(b'<?xml'))
        self.assertEqual(self.svg('a'), self.svg('b'))
        self.assertNotIn(b'<dc:date>', self.svg('a'))

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_record_without_the_staircase_is_an_error(self):
        with open(os.path.join(self.records, '1.2.json'), 'w') as f:
            json.dump({'results': {'waves/peer_empty@1': {}}}, f)
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('1.2.json', done.stderr)


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


class TimelineTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='plots-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.records = os.path.join(self.work, 'records')
        os.makedirs(self.records)

    def write(self, record):
        with open(os.path.join(self.records, '1.4.json'), 'w') as f:
            json.dump(record, f)

    def draw(self, out):
        return subprocess.run([sys.executable, TIMELINE, self.records, os.path.join(self.work, out)],
                              capture_output=True, text=True)

    def svg(self, out):
        with open(os.path.join(self.work, out, 'launch-timeline.svg'), 'rb') as f:
            return f.read()

    def test_draws_byte_identically(self):
        self.write(timeline_record())
        for out in ('a', 'b'):
            done = self.draw(out)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.svg('a').startswith(b'<?xml'))
        self.assertEqual(self.svg('a'), self.svg('b'))
        self.assertNotIn(b'<dc:date>', self.svg('a'))
        self.assertIn(b'CUDA graph', self.svg('a'))

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_record_without_the_timelines_is_an_error(self):
        self.write({'results': {'launch/v1_stream@50x1': {}}})
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('1.4.json', done.stderr)
        self.assertIn('timeline_stream', done.stderr)

    def test_a_kernel_without_its_end_is_an_error(self):
        record = timeline_record()
        del record['results']['launch/timeline_graph@50']['k07_end']
        self.write(record)
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('kernel 7', done.stderr)



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


class LittlesLawTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='plots-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.records = os.path.join(self.work, 'records')
        os.makedirs(self.records)

    def draw(self, out):
        return subprocess.run([sys.executable, LITTLE, self.records, os.path.join(self.work, out)],
                              capture_output=True, text=True)

    def svg(self, out):
        with open(os.path.join(self.work, out, 'occupancy-littles-law.svg'), 'rb') as f:
            return f.read()

    def test_draws_byte_identically(self):
        with open(os.path.join(self.records, '1.3.json'), 'w') as f:
            json.dump(stream_record(), f)
        for out in ('a', 'b'):
            done = self.draw(out)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.svg('a').startswith(b'<?xml'))
        self.assertEqual(self.svg('a'), self.svg('b'))
        self.assertNotIn(b'<dc:date>', self.svg('a'))

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_record_without_the_sweep_is_an_error(self):
        with open(os.path.join(self.records, '1.3.json'), 'w') as f:
            json.dump({'context': {'sm_count': 132}, 'results': {'occupancy/peer_read_stream@1': {}}}, f)
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('1.3.json', done.stderr)


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


class ReuseWorkingSetTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='plots-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.records = os.path.join(self.work, 'records')
        os.makedirs(self.records)

    def draw(self, out):
        return subprocess.run([sys.executable, REUSE, self.records, os.path.join(self.work, out)],
                              capture_output=True, text=True)

    def svg(self, out):
        with open(os.path.join(self.work, out, 'reuse-working-set.svg'), 'rb') as f:
            return f.read()

    def test_draws_byte_identically(self):
        record, machine = reuse_record()
        with open(os.path.join(self.records, '2.3.json'), 'w') as f:
            json.dump(record, f)
        with open(os.path.join(self.records, 'machine.json'), 'w') as f:
            json.dump(machine, f)
        for out in ('a', 'b'):
            done = self.draw(out)
            self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(self.svg('a').startswith(b'<?xml'))
        self.assertEqual(self.svg('a'), self.svg('b'))
        self.assertNotIn(b'<dc:date>', self.svg('a'))
        self.assertIn(b'L2 = 60 MiB', self.svg('a'))

    def test_draws_without_machine_json(self):
        record, _ = reuse_record()
        with open(os.path.join(self.records, '2.3.json'), 'w') as f:
            json.dump(record, f)
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)

    def test_without_a_record_says_not_measured(self):
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))

    def test_a_record_without_the_sweep_is_an_error(self):
        with open(os.path.join(self.records, '2.3.json'), 'w') as f:
            json.dump({'results': {'reuse/register_reuse@268435456x1': {}}}, f)
        done = self.draw('a')
        self.assertEqual(done.returncode, 2)
        self.assertIn('2.3.json', done.stderr)


if __name__ == '__main__':
    unittest.main()
