#!/usr/bin/python3
"""figures/roofline.py: byte-identical output, drawn only when its inputs change, exit 2 on bad input;
points placed by counted DRAM bytes (model bytes as hollow markers where no count), the range
fitted to them, the levels figure only where L2 bytes were counted, with a shared-memory level from
the LSU's wavefronts and no L1 or shared point for a kernel whose traffic those counters miss."""
import importlib.util
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


def module():
    spec = importlib.util.spec_from_file_location('roofline', SCRIPT)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def with_counts(data):
    """The fixture with ncu's counts on its first two kernels (both L2 and L1 on the first)."""
    kernels = data['chapters'][0]['kernels']
    kernels[0].update(dram_bytes=536870912, l2_bytes=1073741824, l1_bytes=2147483648)
    kernels[1].update(dram_bytes=1073741824)
    data['ceilings'].update(dram_theoretical=4.8e12, read_bandwidth=4.5e12, l2_bandwidth=1.1e13)
    return data


def svg_texts(path):
    """The texts matplotlib drew (as paths), from the comment it writes beside each."""
    with open(path) as f:
        return re.findall(r'<!-- (.*?) -->', f.read())


def run(inputs, out):
    return run_script(SCRIPT, inputs, out)   # as `python3 SCRIPT INPUTS OUT` runs it (figure_runner.py)


class RooflineTest(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='roofline-test.')
        self.addCleanup(shutil.rmtree, self.work)

    def read(self, *parts):
        with open(os.path.join(self.work, *parts), 'rb') as f:
            return f.read()

    def test_draws_a_chapter_and_the_book_byte_identically(self):
        for out in ('a', 'b'):
            done = run(FIXTURE, os.path.join(self.work, out))
            self.assertEqual(done.returncode, 0, done.stderr)
        for name in ('roofline-3.1.svg', 'roofline-book.svg'):
            first = self.read('a', name)
            self.assertTrue(first.startswith(b'<?xml'), name)
            self.assertEqual(first, self.read('b', name), name + ' differs between two identical runs')
            self.assertNotIn(b'<dc:date>', first, name + ' carries a date')
        self.assertFalse(os.path.exists(os.path.join(self.work, 'a', 'roofline-A.svg')),
                         'a chapter without kernels gets no roofline')

    def test_redraws_only_when_inputs_change(self):
        out = os.path.join(self.work, 'out')
        self.assertEqual(run(FIXTURE, out).returncode, 0)
        svg = os.path.join(out, 'roofline-3.1.svg')
        before = os.stat(svg).st_mtime_ns
        again = run(FIXTURE, out)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(again.stdout, '', 'nothing should be drawn when nothing changed')
        self.assertEqual(os.stat(svg).st_mtime_ns, before)
        with open(FIXTURE) as f:
            data = json.load(f)
        data['chapters'][0]['kernels'][0]['time'] = 2.0e-3
        changed = os.path.join(self.work, 'changed.json')
        with open(changed, 'w') as f:
            json.dump(data, f)
        done = run(changed, out)
        self.assertIn('roofline-3.1.svg', done.stdout)
        self.assertIn('roofline-book.svg', done.stdout)

    def test_kernels_without_ceilings_exit_2_naming_the_input(self):
        with open(FIXTURE) as f:
            data = json.load(f)
        del data['ceilings']
        broken = os.path.join(self.work, 'no-ceilings.json')
        with open(broken, 'w') as f:
            json.dump(data, f)
        done = run(broken, os.path.join(self.work, 'out'))
        self.assertEqual(done.returncode, 2)
        self.assertIn('no-ceilings.json', done.stderr)
        self.assertIn('chapter 3.1', done.stderr)
        self.assertIn('copy_bandwidth', done.stderr)

    def write(self, data, name='inputs.json'):
        path = os.path.join(self.work, name)
        with open(path, 'w') as f:
            json.dump(data, f)
        return path

    def test_points_are_placed_by_counted_dram_bytes_else_by_model_bytes(self):
        with open(FIXTURE) as f:
            path = self.write(with_counts(json.load(f)))
        (_, _, _, _, points) = module().load(path)[0]
        # 2^28 FLOPs over 2^29 counted DRAM bytes, not over the 2^30 model bytes.
        self.assertEqual((points[0]['intensity'], points[0]['counted']), (0.5, True))
        self.assertEqual((points[1]['intensity'], points[1]['counted']), (0.25, True))
        self.assertEqual((points[2]['intensity'], points[2]['counted']), (0.25, False))
        self.assertEqual((points[0]['l2'], points[0]['l1']), (0.25, 0.125))
        self.assertEqual([p['number'] for p in points], [1, 2, 3])

    def test_the_legend_says_which_markers_are_counted_and_names_every_roof(self):
        with open(FIXTURE) as f:
            path = self.write(with_counts(json.load(f)))
        out = os.path.join(self.work, 'out')
        done = run(path, out)
        self.assertEqual(done.returncode, 0, done.stderr)
        texts = svg_texts(os.path.join(out, 'roofline-3.1.svg'))
        self.assertIn('placed by DRAM bytes counted by ncu', texts)
        self.assertIn("placed by the chapter's model bytes (no count)", texts)
        self.assertIn('FLOP per DRAM byte, ncu count (hollow: model)', texts)
        for roof in (r'$B_\mathrm{dram}$ 4.8 TB/s (theoretical)', r'$B_\mathrm{read}$ 4.5 TB/s (measured)',
                     r'$B_\mathrm{copy}$ 4.1 TB/s (measured)'):
            self.assertIn(roof, texts)
        self.assertTrue({'1', '2', '3'} <= set(texts), 'numbered markers')
        self.assertNotIn('v1_interleaved', texts, 'names are in the key table, not on the figure')

    def test_without_counts_every_marker_is_hollow_and_said_so(self):
        out = os.path.join(self.work, 'out')
        self.assertEqual(run(FIXTURE, out).returncode, 0)
        texts = svg_texts(os.path.join(out, 'roofline-3.1.svg'))
        self.assertIn("placed by the chapter's model bytes (no count)", texts)
        self.assertNotIn('placed by DRAM bytes counted by ncu', texts)
        self.assertIn('FLOP per DRAM byte, as the model predicts', texts)

    def test_the_range_holds_every_point_and_fits_them(self):
        roofline = module()
        drawing = importlib.import_module('roofline_draw')   # the drawing half, beside the script
        with open(FIXTURE) as f:
            path = self.write(with_counts(json.load(f)))
        (_, _, _, ceilings, points) = roofline.load(path)[0]
        for levels in (False, True):
            (lo_x, hi_x), (lo_y, hi_y) = drawing.axis_range(points, ceilings, levels)
            for p in points:
                for key in ('intensity', 'l2', 'l1') if levels else ('intensity',):
                    if key in p:
                        self.assertTrue(lo_x < p[key] < hi_x, (key, p))
                self.assertTrue(lo_y < p['rate'] < hi_y, p)
            self.assertLess(hi_x / lo_x, 100, 'fitted to the points, not a fixed range')

    def test_levels_figure_only_where_l2_is_counted(self):
        out = os.path.join(self.work, 'plain')
        self.assertEqual(run(FIXTURE, out).returncode, 0)
        self.assertFalse(os.path.exists(os.path.join(out, 'roofline-3.1-levels.svg')))
        self.assertFalse(os.path.exists(os.path.join(out, 'roofline-book-levels.svg')))
        with open(FIXTURE) as f:
            path = self.write(with_counts(json.load(f)))
        out = os.path.join(self.work, 'counted')
        done = run(path, out)
        self.assertEqual(done.returncode, 0, done.stderr)
        texts = svg_texts(os.path.join(out, 'roofline-3.1-levels.svg'))
        self.assertIn('FLOP per byte at each level, counted by ncu', texts)
        # B_L2 is appendix A's measured L2 bandwidth; the L1 level is global and local bytes.
        self.assertIn(r'$B_\mathrm{L2}$ 11 TB/s (measured)', texts)
        self.assertIn('per L2 byte', texts)
        self.assertIn('per global/local byte through L1', texts)
        self.assertNotIn('per L1 byte', texts)
        self.assertTrue(os.path.exists(os.path.join(out, 'roofline-book-levels.svg')))

    def test_the_shared_level_is_128_bytes_a_wavefront(self):
        with open(FIXTURE) as f:
            data = with_counts(json.load(f))
        data['chapters'][0]['kernels'][0]['shared_wavefronts'] = 2 ** 20
        data['ceilings']['shared_bandwidth'] = 3.3e13
        path = self.write(data)
        (_, _, _, _, points) = module().load(path)[0]
        self.assertEqual(points[0]['smem'], 2 ** 28 / (128 * 2 ** 20))
        out = os.path.join(self.work, 'out')
        done = run(path, out)
        self.assertEqual(done.returncode, 0, done.stderr)
        texts = svg_texts(os.path.join(out, 'roofline-3.1-levels.svg'))
        self.assertIn('per shared byte, 128 B a wavefront', texts)
        self.assertIn(r'$B_\mathrm{smem}$ 33 TB/s (L1 data path: ▲ ◆)', texts)

    def test_a_kernel_the_lsu_counters_miss_has_no_l1_or_shared_point(self):
        with open(FIXTURE) as f:
            data = with_counts(json.load(f))
        kernels = data['chapters'][0]['kernels']
        kernels[0].update(shared_wavefronts=2 ** 10, lsu_unseen_bytes=2 ** 29)
        kernels[1].update(l2_bytes=2 ** 29, l1_bytes=2 ** 29, shared_wavefronts=2 ** 10)
        path = self.write(data)
        (_, _, _, _, points) = module().load(path)[0]
        self.assertTrue(points[0]['unseen'])
        self.assertNotIn('l1', points[0])
        self.assertNotIn('smem', points[0])
        self.assertIn('l2', points[0])
        self.assertEqual((points[1]['l1'], points[1]['smem']), (2 ** 28 / 2 ** 29, 2 ** 28 / 2 ** 17))
        out = os.path.join(self.work, 'out')
        done = run(path, out)
        self.assertEqual(done.returncode, 0, done.stderr)
        texts = svg_texts(os.path.join(out, 'roofline-3.1-levels.svg'))
        self.assertIn('no ▲ ◆ for 1:', texts)
        self.assertIn('TMA, wgmma traffic the L1 counters miss', texts)

    def test_the_legend_note_groups_numbers_and_fits_the_width(self):
        module()   # puts the drawing half, beside the script, on the path
        drawing = importlib.import_module('roofline_draw')
        self.assertEqual(drawing.number_ranges([9, 4, 5, 6, 12]), ['4–6', '9', '12'])
        rows = drawing.unseen_rows(list(range(1, 60, 2)))
        self.assertGreater(len(rows), 2)
        self.assertTrue(all(len(row) <= 41 for row in rows), rows)
        self.assertEqual(drawing.unseen_rows([]), [])

    def test_large_intensities_are_written_as_powers_of_ten(self):
        module()
        drawing = importlib.import_module('roofline_draw')
        self.assertEqual([drawing.intensity_tick(v) for v in (0.25, 50, 1000)], ['0.25', '50', '1000'])
        self.assertEqual(drawing.intensity_tick(1e5), '$10^{5}$')
        self.assertEqual(drawing.intensity_tick(2e4), r'$2{\times}10^{4}$')

    def test_a_named_figure_is_drawn_and_the_book_shows_each_kernel_once(self):
        with open(FIXTURE) as f:
            data = with_counts(json.load(f))
        first = data['chapters'][0]
        # Chapter 3.1's figure "rungs": its first kernel again, and one borrowed from another chapter.
        again = dict(first['kernels'][0], number=1, in_book=False)
        borrowed = dict(first['kernels'][1], name='other/v9@1', number=2, in_book=False)
        data['chapters'].insert(1, {'id': first['id'] + '-rungs', 'chapter': first['id'], 'title': first['title'],
                                    'kernels': [again, borrowed]})
        path = self.write(data)
        roofline = module()
        chapters = roofline.load(path)
        series = roofline.book_series(chapters)
        self.assertEqual([s[0] for s in series].count(first['id']), 1, 'one series per chapter')
        shown = sum(len(s[2]) for s in series)
        self.assertEqual(shown, sum(len(c[4]) for c in chapters) - 2, 'the named figure adds nothing to the book')
        out = os.path.join(self.work, 'named')
        done = run(path, out)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, 'roofline-%s-rungs.svg' % first['id'])))
        self.assertTrue(os.path.exists(os.path.join(out, 'roofline-%s-rungs-levels.svg' % first['id'])))

    def test_the_book_key_takes_one_column_where_two_would_overlap(self):
        module()
        drawing = importlib.import_module('roofline_draw')
        short = [('3.1', [{'number': n, 'chapter': '3.1', 'label': 'v%d' % n} for n in range(1, 9)])]
        long = [('3.2b', [{'number': n, 'chapter': '3.2b', 'label': 'v5_pingpong register_reuse@536870912'}
                          for n in range(1, 9)])]
        self.assertEqual(drawing.key_columns(short), 2)
        self.assertEqual(drawing.key_columns(long), 1)

    def test_unreadable_input_exits_2(self):
        done = run(os.path.join(self.work, 'absent.json'), os.path.join(self.work, 'out'))
        self.assertEqual(done.returncode, 2)
        self.assertIn('absent.json', done.stderr)


if __name__ == '__main__':
    unittest.main()
