#!/usr/bin/python3
"""figures/plots/matmul-predicted.py, on test_plots.py's PlotTest: it draws its SVG byte-identically,
a 'not measured' panel without the record, takes the numbered rungs in the order of their numbers
(a later rung included, the shapes v9 tunes over left out), and exits 2 on a record without rungs or
with a rung that lacks its prediction."""
import os
import sys
import unittest

sys.dont_write_bytecode = True   # the source tree stays as checked out
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_plots import PlotTest  # noqa: E402

SIZE = '4096x4096x4096'


def one(value, unit=''):
    return {'median': value, 'min': value * 0.99, 'max': value * 1.02, 'n': 3, 'unit': unit}


def matmul_record(extra_rung=False):
    """A synthetic chapter 3.2 record: nine FP32 rungs, one tuned shape, the BF16 rung, both peers."""
    times = [0.276, 0.022, 0.016, 0.008, 0.0047, 0.0039, 0.0036, 0.0035, 0.0030]
    names = ['naive', 'coalesced', 'smem_tiled', 'blocktile_1d', 'blocktile_2d', 'vectorized',
             'warptiled', 'double_buffered', 'autotuned']
    results = {}
    for n, (name, time) in enumerate(zip(names, times), 1):
        results['matmul/v%d_%s@%s' % (n, name, SIZE)] = {
            'time': one(time, 's'), 'predicted_time': one(time * (0.8 + 0.1 * (n % 4)), 's')}
    if extra_rung:
        results['matmul/v10_cp_async@' + SIZE] = {'time': one(0.0028, 's'), 'predicted_time': one(0.0022, 's')}
    results['matmul/v9_tuned_128x128x16@' + SIZE] = {'time': one(0.0031, 's'), 'predicted_time': one(0.0022, 's')}
    results['matmul/bf16_mma@' + SIZE] = {'time': one(3.5e-4, 's'), 'predicted_time': one(2.6e-4, 's')}
    results['matmul/peer_cublas_sgemm@' + SIZE] = {'time': one(0.0027, 's')}
    results['matmul/peer_cublas_bf16@' + SIZE] = {'time': one(1.8e-4, 's')}
    return {'gpu': 'NVIDIA H200', 'date': '2026-12-01T15:09:58Z', 'results': results}


class MatmulPredictedTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'matmul-predicted.py', '3.2.json', 'matmul-predicted.svg'

    def test_draws_byte_identically(self):
        self.write(matmul_record())
        svg = self.assert_draws_byte_identically()
        self.assertIn(b'cuBLAS SGEMM', svg)
        self.assertIn(b'cuBLAS BF16', svg)

    def test_a_later_rung_follows_v9_and_the_tuned_shapes_are_left_out(self):
        self.write(matmul_record(extra_rung=True))
        svg = self.assert_draws_byte_identically()
        self.assertIn(b'<!-- v10 -->', svg)
        self.assertLess(svg.index(b'<!-- v9 -->'), svg.index(b'<!-- v10 -->'))
        self.assertEqual(svg.count(b'<!-- v9 -->'), 1)   # v9_tuned_* would be a second v9

    def test_a_rung_without_its_prediction_is_an_error(self):
        record = matmul_record()
        del record['results']['matmul/v5_blocktile_2d@' + SIZE]['predicted_time']
        self.write(record)
        self.assert_an_error('matmul/v5_blocktile_2d@' + SIZE, 'predicted_time')

    def test_a_record_without_rungs_is_an_error(self):
        self.write({'results': {'matmul/peer_cublas_sgemm@' + SIZE: {'time': one(0.0027, 's')}}})
        self.assert_an_error('no rung')


if __name__ == '__main__':
    unittest.main()
