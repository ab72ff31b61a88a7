#!/usr/bin/python3
"""figures/plots/matmul-predicted.py (chapter 3.2) and hopper-predicted.py (3.2b), on test_plots.py's
PlotTest: each draws its SVG byte-identically, a 'not measured' panel without the record, takes the
numbered rungs in the order of their numbers (3.2: a later rung included, the shapes v9 tunes over
left out; 3.2b: v1b after v1, the fused-epilogue results left out), leaves out what was skipped on
the GPU (a result with a 'status': a rung or peer this GPU cannot run), draws the 'not measured'
panel when no rung was measured, and exits 2 on a rung that lacks a quantity it needs."""
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

    def test_what_this_gpu_skipped_is_left_out(self):
        record = matmul_record()
        for key in ('matmul/bf16_mma@' + SIZE, 'matmul/peer_cublas_bf16@' + SIZE):
            record['results'][key] = {'status': 'skipped', 'reason': 'skipped: needs more shared memory than this GPU gives'}
        self.write(record)
        svg = self.assert_draws_byte_identically()
        self.assertIn(b'cuBLAS SGEMM', svg)
        self.assertNotIn(b'cuBLAS BF16', svg)
        self.assertNotIn(b'<!-- bf16 -->', svg)

    def test_a_record_without_measured_rungs_says_so(self):
        self.write({'results': {'matmul/v1_naive@' + SIZE: {'status': 'skipped', 'reason': 'skipped: needs more shared memory than this GPU gives'}}})
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))


def hopper_record():
    """A synthetic chapter 3.2b record: seven rungs and cuBLAS at two sizes, one fused epilogue."""
    results = {}
    for size, scale in (('4096x4096x4096', 1.0), ('8192x8192x8192', 8.0)):
        for k, (rung, time) in enumerate((('v1_tma_wgmma', 3.3e-4), ('v1b_one_in_flight', 3.8e-4),
                                          ('v2_specialized', 2.0e-4), ('v3_persistent', 1.9e-4),
                                          ('v4_cluster', 1.9e-4), ('v5_pingpong', 2.1e-4),
                                          ('v6_tma_store', 1.7e-4))):
            results['hopper/%s@%s' % (rung, size)] = {
                'time': one(time * scale, 's'), 'predicted_compute_time': one(1.32e-4 * scale, 's'),
                'model_l2_bytes': one((2.7e9 if k < 2 else 1.6e9) * scale, 'B'),
                'sm_clock_mhz': one(1650.0 + 10 * k, 'MHz')}
        results['hopper/v6_bias_gelu@' + size] = {'time': one(1.8e-4 * scale, 's')}
        results['hopper/peer_cublas_bf16@' + size] = {'time': one(1.73e-4 * scale, 's')}
    return {'gpu': 'NVIDIA H200', 'date': '2026-12-01T15:21:27Z', 'context': {'sm_clock_max_mhz': 1980},
            'results': results}


class HopperPredictedTest(PlotTest, unittest.TestCase):
    SCRIPT, RECORD, SVG = 'hopper-predicted.py', '3.2b.json', 'hopper-predicted.svg'

    def test_draws_byte_identically(self):
        self.write(hopper_record())
        self.write({'ceilings': {'l2_bandwidth': {'median': 7.77e12, 'unit': 'B/s'}}}, 'machine.json')
        svg = self.assert_draws_byte_identically()
        self.assertIn(b'cuBLAS BF16', svg)
        self.assertLess(svg.index(b'<!-- v1 -->'), svg.index(b'<!-- v1b -->'))
        self.assertLess(svg.index(b'<!-- v1b -->'), svg.index(b'<!-- v2 -->'))
        self.assertEqual(svg.count(b'<!-- v6 -->'), 2)   # one a panel: v6_bias_gelu is not a rung

    def test_draws_without_machine_json(self):
        self.write(hopper_record())
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn(b'B_\\mathrm{L2}', self.svg('a'))

    def test_a_rung_without_its_clock_is_an_error(self):
        record = hopper_record()
        del record['results']['hopper/v3_persistent@8192x8192x8192']['sm_clock_mhz']
        self.write(record)
        self.assert_an_error('hopper/v3_persistent@8192x8192x8192', 'sm_clock_mhz')

    def test_a_gpu_that_skipped_every_rung_gets_the_not_measured_panel(self):
        # 3.2b is sm_90a only: on another GPU its record holds only skipped results
        record = hopper_record()
        record['results'] = {key: {'status': 'skipped', 'reason': 'skipped: needs more shared memory than this GPU gives'} for key in record['results']}
        self.write(record)
        done = self.draw('a')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn(b'not measured', self.svg('a'))


if __name__ == '__main__':
    unittest.main()
