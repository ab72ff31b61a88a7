"""measure.py keeps what a chapter's front matter names inside the tree (tools.md L1, O10, O3,
C6): the id names the record's file (under --out), the src the binaries run (from build/), each
peer a script under src/. Rows M16-M20 and M10 of ../shared/reviews/tools.md."""
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
import measure  # noqa: E402


def front(lines):
    return '---\n' + '\n'.join(lines) + '\n---\n'


class ChapterFields(unittest.TestCase):
    def refused(self, lines, words):
        with self.assertRaisesRegex(measure.MeasureError, words):
            measure.parse_front_matter(front(lines), 'ch.md')

    def test_an_id_that_walks_out_is_refused_at_its_line(self):  # M16, M17
        self.refused(['title: "t"', 'id: "../../escaped-id"'], r'ch.md:3: front matter: id .*\(no "\.\."')
        self.refused(['id: "scratch/m/escaped-abs"'], r'ch.md:2: .*no "/"')
        self.refused(['id: "/abs"'], 'ch.md:2: ')

    def test_a_src_that_walks_out_is_refused_at_its_line(self):  # M18
        self.refused(['id: "1"', 'src: "../../outside/evil"'], r'ch.md:3: front matter: src')
        self.refused(['id: "1"', 'src: "a/b"'], r'ch.md:3: front matter: src')
        self.refused(['id: "1"', 'src: "a b"'], r'ch.md:3: front matter: src')

    def test_the_books_ids_and_folders_pass(self):
        for id_, src in [('1.1', 'warps'), ('3.2b', 'hopper'), ('A', 'bench'), ('C', 'x_y-z')]:
            fields = measure.parse_front_matter(front([f'id: "{id_}"', f'src: {src}']), 'ch.md')
            self.assertEqual((fields['id'], fields['src']), (id_, src))


class Programs(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.root = Path(self.folder.name)
        (self.root / 'build').mkdir()
        (self.root / 'outside').mkdir()

    def tearDown(self):
        self.folder.cleanup()

    def executable(self, path):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text('#!/bin/sh\n')
        path.chmod(0o755)
        return path

    def test_a_binary_is_found_in_build_only(self):  # M18
        self.executable(self.root / 'outside' / 'evil_test')
        self.assertIsNone(measure.find_binary(self.root / 'build', '../outside/evil_test'))
        own = self.executable(self.root / 'build' / 'src' / 'warps' / 'warps_test')
        self.assertEqual(measure.find_binary(self.root / 'build', 'warps_test'), own)

    def test_a_link_in_build_to_a_program_elsewhere_is_not_run(self):
        evil = self.executable(self.root / 'outside' / 'evil_test')
        os.symlink(evil, self.root / 'build' / 'evil_test')
        self.assertIsNone(measure.find_binary(self.root / 'build', 'evil_test'))

    def test_a_peer_outside_src_is_refused(self):  # M19, M20
        for script in ['/etc/passwd', '../x.py', 'src/../x.py', 'book/x.py']:
            with self.assertRaisesRegex(measure.MeasureError, 'ch.md:5: peers: .* is not a file under src/'):
                measure.measure_peers(self.root, [script], {}, 'ch.md:5')
        with self.assertRaisesRegex(measure.MeasureError, 'ch.md:5: peers: each entry is a script path'):
            measure.measure_peers(self.root, [['a']], {}, 'ch.md:5')

    def test_a_peer_linked_out_of_src_is_refused(self):  # a symlink under src/ to a file outside
        target = self.root / 'outside' / 'p.py'
        target.write_text('print(1)\n')
        (self.root / 'src' / 'a').mkdir(parents=True)
        os.symlink(target, self.root / 'src' / 'a' / 'p.py')
        with self.assertRaisesRegex(measure.MeasureError, 'is not a file under src/'):
            measure.measure_peers(self.root, ['src/a/p.py'], {}, 'ch.md:5')


class RecordFolder(unittest.TestCase):
    def test_a_gpu_name_without_letters_names_no_folder(self):  # M10, O3
        self.assertEqual(measure.gpu_slug('!!!'), '')


class RecordSet(unittest.TestCase):
    """tools.md L4 (row M25): an interrupt between two renames of write_records left a record of
    this run beside the last run's; now the ones renamed are put back."""

    def test_an_interrupt_between_renames_leaves_the_old_set(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / name for name in ('A.json', 'machine.json', '3.1.json')]
            for path in paths:
                path.write_text('{"old": true}\n')
            real_replace, calls = os.replace, []

            def interrupted(source, target):
                calls.append(target)
                if len(calls) == 2:  # after the first record is in place
                    raise KeyboardInterrupt
                real_replace(source, target)

            measure.os.replace = interrupted
            try:
                with self.assertRaises(KeyboardInterrupt):
                    measure.write_records([(path, {'new': True}) for path in paths])
            finally:
                measure.os.replace = real_replace
            for path in paths:
                self.assertEqual(path.read_text(), '{"old": true}\n', path.name)
            self.assertEqual(sorted(p.name for p in Path(folder).iterdir()),
                             ['3.1.json', 'A.json', 'machine.json'])

    def test_a_set_is_written_whole(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / 'A.json', Path(folder) / 'new.json']
            paths[0].write_text('{"old": true}\n')
            measure.write_records([(path, {'new': True}) for path in paths])
            for path in paths:
                self.assertIn('"new": true', path.read_text())
            self.assertEqual(sorted(p.name for p in Path(folder).iterdir()), ['A.json', 'new.json'])


if __name__ == '__main__':
    unittest.main()
