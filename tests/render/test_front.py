#!/usr/bin/python3
"""book/render/front.py: the front page's headline results, dates and words, on small records."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import front  # noqa: E402


def result(t):
    return {'time': {'median': t, 'min': t, 'max': t, 'n': 1, 'unit': 's'}}


class HeadlineTest(unittest.TestCase):
    def test_the_last_rung_at_the_largest_size_with_a_peer(self):
        record = {'results': {
            'reduce/v1_naive@4096': result(1e-5), 'reduce/v7_last@4096': result(2e-6),
            'reduce/v7_last@268435456': result(2e-4), 'reduce/v3_mid@268435456': result(5e-4),
            'reduce/peer_cub_sum@4096': result(2e-6), 'reduce/peer_cub_sum@268435456': result(1.9e-4)}}
        self.assertEqual(front.headlines(record),
                         [('', 'reduce/v7_last@268435456', 'reduce/peer_cub_sum@268435456')])

    def test_named_ladders_and_only_a_peer_of_the_same_size(self):
        record = {'results': {
            'fusion/short_v1_unfused@64x4096': result(1), 'fusion/short_v4_float4@64x4096': result(1),
            'fusion/long_v3_fused@64x4096': result(1), 'fusion/peer_copy@64x4096': result(1),
            'launch/v5_fused@50x8': result(1), 'launch/peer_empty_stream@50': result(1)}}
        rows = front.headlines(record)
        self.assertIn(('short', 'fusion/short_v4_float4@64x4096', 'fusion/peer_copy@64x4096'), rows)
        self.assertIn(('long', 'fusion/long_v3_fused@64x4096', 'fusion/peer_copy@64x4096'), rows)
        self.assertEqual(len(rows), 2, 'launch/v5_fused@50x8 has no peer of its size (peer_empty_stream@50)')

    def test_attention_shows_the_unmasked_problem_against_its_strongest_peer(self):
        # The causal flag (last argument) must not make the unmasked problem size 0, and of two
        # peers of one problem the faster is shown, whatever the record's order.
        record = {'results': {
            'attention/v2_flash@16x16x1024x128x0': result(5e-4),
            'attention/v2_flash@4x16x8192x128x0': result(7.3e-3),
            'attention/v2_flash@4x16x8192x128x1': result(3.8e-3),
            'attention/peer_torch_flash@4x16x8192x128x0': result(6.1e-3),
            'attention/peer_torch_flash@4x16x8192x128x1': result(3.3e-3),
            'attention/peer_torch_cudnn@4x16x8192x128x0': result(3.2e-3),
            'attention/peer_torch_cudnn@4x16x8192x128x1': result(1.7e-3)}}
        self.assertEqual(front.headlines(record), [('', 'attention/v2_flash@4x16x8192x128x0',
                                                    'attention/peer_torch_cudnn@4x16x8192x128x0')])
        self.assertEqual(front.size('4x16x8192x128x0'), front.size('4x16x8192x128x1'))

    def test_the_strongest_peer_does_the_same_work(self):
        # An FP32 ladder meets the FP32 library kernel, not a faster BF16 one that moves fewer bytes;
        # where no peer does the same work, the first measured stands.
        def work(t, nbytes, flops):
            r = result(t)
            r['bytes'] = {'median': nbytes}
            r['flops'] = {'median': flops}
            return r
        record = {'results': {
            'matmul/v9_tuned@8': work(2e-2, 800, 1e12), 'matmul/peer_sgemm@8': work(2.1e-2, 800, 1e12),
            'matmul/peer_bf16@8': work(1.4e-3, 400, 1e12),
            'fusion/x_v4_fused@8': work(4e-4, 1600, None), 'fusion/peer_copy@8': work(2.7e-4, 1000, None),
            'fusion/peer_read@8': work(1.3e-4, 500, None)}}
        self.assertIn(('', 'matmul/v9_tuned@8', 'matmul/peer_sgemm@8'), front.headlines(record))
        rows = front.headlines({'results': {k: v for k, v in record['results'].items() if k.startswith('fusion')}})
        self.assertEqual(rows, [('x', 'fusion/x_v4_fused@8', 'fusion/peer_copy@8')])

    def test_no_peer_no_row(self):
        self.assertEqual(front.headlines({'results': {'reuse/v1_x@1': result(1)}}), [])

    def test_words_and_units(self):
        self.assertEqual(front.date_in_words('2026-11-29T16:13:17Z'), '2026-11-29')
        self.assertIsNone(front.date_in_words('yesterday'))
        self.assertEqual(front.article('NVIDIA H200'), 'an')
        self.assertEqual(front.article('GeForce RTX 4090'), 'a')
        self.assertEqual(front.seconds(2.5e-4), '250 µs')
        self.assertEqual(front.seconds(1.5), '1.5 s')

    def test_the_book_words_have_eight_outcomes_and_four_modules(self):
        words = front.read_words()
        self.assertEqual(len(words['outcomes']), 8)
        self.assertEqual(sorted(words['modules']), [1, 2, 3, 4])

    def test_a_bad_section_is_a_clear_error(self):
        with tempfile.NamedTemporaryFile('w', suffix='.md', delete=False) as f:
            f.write('## intro\n\nx\n\n## outcome\n\n1. y\n')
        self.addCleanup(os.unlink, f.name)
        with self.assertRaisesRegex(front.FrontError, 'unknown section "## outcome"'):
            front.read_words(f.name)

    def test_the_table_and_the_machine_line(self):
        with tempfile.TemporaryDirectory() as records:
            with open(os.path.join(records, 'machine.json'), 'w') as f:
                f.write('{"gpu": "NVIDIA H200", "date": "2026-11-29T16:13:17Z"}')
            with open(os.path.join(records, '3.1.json'), 'w') as f:
                f.write('{"date": "2026-11-29T16:13:17Z", "results": {"reduce/v2_x@8": %s, "reduce/peer_y@8": %s}}'
                        % (__import__('json').dumps(result(2e-3)), __import__('json').dumps(result(1e-3))))
            self.assertIn('measured on an NVIDIA H200 on 2026-11-29', front.machine_line(records))
            table = front.results_table([{'id': '3.1', 'basename': '3.1-r'}], records, lambda c: c['basename'] + '.html')
            # a key breaks only after its / and @; each cell names its column, for a phone's cards
            self.assertIn('<code>reduce/<wbr>v2_x@<wbr>8</code></td><td class="num" data-label="its time">2 ms</td>',
                          table)
            # speed vs peer comes right after the chapter, so a narrow frame still shows it
            self.assertIn('3.1</a></td><td class="num" data-label="speed vs peer">0.50×</td>', table)
            self.assertLess(table.index('speed vs peer'), table.index('last rung'))

    def test_share_of_the_roof_that_binds(self):
        def q(v):
            return {'median': v}
        ceilings = {'read_bandwidth': q(3e12), 'copy_bandwidth': q(2.9e12), 'fp32_fma_rate': q(6e13),
                    'bf16_tensor_rate': q(8e14)}
        # 1 GFLOP over 1 MB counted: 1000 FLOP/B, above the FP32 ridge (20): bound by F_fp32
        sgemm = {'time': q(1e-4), 'flops': q(1e9), 'bytes': q(2e6), 'dram_bytes': q(1e6), 'tensor_flops': q(0)}
        share, roof = front.binding_roof(sgemm, ceilings)
        self.assertEqual(roof, 'fp32_fma_rate')
        self.assertAlmostEqual(share, 1e13 / 6e13)
        # 1 FLOP per 4 model bytes (nothing counted), 0.9 of B_read's slope: bound by memory
        stream = {'time': q(1e-3), 'flops': q(0.675e9), 'bytes': q(2.7e9)}
        share, roof = front.binding_roof(stream, ceilings)
        self.assertEqual(roof, 'read_bandwidth')
        self.assertAlmostEqual(share, 0.9)
        # no count of tensor work, faster than F_fp32: tensor cores
        fast = {'time': q(1e-3), 'flops': q(4e11), 'bytes': q(1e8)}
        self.assertEqual(front.binding_roof(fast, ceilings), (0.5, 'bf16_tensor_rate'))
        # no FLOPs: bytes per second over the memory roof; nothing to divide by: None
        self.assertAlmostEqual(front.binding_roof({'time': q(1e-3), 'bytes': q(1.5e9)}, ceilings)[0], 0.5)
        self.assertIsNone(front.binding_roof({'time': q(1e-3), 'bytes': q(1.5e9)}, {}))
        self.assertIsNone(front.binding_roof({'time': q(1e-3)}, ceilings))


if __name__ == '__main__':
    unittest.main()
