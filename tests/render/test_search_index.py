#!/usr/bin/python3
"""The search index (book/render/search_index.py): what the book's cross-references call the
section they point to is indexed with that section (r), and its inline formulas are kept for the
excerpts (m), from pages of the constructs it reads, without a render."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import search_index  # noqa: E402

PAGE = """<!DOCTYPE html><html><body><main>
<h1 id="">2.3 Reuse</h1>
<p>The bytes in flight of <a href="1.3-occupancy.html" class="xref">lesson 1.3</a> set the bandwidth of every read.</p>
<h2 id="rows">Rows</h2>
<p>By Little’s law (<a href="1.3-occupancy.html#the-idea-in-symbols" class="xref">lesson 1.3</a>) a block alone reads little.</p>
<p>It merges as <a href="3.3-fusion.html#rung-2-online-two-reads" class="xref">chapter 3.3</a>’s online softmax does, row by row.</p>
<p>The ceiling was measured (<a href="A-bench.html" class="xref">appendix A</a> says how) on this GPU.</p>
<p>A plain link to <a href="https://example.com/" class="xref">a site</a> is no cross-reference at all.</p>
</main></body></html>"""


class ReferredAs(unittest.TestCase):
    def test_a_possessive_names_what_it_points_to(self):
        self.assertEqual(search_index.referred_as('as ', '’s online softmax does, row by row.'), 'online softmax does')

    def test_the_words_before_a_parenthesis_or_of_name_it(self):
        self.assertEqual(search_index.referred_as('By Little’s law (', ') a block'), 'By Little’s law')
        self.assertEqual(search_index.referred_as('The bytes in flight of ', ' set'), 'bytes in flight')

    def test_a_reference_that_only_says_where_names_nothing(self):
        self.assertEqual(search_index.referred_as('see ', ' for more'), '')
        self.assertEqual(search_index.referred_as('as ', ' says'), '')


def page_file(test, html):
    """A page of html in a file of its own, removed when the test ends."""
    fd, page = tempfile.mkstemp(suffix='.html')
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        f.write(html)
    test.addCleanup(os.remove, page)
    return page


class AnchorText(unittest.TestCase):
    def setUp(self):
        self.page = page_file(self, PAGE)

    def test_a_section_lists_the_sections_it_points_to_and_what_it_calls_them(self):
        sections = search_index.page_entries(self.page, '2.3-reuse.html', '2.3 Reuse')
        self.assertEqual(sections[0]['o'], [['1.3-occupancy.html#', 'bytes in flight']])
        self.assertEqual(sections[1]['o'][:2], [['1.3-occupancy.html#the-idea-in-symbols', 'By Little’s law'],
                                                ['3.3-fusion.html#rung-2-online-two-reads', 'online softmax does']])
        self.assertNotIn('example.com', str(sections), 'a link out of the book is no cross-reference')

    def test_the_index_gives_each_target_what_the_references_call_it(self):
        sections = search_index.page_entries(self.page, '2.3-reuse.html', '2.3 Reuse')
        targets = [{'p': '1.3-occupancy.html', 'a': ''}, {'p': '1.3-occupancy.html', 'a': 'the-idea-in-symbols'}]
        search_index.referred(sections + targets)
        self.assertEqual(targets[0]['r'], 'bytes in flight')
        self.assertEqual(targets[1]['r'], 'By Little’s law')
        self.assertNotIn('o', sections[0], 'the references are read once, not shipped')


MATH = """<!DOCTYPE html><html><body><main>
<h2 id="the-idea-in-symbols">The idea in symbols</h2>
<p>A block of <math display="inline"><semantics><mi>T</mi><annotation encoding="application/x-tex">T</annotation></semantics></math> threads is <math display="inline"><semantics><mrow></mrow><annotation encoding="application/x-tex">\\lceil T/32 \\rceil</annotation></semantics></math> warps on an SM.</p>
<p>It counted 7.02×10<sup>7</sup> wavefronts, at most</p>
<p><math display="block"><semantics><mi>N</mi><annotation encoding="application/x-tex">N_{\\text{wf}}</annotation></semantics></math></p>
<p><math display="inline"><semantics><mi>B</mi><annotation encoding="application/x-tex">B_{\\text{dram}}</annotation></semantics></math></p>
<p>The bound: <math display="block"><semantics><mi>W</mi><annotation encoding="application/x-tex">W = \\sum_w I_w</annotation></semantics></math> counts every warp once, and <math display="inline"><semantics><mi>s</mi><annotation encoding="application/x-tex">s\\,f_{\\text{SM}}</annotation></semantics></math> is the rate.</p>
</main></body></html>"""


class Formulas(unittest.TestCase):
    """A formula stays in the prose as a character no word holds, its display form in m, so a
    result's excerpt reads "a block of T threads", not "a block of threads", and 10^7, not 107."""

    def setUp(self):
        self.page = page_file(self, MATH)

    def test_a_formula_s_display_form(self):
        shown = search_index.tex_display
        self.assertEqual(shown('N_{\\text{SM}}'), 'N_SM')
        self.assertEqual(shown('\\lceil G/256 \\rceil \\le 1 + G/256'), '⌈ G/256 ⌉ ≤ 1 + G/256')
        self.assertEqual(shown('\\frac{a}{bc}'), 'a/(bc)')
        self.assertEqual(shown('\\gamma_d'), 'γ_d')
        self.assertEqual(shown('\\mathcal{O}(n)'), '…', 'a command it does not know')
        self.assertEqual(shown('x' * 41), '…', 'too long to show')

    def test_formulas_and_exponents_keep_their_places(self):
        section = search_index.page_entries(self.page, '1.1-warps.html', '1.1 Warps')[0]
        F = search_index.FORMULA
        self.assertEqual(section['f'], 'A block of %s threads is %s warps on an SM.' % (F, F))
        self.assertEqual(section['t'], 'It counted 7.02×10%s7 wavefronts, at most %s %s\nThe bound: %s counts every '
                                       'warp once, and %s is the rate.' % (F, F, F, F, F))
        self.assertEqual(section['m'], ['T', '⌈ T/32 ⌉', '^', 'N_wf', 'B_dram', 'W = Σ_w I_w', 's f_SM'],
                         'a formula set apart in a paragraph of its own ends the one before it')
        self.assertIn('B_dram', section['x'], 'a formula alone in a paragraph is searched as a formula')

    def test_the_search_reads_the_same_words(self):
        section = search_index.page_entries(self.page, '1.1-warps.html', '1.1 Warps')[0]
        words = lambda text: text.replace(search_index.FORMULA, ' ').split()
        self.assertEqual(words(section['f']), 'A block of threads is warps on an SM.'.split())


class Vocabulary(unittest.TestCase):
    def test_every_line_is_a_term_and_the_book_s_words_and_comments_stay_out(self):
        lines = search_index.vocabulary()
        self.assertGreater(len(lines), 50)
        for line in lines:
            self.assertNotIn('#', line)
            if '->' in line:
                term, words = line.split('->')
                self.assertTrue(term.strip() and all(w.strip() for w in words.split(',')), line)
            else:
                self.assertIn('=', line)
                self.assertTrue(all(w.strip() for w in line.split('=')), line)

    def test_the_index_ships_it(self):
        with tempfile.TemporaryDirectory() as out:
            os.makedirs(os.path.join(out, search_index.FRAGMENTS))
            with open(os.path.join(out, search_index.FRAGMENTS, 'x.json'), 'w') as f:
                f.write('[]')
            search_index.write_index(out, [{'id': 'x', 'basename': 'x'}], os.path.join(out, 'no-index'))
            with open(os.path.join(out, 'search-index.js'), encoding='utf-8') as f:
                self.assertIn('"vocabulary":["simt -> warp",', f.read())


if __name__ == '__main__':
    unittest.main()
