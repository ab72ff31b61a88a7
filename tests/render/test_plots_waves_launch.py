#!/usr/bin/python3
"""figures/plots/waves-read-staircase.py and launch-timeline-pdl.py, on test_plots.py's PlotTest:
each draws its SVG byte-identically, a 'not measured' panel without the record, a panel that says so
for a record made before its benchmarks existed, and exits 2 on a bad record."""
import os
import sys
import unittest

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_plots import PlotTest  # noqa: E402


def one(value, unit=''):
    return {'median': value, 'min': value * 0.99, 'max': value * 1.01, 'n': 3, 'unit': unit}


def read_staircase_record():
    """A synthetic chapter 1.2 record: the read staircases on a 132-SM GPU."""
    results = {}
    for b, step in ((1, 33), (8, 132)):
        wave = 132 * b
        grids = list(range(step, 9 * wave // 2 + 1, step)) + [k * wave + 1 for k in range(1, 5)]
        for g in grids:
            rounds = -(-g // wave)
            results['waves/read_staircase_b%d@%d' % (b, g)] = {
                'time': one(rounds * 25e-6 + 3e-6, 's'), 'wave_size': one(wave), 'waves': one(rounds)}
    return {'gpu': 'NVIDIA H200', 'date': '2026-12-01T15:40:00Z', 'results': results}


class ReadStaircaseTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'waves-read-staircase.py', '1.2.json', 'waves-read-staircase.svg'

    def test_draws_byte_identically(self):
        self.write(read_staircase_record())
        self.assertIn(b'256 KiB', self.assert_draws_byte_identically())

    def test_an_older_record_says_so(self):
        self.write({'gpu': 'NVIDIA H200', 'date': '2026-12-01', 'results': {'waves/staircase_b1@1': {}}})
        self.assertIn(b'predates the read staircase', self.assert_draws_byte_identically())

    def test_a_point_without_its_wave_size_is_an_error(self):
        record = read_staircase_record()
        del record['results']['waves/read_staircase_b8@264']['wave_size']
        self.write(record)
        self.assert_an_error('read_staircase_b8@264', 'wave_size')


def pdl_record():
    """A synthetic chapter 1.4 record: the graph's and the PDL graph's fifty stamped kernels."""
    results = {}
    for key, period, wait in (('launch/timeline_graph@50', 1.2e-6, 0.0), ('launch/timeline_graph_pdl@50', 0.8e-6, 0.5e-6)):
        quantities = {}
        for k in range(50):
            start = k * period
            quantities['k%02d_start' % k] = one(start, 's')
            quantities['k%02d_end' % k] = one(start + 0.6e-6, 's')
            if wait:
                quantities['k%02d_wait_time' % k] = one(wait, 's')
        results[key] = quantities
    return {'gpu': 'NVIDIA H200', 'date': '2026-12-01T15:40:00Z', 'results': results}


class PdlTimelineTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'launch-timeline-pdl.py', '1.4.json', 'launch-timeline-pdl.svg'

    def test_draws_byte_identically(self):
        self.write(pdl_record())
        self.assertIn(b'graph with PDL', self.assert_draws_byte_identically())

    def test_an_older_record_says_so(self):
        record = pdl_record()
        del record['results']['launch/timeline_graph_pdl@50']
        self.write(record)
        self.assertIn(b'predates the PDL timeline', self.assert_draws_byte_identically())

    def test_a_kernel_without_its_wait_is_an_error(self):
        record = pdl_record()
        del record['results']['launch/timeline_graph_pdl@50']['k07_wait_time']
        self.write(record)
        self.assert_an_error('kernel 7')


if __name__ == '__main__':
    unittest.main()
