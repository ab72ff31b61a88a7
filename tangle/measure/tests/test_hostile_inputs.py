"""measure.py under the bad inputs of tools.md's measure.py section: a reserved chapter id (MS07),
a GPU name of the wrong type, length or characters (MS08, MS09), a records folder that cannot be
written (MS14, MS15), a chapter that is not a regular file (MS16), GoogleTest JSON of the wrong
shape (MS17), and an interrupt just after a rename of the record set (M25)."""
import errno
import json
import os
import sys
import tempfile
import threading
import unittest
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / 'tangle' / 'measure'))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import measure  # noqa: E402
from test_children import Book  # noqa: E402


class ReservedIds(unittest.TestCase):
    """MS07: a chapter whose record would be machine.json is refused at its id's line."""

    def test_machine_is_refused_at_its_line(self):
        for chapter_id in ('machine', 'Machine', 'MACHINE'):
            with self.subTest(chapter_id), self.assertRaisesRegex(
                    measure.MeasureError, rf"^ch.md:3: front matter: id '{chapter_id}' is reserved"):
                measure.parse_front_matter(f'---\ntitle: "t"\nid: "{chapter_id}"\nsrc: x\n---\n',
                                           'ch.md')

    def test_ids_that_merely_contain_it_pass(self):
        for chapter_id in ('machine2', 'A', 'machines', 'x.machine'):
            fields = measure.parse_front_matter(f'---\nid: "{chapter_id}"\n---\n', 'ch.md')
            self.assertEqual(fields['id'], chapter_id)


class GpuNames(unittest.TestCase):
    """MS08, MS09: the GPU name is a string of at most NAME_MAX characters in plain words."""

    def test_a_name_of_the_wrong_type_or_length_or_with_markup_is_refused(self):
        for gpu, words in [(5, r'the GPU name \(context.gpu.*\) is 5: a GPU is named by a string'),
                           (['NVIDIA H200'], r'the GPU name \(context.gpu.*\) is \["NVIDIA H200"\]'),
                           ('N' * 310, r'the GPU name .* is "NNNN.*at most 100 characters'),
                           ('NVIDIA H200\n<script>', r'context.gpu is "NVIDIA H200\\n<script>", which '
                                                     r'holds "\\n", a character Markdown or HTML')]:
            with self.subTest(gpu=str(gpu)[:20]), tempfile.TemporaryDirectory() as folder:
                book = Book(folder, [('fk/a', 'ok')], context={'gpu': gpu})
                code, said = book.measure()
                self.assertEqual(code, 1, said)
                self.assertRegex(said, 'measure: error: chapters/9.9-fake.md: ' + words)
                self.assertNotIn('Traceback', said)
                self.assertFalse(book.out.exists())

    def test_a_version_with_markup_is_refused(self):
        with self.assertRaisesRegex(measure.MeasureError, r'x.md: context.runtime is "13<b>", which '
                                    'holds "<"'):
            measure.check_printed_words({'gpu': 'NVIDIA H200', 'runtime': '13<b>'}, 'x.md')
        measure.check_printed_words({'gpu': 'NVIDIA H100 80GB HBM3', 'runtime': '13.0',
                                     'driver': '580.159.04', 'nvcc': '13.0.88'}, 'x.md')

    def test_a_slug_too_long_is_refused(self):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok')])
            code, said = book.measure('--gpu-slug', 'nvidia-h200-' + 'x' * 300)
            self.assertEqual(code, 1)
            self.assertIn('at most 100 characters', said)
            self.assertFalse(book.out.exists())


class UnwritableRecords(unittest.TestCase):
    """MS14, MS15: a full disk or an unwritable --out is one line naming the folder."""

    def test_a_full_disk(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / 'A.json', Path(folder) / 'machine.json']
            paths[0].write_text('{"old": true}\n')
            full = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            with mock.patch.object(measure.os, 'fsync', side_effect=full), \
                    self.assertRaisesRegex(measure.MeasureError,
                                           rf'^{folder}: cannot write the records \(No space left on '
                                           r'device\); nothing was replaced$'):
                measure.write_records([(path, {'new': True}) for path in paths])
            self.assertEqual(paths[0].read_text(), '{"old": true}\n')
            self.assertEqual([p.name for p in Path(folder).iterdir()], ['A.json'])

    def test_an_out_that_is_not_a_folder(self):
        with tempfile.TemporaryDirectory() as folder:
            book = Book(folder, [('fk/a', 'ok')])
            book.out.write_text('a file, not a folder\n')
            book.out = book.out / 'records'
            code, said = book.measure()
            self.assertEqual(code, 1)
            self.assertIn(f'measure: error: {book.out}/nvidia-h200: cannot write the records (', said)
            self.assertIn('); nothing was replaced', said)
            self.assertNotIn('Traceback', said)


class ChapterFiles(unittest.TestCase):
    """MS16: a chapter that is a FIFO (or any file that is not regular) is refused, not read."""

    def test_a_fifo_is_refused_at_once(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / 'book').mkdir()
            (root / 'chapters').mkdir()
            (root / 'book' / 'chapters.txt').write_text('chapters/1.1-w.md\n')
            os.mkfifo(root / 'chapters' / '1.1-w.md')
            outcome = []

            def select():
                try:
                    measure.select_chapters(root)
                except measure.MeasureError as error:
                    outcome.append(str(error))

            reader = threading.Thread(target=select, daemon=True)
            reader.start()
            reader.join(20)
            self.assertFalse(reader.is_alive(), 'select_chapters blocked on the FIFO')
            self.assertEqual(len(outcome), 1)
            self.assertRegex(outcome[0], r'chapters.txt: lists chapters/1.1-w.md, which is not a '
                             'regular file')

    def test_a_folder_and_bytes_that_are_not_utf8(self):
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder)
            (root / 'book').mkdir()
            (root / 'chapters' / 'dir.md').mkdir(parents=True)
            (root / 'book' / 'chapters.txt').write_text('chapters/dir.md\n')
            with self.assertRaisesRegex(measure.MeasureError, 'chapters/dir.md, which'):
                measure.select_chapters(root)
            (root / 'chapters' / 'x.md').write_bytes(b'---\nid: "\xff"\n---\n')
            (root / 'book' / 'chapters.txt').write_text('chapters/x.md\n')
            with self.assertRaisesRegex(measure.MeasureError, r'chapters/x.md: byte 9 is not UTF-8'):
                measure.select_chapters(root)


class GoogleTestShapes(unittest.TestCase):
    """MS17: GoogleTest JSON of the wrong shape is a MeasureError, never a traceback."""

    def test_wrong_shapes(self):
        for data in ({'testsuites': 'x'}, [1], {'testsuites': [1]},
                     {'testsuites': [{'testsuite': 'abc'}]}, {'testsuites': [{'testsuite': [1]}]}):
            with self.subTest(data), self.assertRaisesRegex(measure.MeasureError,
                                                            '^t.json: not GoogleTest JSON'):
                measure.count_tests(data, 't.json')

    def test_the_right_shape(self):
        data = {'testsuites': [{'name': 'S', 'testsuite': [{'name': 'a', 'status': 'RUN'}]}]}
        self.assertEqual(measure.count_tests(data, 't.json'),
                         ({'passed': 1, 'failed': 0, 'skipped': 0}, []))


class InterruptAfterARename(unittest.TestCase):
    """M25: an interrupt landing just after os.replace returned, before write_records could note
    it, still puts every old record back."""

    def test_the_renamed_record_is_put_back(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / name for name in ('A.json', 'machine.json', '3.1.json')]
            for path in paths[:2]:
                path.write_text('{"old": true}\n')
            real_replace, calls = os.replace, []

            def replace_then_interrupt(source, target):
                real_replace(source, target)
                calls.append(target)
                if len(calls) == 1:  # the first rename is done; the interrupt lands before the mark
                    raise KeyboardInterrupt

            with mock.patch.object(measure.os, 'replace', side_effect=replace_then_interrupt), \
                    self.assertRaises(KeyboardInterrupt):
                measure.write_records([(path, {'new': True}) for path in paths])
            for path in paths[:2]:
                self.assertEqual(path.read_text(), '{"old": true}\n', path.name)
            self.assertEqual(sorted(p.name for p in Path(folder).iterdir()), ['A.json', 'machine.json'])

    def test_a_new_record_renamed_is_removed(self):
        with tempfile.TemporaryDirectory() as folder:
            paths = [Path(folder) / name for name in ('new.json', 'A.json')]
            paths[1].write_text('{"old": true}\n')
            real_replace = os.replace

            def replace_then_interrupt(source, target):
                real_replace(source, target)
                raise KeyboardInterrupt

            with mock.patch.object(measure.os, 'replace', side_effect=replace_then_interrupt), \
                    self.assertRaises(KeyboardInterrupt):
                measure.write_records([(path, {'new': True}) for path in paths])
            self.assertEqual(sorted(p.name for p in Path(folder).iterdir()), ['A.json'])
            self.assertEqual(json.loads(paths[1].read_text()), {'old': True})


if __name__ == '__main__':
    unittest.main()
