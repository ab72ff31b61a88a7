#!/usr/bin/python3
"""book/render/told.py and book_index.told_of: what the front page and a chapter's opening tell of
the GPU the book was woven for, from the counts the weaver writes into book.json."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import book_index  # noqa: E402
import told  # noqa: E402

H200 = {'gpu': 'NVIDIA H200', 'reference_gpu': 'NVIDIA H100 80GB HBM3', 'woven_is_reference': False,
        'list': 'gpus.html#does-not-hold'}
H100 = {'gpu': 'NVIDIA H100 80GB HBM3', 'reference_gpu': None, 'woven_is_reference': True,
        'list': 'gpus.html#does-not-hold'}


def chapter(cid, total, broken=(), unchecked=(), stale=False, book=H200):
    claims = {'total': total, 'hold': total - len(broken) - len(unchecked),
              'broken': [{'line': n, 'anchor': 'claim-%d' % n} for n in broken],
              'unchecked': [{'line': n, 'anchor': 'claim-%d' % n, 'why': 'not measured'} for n in unchecked]}
    return {'id': cid, 'title': 'T' + cid, 'basename': cid + '-x', 'stale': stale, 'claims': claims, 'book': book}


def page_name(c):
    return c['basename'] + '.html'


class OpeningTest(unittest.TestCase):
    def test_another_gpu_all_holding_names_both_gpus_and_counts(self):
        text = told.opening(chapter('1.1', 15))
        self.assertIn('On the NVIDIA H200', text)
        self.assertIn('NVIDIA H100 80GB HBM3', text)
        self.assertIn("all 15 of this chapter's claims hold", text)
        self.assertNotIn('does-not-hold', text, 'nothing to list: no link to the list')

    def test_broken_and_unchecked_are_counted_apart_and_linked(self):
        text = told.opening(chapter('3.3', 13, broken=[120, 340], unchecked=[2760]))
        self.assertIn("10 of this chapter's 13 claims hold", text)
        self.assertIn('<strong class="told-broken">2 do not hold</strong>: <a href="#claim-120">line 120</a>, <a href="#claim-340">line 340</a>', text)
        self.assertIn('1 cannot be checked, a value it rests on was never measured there: '
                      '<a href="#claim-2760">line 2760</a>', text)
        self.assertIn('<a href="gpus.html#does-not-hold">', text)

    def test_the_reference_book_where_all_holds_is_unchanged(self):
        self.assertEqual(told.opening(chapter('1.1', 15, book=H100)), '')
        self.assertEqual(told.banner([chapter('1.1', 15, book=H100), chapter('1.2', 3, book=H100)], page_name), '')

    def test_the_reference_book_tells_a_broken_claim_and_a_stale_chapter(self):
        text = told.opening(chapter('4.4', 24, broken=[99], book=H100))
        self.assertIn("23 of this chapter's 24 claims hold; <strong class=\"told-broken\">1 does not hold</strong>", text)
        self.assertNotIn('the reference GPU', text)
        self.assertIn('On the NVIDIA H100 80GB HBM3, all 20',
                      told.opening(chapter('A', 20, stale=True, book=H100)))

    def test_a_chapter_without_claims_says_nothing(self):
        self.assertEqual(told.opening(chapter('B', 0)), '')

    def test_a_gpu_name_is_text(self):
        book = dict(H200, gpu='<b>GPU</b>')
        self.assertIn('&lt;b&gt;GPU&lt;/b&gt;', told.opening(chapter('1.1', 2, book=book)))


class BannerTest(unittest.TestCase):
    def test_the_book_totals_and_its_stale_chapters(self):
        chapters = [chapter('1.1', 15), chapter('3.1', 21, stale=True), chapter('3.3', 13, unchecked=[2760], stale=True),
                    {'id': 'GPUs', 'title': 'side by side', 'basename': 'gpus', 'stale': False, 'claims': None,
                     'book': H200}]
        text = told.banner(chapters, page_name)
        self.assertIn("48 of the book's 49 claims hold", text)
        self.assertIn('none is broken, and 1 cannot be checked', text)
        self.assertIn('The records of 2 chapters are stale', text)
        self.assertIn('<a href="3.1-x.html">3.1</a>, <a href="3.3-x.html">3.3</a>', text)
        self.assertIn('href="gpus.html#does-not-hold"', text)

    def test_broken_claims_are_counted(self):
        text = told.banner([chapter('2.2', 10, broken=[5, 9]), chapter('4.4', 28, broken=[7])], page_name)
        self.assertIn("35 of the book's 38 claims hold", text)
        self.assertIn('<strong class="told-broken">3 do not hold</strong>', text)

    def test_a_lessons_mark(self):
        self.assertEqual(told.lesson_mark(chapter('1.1', 15)), '')
        self.assertIn('2 of 10 claims do not hold; 1 claim cannot be checked',
                      told.lesson_mark(chapter('2.2', 10, broken=[5, 9], unchecked=[3])))


class BookJsonTest(unittest.TestCase):
    def test_the_counts_and_the_gpus_reach_each_chapter(self):
        with tempfile.TemporaryDirectory() as woven:
            entries = [{'id': '1.1', 'title': 'W', 'basename': '1.1-w',
                        'claims': {'total': 2, 'hold': 1, 'broken': [{'line': 9, 'anchor': 'claim-9'}],
                                   'unchecked': []}},
                       {'id': 'GPUs', 'title': 'side by side', 'basename': 'gpus'}]
            for e in entries:
                with open(os.path.join(woven, e['basename'] + '.md'), 'w') as f:
                    f.write('# x\n')
            with open(os.path.join(woven, 'book.json'), 'w') as f:
                json.dump({'gpu': 'NVIDIA H200', 'reference_gpu': 'NVIDIA H100 80GB HBM3',
                           'woven_is_reference': False, 'chapters': entries}, f)
            _, chapters = book_index.read(woven, woven)
        self.assertEqual(chapters[0]['claims']['broken'][0]['anchor'], 'claim-9')
        self.assertEqual(chapters[0]['book'], H200)
        self.assertIsNone(chapters[1]['claims'])
        self.assertIn('1 does not hold</strong>: <a href="#claim-9">', told.opening(chapters[0]))


if __name__ == '__main__':
    unittest.main()
