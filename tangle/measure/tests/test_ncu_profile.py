"""Unit tests of tangle/measure/ncu_profile.py (make profile's summary) on the details page of a real
`ncu --set full` run on the H200 (fixtures/ncu/probe-full-details.csv)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / 'tangle' / 'measure'))
import ncu  # noqa: E402
import ncu_profile  # noqa: E402

DETAILS = (Path(__file__).resolve().parent / 'fixtures' / 'ncu' / 'probe-full-details.csv').read_text(encoding='utf-8')


class Details(unittest.TestCase):
    def setUp(self):
        self.kernels = ncu_profile.parse_details(DETAILS, 'details.csv')

    def test_sections_metrics_units(self):
        self.assertEqual([k['name'].split('(')[0] for k in self.kernels], ['copy4', 'smem_conflict', 'fma_loop'])
        copy = self.kernels[0]
        self.assertEqual(copy['grid'], '(1056, 1, 1)')
        sol = copy['sections']['GPU Speed Of Light Throughput']
        self.assertEqual(sol['DRAM Throughput'], {'value': 82.04, 'unit': '%'})
        self.assertEqual(sol['Elapsed Cycles'], {'value': 1066444, 'unit': 'cycle'})
        launch = copy['sections']['Launch Statistics']
        self.assertEqual(launch['Function Cache Configuration']['value'], 'CachePreferNone')
        self.assertEqual(launch['Registers Per Thread'], {'value': 16, 'unit': 'register/thread'})

    def test_rules(self):
        rules = {r['rule']: r for r in self.kernels[0]['rules']}
        self.assertEqual(rules['SOLBottleneck']['type'], 'INF')
        self.assertNotIn('speedup_percent', rules['SOLBottleneck'])
        self.assertEqual(rules['HighPipeUtilization']['speedup_percent'], 93.97)
        self.assertEqual(rules['HighPipeUtilization']['speedup_type'], 'local')
        self.assertEqual(rules['HighPipeUtilization']['section'], 'ComputeWorkloadAnalysis')

    def test_written_summary(self):
        with tempfile.TemporaryDirectory() as folder:
            text_path, json_path = ncu_profile.write_summary('reduce/v1_naive@268435456', self.kernels, folder)
            self.assertEqual(text_path.name, 'reduce_v1_naive_268435456.txt')
            text = text_path.read_text()
            saved = json.loads(json_path.read_text())
        self.assertIn('ncu --set full: reduce/v1_naive@268435456 (one timed iteration, 3 kernel(s))', text)
        self.assertIn('== kernel 1: smem_conflict(float *, int)', text)
        self.assertRegex(text, r'DRAM Throughput +82.04 %')
        self.assertRegex(text, r'\[OPT\] HighPipeUtilization \(estimated local speedup 93.97%\)')
        self.assertEqual(saved['key'], 'reduce/v1_naive@268435456')
        self.assertEqual(saved['kernels'][2]['sections']['Launch Statistics']['Grid Size']['value'], 528)

    def test_bad_input(self):
        with self.assertRaisesRegex(ncu.NcuError, 'details.csv: no ncu CSV'):
            ncu_profile.parse_details('==PROF== nothing\n', 'details.csv')
        header = DETAILS.split('\n', 1)[0]
        with self.assertRaisesRegex(ncu.NcuError, 'profiled no kernel'):
            ncu_profile.parse_details(header + '\n', 'details.csv')
        with self.assertRaisesRegex(ncu.NcuError, 'no "Section Name" column'):
            ncu_profile.parse_details(header.replace('Section Name', 'Section') + '\n', 'details.csv')


if __name__ == '__main__':
    unittest.main()
