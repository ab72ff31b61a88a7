#!/usr/bin/python3
"""The book's outputs beside its pages, on small inputs (no render): the EPUB's passes
(book/render/epub_tree.py) and check (check_outputs.py), the downloads' README and page
(download_guide.py, downloads_page.py), the print view's page numbers (print_view.py,
print_pdf.py) and the API pages' landmarks (api_theme.py)."""
import html
import io
import os
import re
import sys
import tarfile
import tempfile
import unittest
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import api_theme  # noqa: E402
import check_outputs  # noqa: E402
import download_guide  # noqa: E402
import epub_front  # noqa: E402
import front  # noqa: E402
import downloads_page  # noqa: E402
import epub_tree  # noqa: E402
import print_pdf  # noqa: E402
import print_view  # noqa: E402


def raw(text):
    return {'t': 'RawBlock', 'c': ['html', text]}


def cell(text):
    return [['', [], []], {'t': 'AlignDefault'}, 1, 1, [{'t': 'Plain', 'c': [{'t': 'Str', 'c': text}]}]]


def table(head, rows):
    return {'t': 'Table', 'c': [['', [], []], [None, []], [], [['', [], []], [[['', [], []], [cell(h) for h in head]]]],
                                [[['', [], []], 0, [], [[['', [], []], [cell(c) for c in row]] for row in rows]]],
                                [['', [], []], []]]}


class EpubTreeTest(unittest.TestCase):
    def test_a_verdict_becomes_a_bold_paragraph_and_its_list(self):
        blocks = [raw('<details class="claim-verdict">'), raw('<summary>'),
                  {'t': 'Plain', 'c': [{'t': 'Str', 'c': 'Holds'}]}, raw('</summary>'),
                  {'t': 'BulletList', 'c': []}, raw('</details>')]
        epub_tree.verdicts_plain(blocks)
        tags = [b['c'][1] for b in blocks if b['t'] == 'RawBlock']
        self.assertEqual(tags, ['<div class="claim-verdict">', '<p class="verdict-summary"><strong>', '</strong></p>',
                                '</div>'])

    def test_only_the_boxs_cells_are_labelled_by_their_column(self):
        boxed = table(['symbol', 'this generation'], [['B', '3 TB/s']])
        outside = table(['rung', 'time'], [['v1', '1 ms']])
        blocks = [{'t': 'Div', 'c': [['', ['hwbox'], []], [boxed]]}, outside]
        epub_tree.label_box_cells(blocks)
        labels = [c[0][2] for c in boxed['c'][4][0][3][0][1]]
        self.assertEqual(labels, [[['data-label', 'symbol']], [['data-label', 'this generation']]])
        self.assertEqual(outside['c'][4][0][3][0][1][0][0][2], [], 'a table outside the box keeps its layout')

    def test_a_code_line_wrapped_hangs_under_its_own_code(self):
        code = 'int f() {\n    return a < b;\n\n\tg();\n}'
        blocks = [{'t': 'Div', 'c': [['', [], []], [{'t': 'CodeBlock', 'c': [['k1', ['cuda'], [['file', 'src/a.cu']]], code]}]]}]
        epub_tree.code_lines(blocks)
        pre = blocks[0]['c'][1][0]
        self.assertEqual(pre['t'], 'RawBlock')
        out = pre['c'][1]
        self.assertTrue(out.startswith('<pre id="k1" class="cuda" data-file="src/a.cu"><code>'), out)
        self.assertEqual(html.unescape(re.sub(r'<[^>]*>', '', out)), code, 'the text is the code as written')
        lines = re.findall(r'<span class="cl"([^>]*)>', out)
        self.assertEqual(len(lines), 5)
        # the line's indentation plus two columns: 0+2, 4+2, an empty line none, a tab (8)+2, 0+2
        for attrs, hang in zip(lines, [2, 6, 0, 10, 2]):
            if hang:
                self.assertIn('padding-left:%dch;' % hang, attrs)
                self.assertIn('text-indent:-%dch' % hang, attrs)
            else:
                self.assertEqual(attrs, '')
        self.assertIn('pre .cl { display: block; }', open(os.path.join(HERE, '..', '..', 'book', 'epub.css')).read())


def epub_file(path, chapter_xhtml, opf_metadata, front='<h1>About</h1>'):
    with zipfile.ZipFile(path, 'w') as z:
        z.writestr('mimetype', 'application/epub+zip')
        z.writestr('EPUB/content.opf', '<package><metadata>%s</metadata></package>' % opf_metadata)
        z.writestr('EPUB/text/ch001.xhtml', '<html><body><section id="chapter-index">%s</section></body></html>' % front)
        z.writestr('EPUB/text/ch002.xhtml', chapter_xhtml)


class CheckEpubTest(unittest.TestCase):
    METADATA = ''.join('<%s>x</%s>' % (t, t) for t in check_outputs.METADATA)

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix='check-epub.')

    def test_links_are_counted_and_a_broken_one_and_details_are_errors(self):
        good = ('<html><body><p id="p"><a class="xref" href="ch001.xhtml#chapter-index">about</a> '
                '<a href="#p">here</a> <a href="https://example.org/">out</a></p></body></html>')
        epub_file(os.path.join(self.dir, 'b.epub'), good, self.METADATA)
        errors = []
        self.assertEqual(check_outputs.check_epub(self.dir, errors), [('b.epub', 2, 1)])
        self.assertEqual(errors, [])
        bad = '<html><body><details><summary>x</summary></details><a href="3.1-reduction.html">x</a></body></html>'
        epub_file(os.path.join(self.dir, 'b.epub'), bad, self.METADATA.replace('dc:creator', 'dc:other'))
        check_outputs.check_epub(self.dir, errors)
        text = '\n'.join(errors)
        for expected in ('no dc:creator', '<details>', 'links to 3.1-reduction.html', 'no cross-reference'):
            self.assertIn(expected, text)

    def test_the_front_matter_speaks_of_the_book_not_the_web_page(self):
        good = '<html><body><p id="p"><a class="xref" href="ch001.xhtml#chapter-index">about</a></p></body></html>'
        epub_file(os.path.join(self.dir, 'b.epub'), good, self.METADATA,
                  front='<h1>About</h1><p>A number comes from a record (<em>hover</em> over it, or click).</p>')
        errors = []
        check_outputs.check_epub(self.dir, errors)
        self.assertEqual(len(errors), 1, errors)
        self.assertIn('front matter speaks of the web page (click, hover)', errors[0])
        # book/front.md's words for a book say none of it; the front page's keep the hover
        book, web = front.read_words(medium='book'), front.read_words()
        self.assertEqual(check_outputs.WEB_WORDS.findall(' '.join(book['intro'] + book['outcomes'])), [])
        self.assertIn('hover', ' '.join(web['intro']))
        self.assertNotIn('[[', ' '.join(web['intro'] + book['intro']))
        self.assertNotIn('hover', epub_front.markdown([], lambda c: 'x'))


def archive(path, top, readme):
    with tarfile.open(path, 'w:gz') as tar:
        data = readme.encode()
        info = tarfile.TarInfo(top + '/README.md')
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))


class DownloadsTest(unittest.TestCase):
    FILES = [('bench/timer.cuh', b''), ('hopper/hopper.cu', b''), ('hopper/hopper_test.cu', b''),
             ('hopper/hopper_bench.cu', b''), ('hopper/hopper.cmake', b'-gencode=arch=compute_90a,code=sm_90a')]

    def test_facts_are_read_from_the_files(self):
        facts = download_guide.facts({'id': '3.2b', 'src': 'hopper'}, self.FILES, '3.2b-hopper')
        self.assertEqual(facts['programs'], [('hopper_test', 'test'), ('hopper_bench', 'bench')])
        self.assertEqual(facts['sm90a'], ['hopper/hopper.cmake'])
        plain = download_guide.facts({'id': '1.2', 'src': 'waves'}, [('waves/waves.cu', b'sm_90a in a comment')], 'x')
        self.assertEqual(plain['sm90a'], [], 'a comment naming sm_90a needs no Hopper')

    def test_the_readme_and_the_page_say_the_same(self):
        chapter = {'id': '3.2b', 'src': 'hopper', 'title': 'Hopper', 'basename': '3.2b-hopper'}
        facts = download_guide.facts(chapter, self.FILES, '3.2b-hopper')
        readme = download_guide.readme(chapter, facts)
        for section in check_outputs.README_SECTIONS:
            self.assertIn(section, readme)
        self.assertIn('./build/hopper_bench', readme)
        self.assertIn('compute capability 9.0', readme)
        page = downloads_page.body([chapter], [(chapter, 'downloads/3.2b-hopper.tar.gz', 52000, facts)])
        self.assertIn('href="downloads/3.2b-hopper.tar.gz"', page)
        self.assertIn('Hopper kernels of <a href="3.2b-hopper.html">3.2b</a>', page)
        self.assertIn('make measure', page)

    def test_the_check_wants_every_archive_listed_with_a_full_readme(self):
        root = tempfile.mkdtemp(prefix='check-downloads.')
        os.makedirs(os.path.join(root, 'downloads'))
        archive(os.path.join(root, 'downloads', 'a.tar.gz'), 'a', '\n'.join(check_outputs.README_SECTIONS))
        archive(os.path.join(root, 'downloads', 'b.tar.gz'), 'b', '## Prerequisites')
        with open(os.path.join(root, 'downloads.html'), 'w') as f:
            f.write('id="prerequisites" id="build-and-run" id="numbers" <a href="downloads/a.tar.gz">')
        errors = []
        self.assertEqual(check_outputs.check_downloads(root, errors), 2)
        self.assertEqual(len(errors), 2, errors)
        self.assertIn('does not list downloads/b.tar.gz', errors[0])
        self.assertIn('downloads/b.tar.gz: its README lacks ## What is inside', errors[1])


    def test_a_chapter_links_its_entry_on_the_downloads_page_not_the_archive(self):
        self.assertEqual(downloads_page.entry_href({'id': '3.2b'}), 'downloads.html#download-3-2b')
        page = downloads_page.body([{'id': '3.2b', 'src': 'hopper', 'title': 'Hopper', 'basename': '3.2b-hopper'}],
                                   [({'id': '3.2b', 'src': 'hopper', 'title': 'Hopper', 'basename': '3.2b-hopper'},
                                     'downloads/3.2b-hopper.tar.gz', 52000,
                                     download_guide.facts({'id': '3.2b', 'src': 'hopper'}, self.FILES, 'x'))])
        self.assertIn('id="download-3-2b"', page, 'the entry the chapter links')
        root = tempfile.mkdtemp(prefix='check-downloads.')
        os.makedirs(os.path.join(root, 'downloads'))
        archive(os.path.join(root, 'downloads', 'a.tar.gz'), 'a', '\n'.join(check_outputs.README_SECTIONS))
        with open(os.path.join(root, 'downloads.html'), 'w') as f:
            f.write('id="prerequisites" id="build-and-run" id="numbers" <h3 id="download-1-1"></h3>'
                    '<a href="downloads/a.tar.gz">')
        pages = {'1.1-a.html': '<a href="downloads.html#download-1-1">', '1.2-b.html': '<a href="downloads/a.tar.gz">',
                 '1.3-c.html': '<a href="downloads.html#download-1-3">', 'index.html': '<a href="downloads/a.tar.gz">'}
        for name, text in pages.items():
            with open(os.path.join(root, name), 'w') as f:
                f.write(text)
        errors = []
        check_outputs.check_downloads(root, errors)
        self.assertEqual(len(errors), 2, errors)
        self.assertIn('1.2-b.html: links the archive downloads/a.tar.gz', errors[0])
        self.assertIn('1.3-c.html: links downloads.html#download-1-3, an entry downloads.html does not have', errors[1])


class PrintViewTest(unittest.TestCase):
    def test_page_numbers_fill_the_contents(self):
        chapters = [{'id': '3.1', 'title': 'A reduction', 'basename': '3.1-reduction'}]
        page = '<ol class="print-contents">%s</ol>' % print_view.contents(chapters, lambda c: c['basename'] + '.html')
        self.assertEqual(print_pdf.chapters_listed(page), [('3.1-reduction', '3.1 A reduction')])
        heads = ['', 'About this book', '3.1 A reduction', '3.1 A reduction']
        numbers = print_pdf.first_pages(print_pdf.chapters_listed(page), heads)
        self.assertEqual(numbers, {'3.1-reduction': 3})
        self.assertIn('<span class="page-number">3</span>', print_view.with_page_numbers(page, numbers))

    def test_the_front_matter_is_the_front_pages_words(self):
        index = ('<main id="content"><h1 class="title">Book</h1><p class="lead">Words.</p>'
                 '<h2 id="also">Also in this book</h2><ul><li><a href="print.html">print</a></li></ul></main>')
        front = print_view.front_body(index, {'index.html'})
        self.assertIn('Words.', front)
        self.assertNotIn('<h1', front)
        self.assertNotIn('Also in this book', front)
        self.assertEqual(print_view.running_head('A "b" \\ c'), '"A \\"b\\" \\\\ c"')


class ApiThemeTest(unittest.TestCase):
    def test_a_doxygen_page_gets_the_theme_and_the_landmarks(self):
        page = ('<html><head><title>x</title></head><body><div id="top"><div id="titlearea">T</div>\n'
                '</div><!-- top -->\n<div class="header"><div class="headertitle"><div class="title">f.cuh File '
                'Reference</div></div></div><div class="contents">c</div>\n<!-- start footer part -->\n'
                '<hr class="footer"/><address class="footer"><small>Doxygen</small></address></body></html>')
        themed = api_theme.page(page)
        for part in ('href="api.css"', 'href="../style.css"', "localStorage.getItem('book-theme')",
                     '<div id="top" role="banner">', '<main id="api-content">', '</main>',
                     '<h1 class="title">f.cuh File Reference</h1>', '<footer><hr class="footer"/>'):
            self.assertIn(part, themed)
        self.assertEqual(api_theme.page(themed), themed, 'themed once')


if __name__ == '__main__':
    unittest.main()
