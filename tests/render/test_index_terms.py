#!/usr/bin/env python3
"""book/render/index_terms.py: the book's index read from its files (an error names the file and
line), checked against the pages' headings, printed as the Index page (a term's places gathered
across chapters, a "see" line for each other name), and handed to the search."""
import os
import re
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import index_terms  # noqa: E402
import search_index  # noqa: E402

CHAPTERS = [{'id': '1.1', 'basename': '1.1-warps', 'title': 'Warps'},
            {'id': '3.2', 'basename': '3.2-matmul', 'title': 'Matmul'}]
HEADINGS = {'1.1': {'': 'Warps', 'branch': 'A divergent branch, priced', 'symbols': 'The idea in symbols'},
            '3.2': {'': 'Matmul', 'barriers': 'Two barriers, <code>__syncthreads</code>'}}


class IndexTermsTest(unittest.TestCase):
    def folder(self, **files):
        folder = tempfile.mkdtemp()
        self.addCleanup(lambda: [os.unlink(os.path.join(folder, f)) for f in os.listdir(folder)] and os.rmdir(folder))
        for name, text in files.items():
            with open(os.path.join(folder, name.replace('_', '.') + '.txt'), 'w', encoding='utf-8') as f:
                f.write(text)
        return folder

    def error(self, **files):
        with self.assertRaises(index_terms.IndexTermsError) as caught:
            index_terms.read(self.folder(**files), CHAPTERS)
        return str(caught.exception)

    def test_reads_terms_names_and_anchors(self):
        entries = index_terms.read(self.folder(**{'3_2': '__syncthreads ; barrier -> #barriers\n',
                                                  '1_1': '# a comment\n\nwarp divergence ; branch divergence ; '
                                                         'divergent branch -> #branch #symbols\nwarp -> #\n'}),
                                   CHAPTERS)
        self.assertEqual([(e.term, e.others, e.chapter, e.anchors) for e in entries],
                         [('warp divergence', ['branch divergence', 'divergent branch'], '1.1', ['branch', 'symbols']),
                          ('warp', [], '1.1', ['']), ('__syncthreads', ['barrier'], '3.2', ['barriers'])],
                         'in the chapters\' order, each file\'s lines in order; # alone is the opening')
        self.assertTrue(entries[0].where.endswith('1.1.txt:3'))

    def test_a_bad_line_is_named_by_file_and_line(self):
        self.assertIn('1.1.txt:2: not an entry', self.error(**{'1_1': 'warp -> #\nwarp divergence #branch\n'}))
        self.assertIn('1.1.txt:1: #Branch is not an anchor', self.error(**{'1_1': 'warp -> #x #Branch\n'}))
        self.assertIn('1.1.txt:1: an empty name', self.error(**{'1_1': 'warp ; -> #\n'}))
        self.assertIn('1.1.txt:1: a name twice', self.error(**{'1_1': 'warp ; Warp -> #\n'}))
        self.assertIn("no chapter has the id '9.9'", self.error(**{'9_9': 'warp -> #\n'}))

    def test_an_anchor_that_is_no_heading_fails_with_a_suggestion(self):
        entries = index_terms.read(self.folder(**{'1_1': 'warp -> #\nwarp divergence -> #branch-priced\n'}), CHAPTERS)
        with self.assertRaises(index_terms.IndexTermsError) as caught:
            index_terms.check(entries, {'1.1': {'': 'Warps', 'a-divergent-branch-priced': 'A divergent branch'}})
        self.assertIn('1.1.txt:2: chapter 1.1 has no heading #branch-priced; did you mean #a-divergent-branch-priced?',
                      str(caught.exception))

    def test_the_page_gathers_a_terms_places_and_points_other_names_to_it(self):
        entries = index_terms.read(self.folder(**{
            '1_1': 'warp divergence ; branch divergence -> #branch\nbarrier ; warp divergence -> #symbols\n',
            '3_2': '__syncthreads ; barrier ; block barrier -> #barriers\nwarp divergence -> #\n2D tiles -> #\n'}),
            CHAPTERS)
        page = index_terms.body(entries, CHAPTERS, HEADINGS)
        line = next(l for l in page.split('\n') if 'id="term-warp-divergence"' in l)
        self.assertIn('href="1.1-warps.html#branch" class="index-first">1.1 <span class="index-section">A divergent branch, priced', line,
                      'the first place, where the book teaches it, marked')
        self.assertIn('href="3.2-matmul.html">3.2 <span class="index-section">Matmul', line)
        self.assertLess(line.index('1.1-warps.html'), line.index('3.2-matmul.html'), 'places in book order')
        self.assertIn('branch divergence</span>, <em>see</em> <a href="#term-warp-divergence">', page)
        self.assertIn('block barrier</span>, <em>see</em> <a href="#term-syncthreads">__syncthreads</a>', page)
        self.assertNotIn('barrier</span>, <em>see</em>', page.replace('block barrier</span>', ''),
                         'an other name that is also a term gets no see line')
        self.assertIn('<code>__syncthreads</code>', page, "a heading's code stays code")
        letters = [part.split('"')[0] for part in page.split('<h2 id="letter-')[1:]]
        self.assertEqual(letters, ['b', 's', 'w', 'symbols'], '__syncthreads under S, digits last')

    def test_two_terms_that_slug_alike_get_two_ids(self):
        entries = index_terms.read(self.folder(**{'1_1': 'issue_active -> #branch\nissue active ; slots -> #symbols\n'}),
                                   CHAPTERS)
        page = index_terms.body(entries, CHAPTERS, HEADINGS)
        self.assertEqual(sorted(re.findall(r' id="(term-[^"]*)"', page)), ['term-issue-active', 'term-issue-active-2'])
        spaced = re.search(r'<li id="(term-[^"]*)"><span class="index-term">issue active</span>', page).group(1)
        self.assertIn('slots</span>, <em>see</em> <a href="#%s">issue active</a>' % spaced, page)
        markdown = index_terms.markdown(entries, CHAPTERS, '')
        self.assertEqual(sorted(re.findall(r'\{#(term-[^}]*)\}', markdown)), ['term-issue-active', 'term-issue-active-2'])

    def test_the_search_gets_each_sections_names_first_places_apart(self):
        entries = index_terms.read(self.folder(**{
            '1_1': 'warp divergence ; branch divergence -> #branch #\n',
            '3_2': 'warp divergence ; divergent warps -> #barriers\nwarp divergence, in a tile -> #\n'
                   '__syncthreads ; warp divergence -> #barriers\n'}), CHAPTERS)
        self.assertEqual(index_terms.by_section(entries, CHAPTERS), {
            '1.1-warps.html#branch': (['warp divergence', 'branch divergence'], []),
            '1.1-warps.html#': ([], ['warp divergence', 'branch divergence']),
            '3.2-matmul.html#barriers': (['__syncthreads', 'divergent warps'], ['warp divergence']),
            '3.2-matmul.html#': (['warp divergence, in a tile'], [])},
            'a term\'s first place is its earliest chapter\'s first anchor; an inverted entry is a term of its own')
        sections = [{'p': '1.1-warps.html', 'a': 'branch'}, {'p': '3.2-matmul.html', 'a': 'barriers'},
                    {'p': '1.1-warps.html', 'a': 'other'}]
        search_index.indexed(sections, CHAPTERS, self.folder(**{'1_1': 'warp divergence -> #branch\n',
                                                                '3_2': 'warp divergence -> #barriers\n'}))
        self.assertEqual(sections, [{'p': '1.1-warps.html', 'a': 'branch', 'i': 'warp divergence'},
                                    {'p': '3.2-matmul.html', 'a': 'barriers', 'j': 'warp divergence'},
                                    {'p': '1.1-warps.html', 'a': 'other'}])

    def test_a_readers_question_goes_to_the_search_never_to_the_page(self):
        entries = index_terms.read(self.folder(**{'1_1': 'warp -> #\n? why is my if; else slow -> #branch #symbols\n'}),
                                   CHAPTERS)
        self.assertEqual([(e.term, e.question) for e in entries], [('warp', False), ('why is my if; else slow', True)],
                         'a question is one text, semicolons and all')
        self.assertEqual(index_terms.questions(entries, CHAPTERS),
                         {'1.1-warps.html#branch': ['why is my if; else slow'],
                          '1.1-warps.html#symbols': ['why is my if; else slow']})
        page = index_terms.body(entries, CHAPTERS, HEADINGS)
        self.assertNotIn('slow', page)
        self.assertNotIn('slow', index_terms.markdown(entries, CHAPTERS, ''))
        self.assertEqual(index_terms.by_section(entries, CHAPTERS), {'1.1-warps.html#': (['warp'], [])})
        with self.assertRaises(index_terms.IndexTermsError) as caught:
            index_terms.check(entries, {'1.1': {'': 'Warps', 'branch': 'A branch'}})
        self.assertIn('1.1.txt:2: chapter 1.1 has no heading #symbols', str(caught.exception))
        sections = [{'p': '1.1-warps.html', 'a': 'branch'}, {'p': '1.1-warps.html', 'a': ''}]
        search_index.indexed(sections, CHAPTERS, self.folder(**{'1_1': 'warp -> #\n? why is my if slow -> #branch\n'}))
        self.assertEqual(sections, [{'p': '1.1-warps.html', 'a': 'branch', 'q': 'why is my if slow'},
                                    {'p': '1.1-warps.html', 'a': '', 'i': 'warp'}])

    def test_page_headings_reads_ids_and_the_title(self):
        folder = self.folder()
        path = os.path.join(folder, 'p.html')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('<h1 class="title"><span class="chapter-id">1.1</span> Warps</h1>\n<h2 class="x" id="a">A '
                    '<code>b</code><a class="self-link" href="#a"></a></h2><h3 id="c">C</h3>')
        self.assertEqual(index_terms.page_headings(path), {'': 'Warps', 'a': 'A <code>b</code>', 'c': 'C'})


if __name__ == '__main__':
    unittest.main()
