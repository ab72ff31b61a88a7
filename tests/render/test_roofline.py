#!/usr/bin/python3
"""figures/roofline.py: byte-identical output, drawn only when its inputs change, exit 2 on bad input."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(REPO, 'figures', 'roofline.py')
FIXTURE = os.path.join(HERE, 'fixture', 'woven', 'roofline-inputs.json')


def run(inputs, out):
    return subprocess.run([sys.executable, SCRIPT, inputs, out], capture_output=True, text=True)


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

    def test_unreadable_input_exits_2(self):
        done = run(os.path.join(self.work, 'absent.json'), os.path.join(self.work, 'out'))
        self.assertEqual(done.returncode, 2)
        self.assertIn('absent.json', done.stderr)


if __name__ == '__main__':
    unittest.main()
