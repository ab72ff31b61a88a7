#!/usr/bin/python3
"""figures/roofline.py beside the reference GPU (figures/roofline_beside.py): woven for another
GPU, a chapter's roofline and the book's draw the reference's measured roofs faintly (dashed, pale,
in SVG groups named reference-<ceiling>) and its last rungs as diamonds, the legend and the SVG's
description name both GPUs; woven for the reference itself (no "reference" in the input) the figure
is byte for byte the one drawn before."""
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                'book', 'render'))
from figure_runner import run_script  # noqa: E402  (book/render/figure_runner.py)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, 'figures', 'roofline.py')
FIXTURE = os.path.join(HERE, 'fixture', 'woven', 'roofline-inputs.json')


def beside_reference(data):
    """The fixture woven for "Woven GPU" beside the reference "Reference GPU": its roofs are 1.5
    times the fixture's, and v3_sequential (marker 3) is its last rung."""
    data['gpu'] = 'Woven GPU'
    data['reference'] = {'gpu': 'Reference GPU', 'gpu_slug': 'reference-gpu',
                         'ceilings': {'copy_bandwidth': {'value': 6.15e12, 'unit': 'B/s'},
                                      'read_bandwidth': {'value': 6.5e12, 'unit': 'B/s'},
                                      'dram_theoretical': {'value': 7.2e12, 'unit': 'B/s'},
                                      'fp32_fma_rate': {'value': 9.0e13, 'unit': 'FLOP/s'},
                                      'bf16_tensor_rate': {'value': 1.08e15, 'unit': 'FLOP/s'}}}
    rung = {'number': 3, 'chapter': '3.1', 'name': 'reduce/v3_sequential@268435456', 'label': 'v3_sequential',
            'intensity': 0.25, 'placed_by': 'model_bytes', 'flop_rate': 1.3e12, 'roof': 'read_bandwidth'}
    data['chapters'][0]['reference_points'] = [rung]
    data['book_reference_points'] = [rung]
    return data


def svg(path):
    with open(path) as f:
        return f.read()


def texts(text):
    """The texts matplotlib drew (as paths), from the comment it writes beside each."""
    return re.findall(r'<!-- (.*?) -->', text)


def group(text, gid):
    """The SVG group matplotlib wrote for the artist named gid (its style included)."""
    found = re.search(r'<g id="%s">(.*?)</g>' % re.escape(gid), text, re.S)
    return found.group(1) if found else None


class BesideTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='roofline-beside-test.')
        self.addCleanup(shutil.rmtree, self.work)

    def draw(self, data, name):
        path = os.path.join(self.work, name + '.json')
        with open(path, 'w') as f:
            json.dump(data, f)
        out = os.path.join(self.work, name)
        done = run_script(SCRIPT, path, out)   # as `python3 SCRIPT PATH OUT` runs it (figure_runner.py)
        self.assertEqual(done.returncode, 0, done.stderr)
        return out

    def test_a_roofline_draws_the_references_roofs_and_last_rungs_faintly(self):
        with open(FIXTURE) as f:
            out = self.draw(beside_reference(json.load(f)), 'beside')
        for name in ('roofline-3.1.svg', 'roofline-book.svg'):
            text = svg(os.path.join(out, name))
            drawn = texts(text)
            # Both GPUs' roofs: this GPU's as before, the reference's by value, measured ones only.
            self.assertIn(r'$B_\mathrm{copy}$ 4.1 TB/s (measured)', drawn, name)
            self.assertIn(r'$B_\mathrm{copy}$ 6.15 TB/s', drawn, name)
            self.assertIn(r'$B_\mathrm{read}$ 6.5 TB/s', drawn, name)
            self.assertNotIn(r'$B_\mathrm{dram}$ 7.2 TB/s', drawn, name + ': a datasheet roof is not drawn faintly')
            # The key says which is which.
            self.assertIn('solid: Woven GPU', drawn, name)
            self.assertIn('faint: Reference GPU (reference)', drawn, name)
            self.assertIn("its last rungs, dotted to this GPU's", drawn, name)
            # The faint style: dashed and pale, under this GPU's solid roofs.
            for roof in ('copy_bandwidth', 'read_bandwidth'):
                style = group(text, 'reference-' + roof)
                self.assertIsNotNone(style, '%s: no faint %s' % (name, roof))
                self.assertIn('stroke-dasharray', style, roof)
                self.assertIn('stroke-opacity: 0.55', style, roof)
            self.assertIsNone(group(text, 'reference-dram_theoretical'), name)
            self.assertIsNotNone(group(text, 'reference-rung-1'), name + ': the last rung as a diamond')
            # The SVG's own description names both GPUs and the reference's roofs.
            described = re.search(r'<dc:description>(.*?)</dc:description>', text, re.S).group(1)
            self.assertIn('Drawn for Woven GPU; beside it, faint and dashed, the reference GPU Reference GPU: '
                          'its measured roofs B_read 6.5 TB/s, B_copy 6.15 TB/s', described)
            self.assertIn('1 last rungs as hollow diamonds', described)

    def test_the_levels_figure_draws_the_references_roofs_alone(self):
        with open(FIXTURE) as f:
            data = beside_reference(json.load(f))
        data['chapters'][0]['kernels'][0].update(dram_bytes=536870912, l2_bytes=1073741824)
        data['ceilings']['l2_bandwidth'] = 1.1e13
        data['reference']['ceilings']['l2_bandwidth'] = {'value': 1.3e13, 'unit': 'B/s'}
        out = self.draw(data, 'levels')
        text = svg(os.path.join(out, 'roofline-3.1-levels.svg'))
        drawn = texts(text)
        self.assertIn('solid: Woven GPU', drawn)
        self.assertIn('faint: Reference GPU (reference)', drawn)
        self.assertIn(r'$B_\mathrm{L2}$ 13 TB/s', drawn)
        self.assertIsNotNone(group(text, 'reference-l2_bandwidth'))
        self.assertIsNone(group(text, 'reference-rung-1'), 'the rungs are on the figure above')
        self.assertNotIn("its last rungs, dotted to this GPU's", drawn)

    def test_no_badge_covers_a_diamond(self):
        sys.path.insert(0, os.path.join(REPO, 'figures'))
        import roofline_draw
        gap = 2.6 * 8.5
        anchors = [(100.0, 100.0)]
        self.assertEqual(roofline_draw.spots(anchors, gap, (0, 0, 400, 400)), [(100.0, 100.0)], 'alone: on its point')
        moved = roofline_draw.spots(anchors, gap, (0, 0, 400, 400), avoid=[(102.0, 101.0)])
        self.assertTrue(abs(moved[0][0] - 102) >= gap / 2 or abs(moved[0][1] - 101) >= gap / 2,
                        'a diamond under the point: the badge moves aside')

    def test_woven_for_the_reference_the_figure_is_as_before(self):
        with open(FIXTURE) as f:
            plain = json.load(f)
        before = self.draw(plain, 'before')
        # What the weaver writes for the reference: no "reference", no reference points.
        same = dict(plain, gpu='Reference GPU')
        alone = self.draw(same, 'alone')
        for name in ('roofline-3.1.svg', 'roofline-book.svg'):
            text = svg(os.path.join(alone, name))
            self.assertEqual(text, svg(os.path.join(before, name)), name + ' changed with no reference')
            self.assertNotIn('id="reference-', text, name)
            self.assertFalse([t for t in texts(text) if t.startswith(('solid:', 'faint:'))], name)

    def test_the_range_holds_the_references_last_rungs(self):
        with open(FIXTURE) as f:
            data = beside_reference(json.load(f))
        far = dict(data['chapters'][0]['reference_points'][0], intensity=40.0, flop_rate=5.0e13, number=0)
        data['chapters'][0]['reference_points'].append(far)
        sys.path.insert(0, os.path.join(REPO, 'figures'))
        import roofline_beside
        import roofline_draw
        side = roofline_beside.for_figure(roofline_beside.load(data, lambda v: v['value']), '3.1')
        self.assertEqual([p['number'] for p in side['points']], [3, 0])
        points = [{'intensity': 0.25, 'rate': 8.66e11}]
        (lo_x, hi_x), (lo_y, hi_y) = roofline_draw.axis_range(points, {'copy_bandwidth': 4.1e12,
                                                                        'fp32_fma_rate': 6.0e13}, False, side)
        self.assertTrue(lo_x < 40.0 < hi_x and lo_y < 5.0e13 < hi_y)
        out = self.draw(data, 'far')
        self.assertIsNotNone(group(svg(os.path.join(out, 'roofline-3.1.svg')), 'reference-rung-2'),
                             'a last rung this GPU did not measure is drawn, unjoined')


    def test_every_figure_from_a_record_draws_the_woven_gpus_records(self):
        # The renderer runs figures/plots/*.py on the folder of the GPU the weaver wove for (its
        # roofline-inputs.json's gpu_slug), not on the reference's.
        sys.path.insert(0, os.path.join(REPO, 'book', 'render'))
        import main as render
        woven = os.path.join(self.work, 'woven')
        os.makedirs(woven)
        with open(FIXTURE) as f:
            data = beside_reference(json.load(f))
        data.update(gpu='NVIDIA H200', gpu_slug='nvidia-h200')
        data['reference'].update(gpu='NVIDIA H100 80GB HBM3', gpu_slug='nvidia-h100-80gb-hbm3')
        with open(os.path.join(woven, 'roofline-inputs.json'), 'w') as f:
            json.dump(data, f)
        self.assertEqual(render.records_dir(woven), os.path.join(REPO, 'book', 'measurements', 'nvidia-h200'))

if __name__ == '__main__':
    unittest.main()
