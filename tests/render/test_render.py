#!/usr/bin/python3
"""book/render.sh and book/check-rendered.sh on the fixture (fixture/woven, fixture/src), in a
temporary folder outside the repository. Classes are run as separate ctest tests:
  RenderTest       pages, code blocks, copy text, search, downloads, API links, incremental runs
  CheckTest        check-rendered passes on the fixture and catches each kind of damage
  ScreenshotTest   what only a picture shows: a blank page and a clipped formula are caught
                   (check-rendered's screenshots; BrowserCheckTest shows the fixture passes them)
  PhoneTest        check-rendered's phone layout (390 and 320 px): what is wider scrolls in its own
                   frame; a page too wide, hiding its overflow, without its search field or with
                   its title below the first screen is caught, and so is a search field too narrow
                   to type in (BrowserCheckTest shows every page of the fixture fits)
  SearchTest       a broken search library is caught (BrowserCheckTest shows that search from
                   file:// URLs lists results and marks them on arrival); ← → open the next
                   chapter but not while typing
  AxeTest          axe-core's contrast check catches a failure in its own theme and page, both
                   themes checked in one Chromium, a code block of a colour of its own kept
  BrowserCheckTest the whole check-rendered, every check in Chromium included, passes on the fixture
  DownloadTest     a chapter's download unpacks and builds with cmake + nvcc (77 without nvcc)
  ReaderTest       search documents and the vendored library, folded apparatus, chapter and chunk
                   links, the theme switch, the print view, the front page
  ReproducibleTest the EPUB is byte-identical between two renders in two folders
The Chromium classes skip where Chromium is absent (ctest: exit 77).

The fixture book is rendered once (render_fixture.py; ctest runs it as the fixture `render_book`
and names its folder in $RENDERED_FIXTURE); each class copies it, and each test copies that again.
Run on its own (python3 tests/render/test_render.py RenderTest), a class renders the fixture itself."""
import contextlib
import html.parser
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import unittest
import zipfile

import render_fixture

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                                'book', 'render'))
import check_rendered  # noqa: E402  (book/render/check_rendered.py: the checks the Chromium tests call)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(HERE, 'fixture')
RENDER = os.path.join(REPO, 'book', 'render.sh')
CHECK = os.path.join(REPO, 'book', 'check-rendered.sh')
CHAPTERS = os.path.join(FIXTURE, 'chapters.txt')
INDEX_TERMS = os.path.join(FIXTURE, 'index-terms')    # the fixture book's index (book/index-terms/README.md)
SKIP = 77
EPUBCHECK_JAR = '/usr/share/java/epubcheck.jar'   # Debian's; check_rendered.py runs it


def render(out, woven, src=os.path.join(FIXTURE, 'src')):
    return subprocess.run([RENDER, out, woven, '--src', src, '--index-terms', INDEX_TERMS], capture_output=True, text=True)


def check(out, *extra, epubcheck=False):
    """check-rendered on out; epubcheck (a Java start: seconds) only where a test asks for it."""
    return subprocess.run([CHECK, out, '--chapters', CHAPTERS] + list(extra) + ([] if epubcheck else ['--no-epubcheck']),
                          capture_output=True, text=True)


def epub_members(path):
    with zipfile.ZipFile(path) as z:
        return {name: z.read(name) for name in z.namelist()}


class Workspace(unittest.TestCase):
    """A copy of the fixture's woven folder and its rendered book, in a fresh temporary folder.
    The book is rendered once (render_fixture.rendered_fixture) and copied for each test (copies keep the
    digests, so a test's own render is incremental, as in real use)."""

    @classmethod
    def setUpClass(cls):
        cls.rendered, cls.made_here = render_fixture.rendered_fixture()
        cls.woven_master = os.path.join(cls.rendered, 'woven')

    @classmethod
    def tearDownClass(cls):
        if cls.made_here:
            shutil.rmtree(cls.rendered, ignore_errors=True)

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='render-test.')
        self.addCleanup(shutil.rmtree, self.work)
        self.woven = os.path.join(self.work, 'woven')
        self.out = os.path.join(self.work, 'book')
        shutil.copytree(self.woven_master, self.woven)
        shutil.copytree(os.path.join(self.rendered, 'book'), self.out, symlinks=True)

    def read(self, *parts):
        with open(os.path.join(self.out, *parts), encoding='utf-8') as f:
            return f.read()

    def damage(self, name, old, new):
        path = os.path.join(self.out, name)
        with open(path, encoding='utf-8') as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text.replace(old, new, 1))


class CodeText(html.parser.HTMLParser):
    """The textContent of every <pre><code>, as book.js copies it."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.depth = [], 0

    def handle_starttag(self, tag, attrs):
        if tag == 'code' and self.lasttag_pre:
            self.depth += 1
            self.blocks.append('')
        self.lasttag_pre = tag == 'pre'

    lasttag_pre = False

    def handle_endtag(self, tag):
        if tag == 'code' and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.blocks[-1] += data


def fenced_blocks(markdown):
    return [m.group(1) for m in re.finditer(r'^```[^\n]*\n(.*?)\n```$', markdown, re.S | re.M)]


class RenderTest(Workspace):
    def test_every_chapter_has_a_page_with_navigation_toc_and_math(self):
        page = self.read('3.1-reduction.html')
        self.assertIn('href="A-bench.html"', page)          # next
        self.assertIn('id="toc"', page)
        self.assertIn('<math', page)
        self.assertEqual(page.count('<h1'), 1, 'the chapter title is printed once')
        self.assertIn('href="3.1-reduction.html"', self.read('A-bench.html'))   # previous
        index = self.read('index.html')
        for name in ('3.1-reduction.html', 'A-bench.html', 'kernels-and-the-machine.epub'):
            self.assertIn('href="%s"' % name, index)

    def test_the_index_is_a_page_a_last_chapter_and_the_searchs(self):
        # the fixture's book/index-terms/ (fixture/index-terms/): a term in two chapters, other names
        page = self.read('index-of-terms.html')
        self.assertIn('<li id="term-reduction"><span class="index-term">reduction</span> '
                      '<a href="3.1-reduction.html" class="index-first">3.1 <span class="index-section">', page)
        self.assertIn('<a href="A-bench.html#the-timer">A <span class="index-section">The timer</span></a>', page)
        self.assertIn('parallel reduction</span>, <em>see</em> <a href="#term-reduction">reduction</a>', page)
        self.assertIn('href="index-of-terms.html"', self.read('index.html'))
        self.assertIn('href="index-of-terms.html"', self.read('3.1-reduction.html'), 'the book list links it')
        self.assertIn('href="#3.1-reduction--the-first-version"', self.read('print.html'), 'the print view\'s, linked inside')
        members = epub_members(os.path.join(self.out, 'kernels-and-the-machine.epub'))
        last = members['EPUB/text/ch004.xhtml'].decode()
        self.assertIn('id="chapter-index-of-terms"', last)
        self.assertIn('href="ch003.xhtml#the-timer"', last, "the EPUB's Index links inside the EPUB")
        index = self.read('search-index.js')
        self.assertIn('"i":"tree reduction\\npairwise sum"', index, 'a section is searched by its entries\' names')
        self.assertIn('"j":"reduction"', index, "a later chapter's place of a term, apart")

    def test_the_epub_holds_what_epubcheck_asks_for(self):
        members = epub_members(os.path.join(self.out, 'kernels-and-the-machine.epub'))
        svgs = [n for n in members if n.endswith('.svg') and 'cover' not in n]
        self.assertTrue(svgs, "the fixture's figure is in the EPUB")
        for name in svgs:
            self.assertNotIn(b'<!DOCTYPE', members[name], name + ' keeps its DOCTYPE')
            self.assertIsNone(re.search(rb'<path(\s+(?!d=)[\w:-]+="[^"]*")*\s*/>', members[name]),
                              name + ' has a <path> without d')
        # ch001 is the front matter (book/render/epub_front.py), then the chapters in order
        front = members['EPUB/text/ch001.xhtml'].decode()
        self.assertIn('id="chapter-index"', front)
        self.assertIn('href="ch002.xhtml#chapter-3-1-reduction"', front, 'a module lists its lessons, linked')
        chapter = members['EPUB/text/ch002.xhtml'].decode()
        self.assertNotIn('A-bench.html', chapter, "a link to a chapter's page is left")
        self.assertIn('href="ch003.xhtml#the-timer"', chapter)            # a heading of the next chapter
        self.assertIn('href="ch003.xhtml#chapter-A-bench"', chapter)      # the chapter itself
        self.assertIn('class="xref"', chapter, 'a mention of a chapter in the prose is a link, as on its page')
        self.assertNotIn('<details', chapter, 'verdicts are plain for readers without <details>')
        opf = members['EPUB/content.opf'].decode()
        for tag in ('dc:creator', 'dc:date', 'dc:language', 'dc:identifier', 'dc:description'):
            self.assertIn('<' + tag, opf)
        self.assertIn('properties="cover-image"', members['EPUB/content.opf'].decode())

    def test_a_nav_with_maths_is_declared_and_one_without_is_not(self):
        sys.path.insert(0, os.path.join(REPO, 'book', 'render'))
        import epub
        opf = b'<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav" />'
        for nav, properties in ((b'<a>x <math><mi>B</mi></math></a>', b'"nav mathml"'), (b'<a>x</a>', b'"nav"')):
            members = {'EPUB/nav.xhtml': nav, 'EPUB/content.opf': opf}
            epub.repair(members)
            self.assertIn(b'properties=' + properties, members['EPUB/content.opf'])

    def test_cuda_is_highlighted(self):
        page = self.read('3.1-reduction.html')
        self.assertIn('<span class="at">__global__</span>', page)
        self.assertIn('<span class="ex">&lt;&lt;&lt;</span>', page)
        self.assertIn('<span class="ex">&gt;&gt;&gt;</span>', page)

    def test_copy_text_is_exactly_the_code_shown_and_written(self):
        parser = CodeText()
        parser.feed(self.read('3.1-reduction.html'))
        with open(os.path.join(self.woven, '3.1-reduction.md')) as f:
            expected = fenced_blocks(f.read())
        self.assertEqual(parser.blocks, expected)
        self.assertTrue(any('\t' in block for block in parser.blocks), 'tabs are kept')

    def test_tangled_blocks_name_their_file_and_link_to_api_and_download(self):
        page = self.read('3.1-reduction.html')
        head = re.search(r'<div class="code"[^>]* data-file="src/reduce/reduce.cu">\s*<div class="code-head">(.*?)</div>',
                         page, re.S).group(1)
        self.assertIn('>src/reduce/reduce.cu<', head)
        api = re.search(r'href="(api/[^"]+)"', head).group(1)
        self.assertTrue(os.path.exists(os.path.join(self.out, api)), api)
        self.assertIn('href="downloads.html#download-3-1"', head)   # its entry: what is inside, how to build
        self.assertIn('href="downloads/3.1-reduce.tar.gz"', self.read('downloads.html'))
        self.assertIn('⟨reduce-v1-kernel⟩ +≡', page)
        self.assertIn('id="reduce-v1-kernel--2"', page)

    def test_tables_scroll_in_frames_and_the_contents_fold(self):
        page = self.read('3.1-reduction.html')
        tables = page.count('<table')
        self.assertGreater(tables, 0)
        self.assertEqual(len(re.findall(r'<div class="table-scroll" tabindex="0" role="region" aria-label="[^"]+">\s*<table',
                                        page)), tables,
                         'every table in a frame of its own that scrolls sideways, and takes the focus')
        self.assertRegex(page, r'<nav id="toc"[^>]*>\s*<details class="toc-fold">\s*<summary>Contents</summary>')
        self.assertNotRegex(page, r'<details class="toc-fold"[^>]* open', 'folded unless opened (book.js, wide screens)')

    def test_api_pages_link_back_to_the_chapter(self):
        api = self.read('api', 'reduce_8cu.html')
        self.assertIn('href="../3.1-reduction.html"', api)
        index = self.read('api', 'index.html')
        self.assertIn('<a href="../3.1-reduction.html">3.1 A reduction in three levels</a>', index)
        self.assertNotIn('&lt;a href=', index, 'the main page\'s chapter links printed as text')

    def test_headings_link_to_themselves(self):
        page = self.read('3.1-reduction.html')
        self.assertRegex(page, r'<h2 id="the-first-version">The first version<a class="self-link" '
                               r'href="#the-first-version" aria-label="Link to this section"></a></h2>')
        self.assertIn('<a href="#the-first-version"', page, 'the contents link the heading')
        self.assertNotIn('¶', self.read('search-index.js'), 'the ¶ is the stylesheet\'s, not the text\'s')

    def test_a_title_with_an_apostrophe_is_printed_once(self):
        # Pandoc curls the heading's apostrophe (smart typography), not the front matter's
        for name, old, new in (('book.json', '"A reduction in three levels"', '"A reduction\'s three levels"'),
                               ('3.1-reduction.md', 'title: "A reduction in three levels"',
                                'title: "A reduction\'s three levels"'),
                               ('3.1-reduction.md', '# A reduction in three levels', "# A reduction's three levels")):
            path = os.path.join(self.woven, name)
            with open(path, encoding='utf-8') as f:
                text = f.read()
            self.assertIn(old, text)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text.replace(old, new))
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = self.read('3.1-reduction.html')
        self.assertEqual(page.count('<h1'), 1, 'the chapter\'s own "# " title is dropped')
        self.assertRegex(page, r'<h1 class="title">.*A reduction(&#x27;|&#39;|\')s three levels</h1>')

    def test_search_index_has_headings_and_paragraphs(self):
        index = self.read('search-index.js')
        self.assertTrue(index.startswith('window.BOOK_SEARCH_INDEX = '))
        self.assertIn('"a":"the-first-version","c":"3.1 ', index)
        self.assertIn('The first version is easy to write', index)

    def test_download_holds_the_chapter_the_harness_and_a_cmakelists(self):
        with tarfile.open(os.path.join(self.out, 'downloads', '3.1-reduce.tar.gz')) as tar:
            names = tar.getnames()
        for name in ('3.1-reduce/CMakeLists.txt', '3.1-reduce/src/reduce/reduce.cu', '3.1-reduce/src/bench/check.cuh',
                     '3.1-reduce/cmake/cuda_architectures.cmake'):
            self.assertIn(name, names)

    def test_a_second_run_remakes_nothing(self):
        before = {n: os.stat(os.path.join(self.out, n)).st_ino for n in ('3.1-reduction.html', 'kernels-and-the-machine.epub')}
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('0 page(s) re-rendered', done.stdout)
        self.assertNotIn('EPUB remade', done.stdout)
        for name, inode in before.items():
            self.assertEqual(os.stat(os.path.join(self.out, name)).st_ino, inode, name + ' was rewritten')

    def test_a_copy_of_the_book_draws_no_figure_again(self):
        # the figures' key named the woven inputs by their path: a copy of a rendered book and its
        # woven folder (each of these tests works in one) ran every figure script again
        import main as render_main   # book/render/main.py, run here to see the scripts it starts
        started, real = [], render_main.subprocess

        class Spy:
            def __getattr__(self, name):
                return getattr(real, name)

            def run(self, command, *args, **kwargs):
                started.append(command[1])
                return real.run(command, *args, **kwargs)
        render_main.subprocess = Spy()
        self.addCleanup(setattr, render_main, 'subprocess', real)
        with open(os.path.join(self.woven, 'A-bench.md'), 'a') as f:
            f.write('\nOne more sentence of prose.\n')
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(render_main.main([self.out, self.woven, '--src', os.path.join(FIXTURE, 'src'),
                                                    '--index-terms', INDEX_TERMS]), 0)
        self.assertIn('1 page(s) re-rendered (A-bench)', out.getvalue())
        self.assertEqual([s for s in started if os.sep + 'figures' + os.sep in s], [], 'figure scripts ran again')

    def test_a_prose_edit_rerenders_one_page(self):
        # Only the edited page and the EPUB are remade. Its time is printed, not asserted: a timed
        # test fails whenever the machine is busy (ctest runs the fuzzer beside it), which says
        # nothing about the renderer; the speed belongs in a benchmark script.
        path = os.path.join(self.woven, 'A-bench.md')
        with open(path, 'a') as f:
            f.write('\nOne more sentence of prose.\n')
        start = time.monotonic()
        done = render(self.out, self.woven)
        seconds = time.monotonic() - start
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('1 page(s) re-rendered (A-bench)', done.stdout)
        self.assertIn('One more sentence of prose.', self.read('A-bench.html'))
        print('prose edit re-rendered in %.2f s: %s' % (seconds, done.stdout.strip()))

    def test_a_title_change_rerenders_the_neighbours(self):
        book = os.path.join(self.woven, 'book.json')
        with open(book) as f:
            text = f.read()
        with open(book, 'w') as f:
            f.write(text.replace('The measuring harness', 'The harness'))
        done = render(self.out, self.woven)
        self.assertIn('2 page(s) re-rendered', done.stdout)
        self.assertIn('A The harness', self.read('3.1-reduction.html'))

    def test_a_failure_leaves_the_previous_book_intact(self):
        page = self.read('3.1-reduction.html')
        with open(os.path.join(self.woven, 'roofline-inputs.json'), 'w') as f:
            f.write('{"chapters": [{"id": "3.1", "kernels": [{"name": "x", "flops": 1, "bytes": 1, "time": 1}]}]}')
        with open(os.path.join(self.woven, '3.1-reduction.md'), 'a') as f:
            f.write('\nChanged.\n')
        done = render(self.out, self.woven)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn('no measured ceiling', done.stderr)
        self.assertIn('previous book', done.stderr)
        self.assertEqual(self.read('3.1-reduction.html'), page)
        # book.lock stays on purpose: a render holds it while it runs (book/render/main.py)
        self.assertEqual([n for n in os.listdir(self.work) if n.startswith('book.') and n != 'book.lock'], [],
                         'staging left behind')

    def test_missing_book_json_is_a_clear_error(self):
        os.unlink(os.path.join(self.woven, 'book.json'))
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 1)
        self.assertIn('book.json: missing', done.stderr)


class ReaderTest(Workspace):
    def test_search_library_is_vendored_and_the_index_holds_formulas_and_code(self):
        library = self.read('minisearch.js')
        self.assertIn('MiniSearch', library)
        self.assertIn('MIT', library.split('*/', 1)[0], 'the license travels with it')
        index = self.read('search-index.js')
        self.assertTrue(index.startswith('window.BOOK_SEARCH_INDEX = '))
        import json
        sections = json.loads(index[len('window.BOOK_SEARCH_INDEX = '):].rstrip().rstrip(';'))['sections']
        symbols = ' '.join(s.get('x', '') for s in sections)
        self.assertIn('B_copy', symbols, 'a formula is indexed as the words typed for it')
        # the dated box (the same symbols in every chapter, the run's numbers) and claims' verdicts
        # are not indexed; the apparatus is, marked (book/search-core.js weighs it far down)
        prose = [s.get('f', '') + s.get('t', '') for s in sections]
        self.assertFalse(any('This generation' in t for t in prose), 'the dated box is not indexed')
        self.assertFalse(any('Numbers measured' in t for t in prose), 'nor the date and download line')
        self.assertEqual(len({(s['p'], s['a']) for s in sections}), len(sections), 'one document a section')
        # the engine, built at render time where Node is installed, holds the code's identifiers,
        # the apparatus's apart; without Node, the sections list their code blocks
        engine = json.loads(index[len('window.BOOK_SEARCH_INDEX = '):].rstrip().rstrip(';')).get('engine')
        self.assertEqual(engine is not None, shutil.which('node') is not None, 'prebuilt where Node is')
        if engine:
            fields = {name: str(i) for name, i in engine['fieldIds'].items()}
            import search_index
            terms = search_index.engine_terms(engine)
            self.assertTrue(engine.get('compact'), 'the index as flat rows of numbers (BookSearch.compact)')
            self.assertIn(fields['c'], terms.get('reduce_v1_interleaved', ()), 'code identifiers')
            self.assertTrue(any(held == {fields['a']} for held in terms.values()), 'a test file is the apparatus')
            self.assertEqual(engine['documentCount'], len(sections))
        else:
            code = [b for s in sections for b in s.get('k', [])]
            self.assertTrue(any(len(b) == 3 for b in code), 'a test file is the apparatus')
            self.assertTrue(any('reduce_v1_interleaved' in b[1].split() for b in code), 'code identifiers')
        for s in sections:           # every row lands on its section
            if s['a']:
                self.assertIn('id="%s"' % s['a'], self.read(s['p']))
        self.assertIn('minisearch.js', self.read('book.js'))
        script = self.read('book.js')
        self.assertIn('addInSlices(built, docs', script, 'the index is built a slice at a time')
        self.assertNotIn('.addAll(', script, 'built in one go, it froze the page for 0.7 s (web review, section 3)')
        self.assertFalse(os.path.exists(os.path.join(self.out, 'search-index.json')), 'nothing reads it')

    def test_apparatus_folds_and_the_rest_does_not(self):
        page = self.read('3.1-reduction.html')
        fold = re.search(r'<details class="apparatus"><summary>(.*?)</summary>\s*<div class="code"[^>]*'
                         r'data-file="([^"]+)"', page, re.S)
        self.assertIsNotNone(fold)
        self.assertEqual(fold.group(2), 'src/reduce/reduce_test.cu')
        self.assertIn('Tests:', fold.group(1))
        self.assertIn('src/reduce/reduce_test.cu', fold.group(1))
        self.assertEqual(page.count('<details class="apparatus">'), 1, 'reduce.cu and the header stay open')

    def test_apparatus_rule(self):
        lua = os.path.join(REPO, 'book', 'render', 'code_blocks.lua')
        cases = {'src/a/a_test.cu': True, 'src/a/a_test.cpp': True, 'src/a/a_bench.cu': True,
                 'src/bench/gbench_main.cu': True, 'src/f/fusion_launch.cuh': True,
                 'src/m/matmul_reference.cpp': True, 'src/a/a.cu': False, 'src/launch/launch.cu': False,
                 'src/a/test.cu': False, 'src/a/a_model.h': False}
        md = '\n'.join('```{.cuda file=%s}\nint x;\n```\n' % f for f in cases)
        done = subprocess.run(['pandoc', '--from', 'markdown', '--to', 'html5', '--lua-filter', lua],
                              input=md, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        for file, folds in cases.items():
            folded = re.search(r'<summary>[^\n]*<code>%s</code>' % re.escape(file), done.stdout) is not None
            self.assertEqual(folded, folds, file)

    def test_mentions_of_chapters_link_to_them(self):
        page = self.read('3.1-reduction.html')
        self.assertRegex(page, r'<a href="A-bench.html" class="xref">appendix A</a>’s')
        self.assertRegex(page, r'<a href="3.1-reduction.html" class="xref">chapter 3.1</a>')
        self.assertRegex(page, r'<a href="3.1-reduction.html" class="xref">Chapters 3.1</a> and <a href="A-bench.html" '
                               r'class="xref">A</a>')
        self.assertIn('<a href="A-bench.html">appendix A</a>', page, 'no link inside a link')

    def test_the_opening_folds_on_a_phone_and_the_symbols_stay_open(self):
        # web review #2: the box's results, the run's toolkit and clocks, and the results at a glance
        # fold (the glance on a phone only: style.css opens it wider); the symbols stay open
        path = os.path.join(self.woven, '3.1-reduction.md')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        text = text.replace('| $N_\\text{SM}$ | streaming multiprocessors | 132 |\n:::\n',
                            '| $N_\\text{SM}$ | streaming multiprocessors | 132 |\n\n'
                            '| result | time | bandwidth |\n|:--|--:|--:|\n| `reduce/v1@1024` | 1 ms | 4 GB/s |\n\n'
                            'CUDA runtime 13.0 · SM clock 1980 MHz at the start.\n\n'
                            '[**Stale:** this chapter\'s code changed.]{.stale-note}\n:::\n\n'
                            '**Results at a glance.** Each rung and its time.\n\n| rung | time |\n|:--|--:|\n'
                            '| v1 | 1 ms |\n')
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text)
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = self.read('3.1-reduction.html')
        box = page.split('<div class="hwbox">')[1].split('<details class="glance">')[0]
        self.assertRegex(box, r'(?s)<details class="box-results"><summary>All 1 result measured, and '
                              r'the run</summary>.*reduce/v1@1024.*CUDA runtime 13\.0.*</details>\s*<p><span '
                              r'class="stale-note">', 'the facts folded with the results; the stale note stays out')
        self.assertIn('streaming multiprocessors', box.split('<details')[0], 'the symbols stay open')
        glance = page.split('<details class="glance"><summary>Results at a glance</summary>')[1]
        self.assertRegex(glance, r'(?s)^\s*<p><strong>Results at a glance\.</strong> Each rung.*<table.*</table>\s*</div>\s*'
                                 r'<p>A reduction of .*</details>\s*<h2 id="the-first-version"', 'up to the first section')
        css = self.read('style.css')
        self.assertIn('details.glance::details-content { content-visibility: visible; }', css)

    def test_the_whole_book_is_listed_beside_the_text(self):
        page = self.read('3.1-reduction.html')
        side = page.split('<div class="side">')[1].split('<nav id="toc"')[0]
        self.assertIn('<nav class="book-nav" aria-label="The book\'s chapters">', side)
        self.assertRegex(side, r'<details class="book-part" open><summary>Module 3: [^<]+</summary><ol><li><a '
                               r'href="3.1-reduction.html" aria-current="page"><span class="id">3.1</span>')
        self.assertRegex(side, r'<details class="book-part"><summary>Appendices</summary><ol><li><a href="A-bench.html">')
        self.assertIn('.book-nav { display: none; }', self.read('style.css'), 'not on a phone')

    def test_chunk_references_link_both_ways(self):
        page = self.read('3.1-reduction.html')
        ref = re.search(r'<span id="([^"]+)"><a [^>]*></a>\s*<a class="chunk-ref" href="#reduce-v1-body"', page)
        self.assertIsNotNone(ref, 'the <<reduce-v1-body>> line links to its definition')
        self.assertIn('id="reduce-v1-body"', page)
        self.assertRegex(page, r'⟨reduce-v1-body⟩ ≡</span> <span class="chunk-uses">used in <a href="#%s">'
                               r'⟨reduce-v1-kernel⟩' % re.escape(ref.group(1)))
        parser = CodeText()
        parser.feed(page)
        self.assertIn('    <<reduce-v1-body>>', parser.blocks[0], 'the code text is unchanged')

    def test_theme_switch_and_dark_figures(self):
        page = self.read('3.1-reduction.html')
        self.assertIn('id="theme"', page)
        self.assertIn("localStorage.getItem('book-theme')", page.split('</head>')[0])
        css = self.read('style.css')
        self.assertIn(':root[data-theme="dark"]', css)
        self.assertIn('img[src$=".svg"] { filter: invert', css)
        self.assertIn("localStorage.setItem('book-theme'", self.read('book.js'))

    def test_print_view_holds_every_chapter_with_unique_ids(self):
        page = self.read('print.html')
        self.assertIn('<section class="print-chapter" id="3.1-reduction" style="page: chapter-0">', page)
        self.assertIn('<section class="print-chapter" id="A-bench" style="page: chapter-1">', page)
        # front matter: a title page, the contents (numbers come from make pdf), the front page's words;
        # each chapter a named page whose running head is its title
        self.assertIn('<section class="print-title">', page)
        self.assertIn('<section class="print-front" id="index">', page)
        self.assertIn('@page chapter-1 { @top-center { content: "A The measuring harness";', page)
        self.assertIn('<a href="#A-bench">A The measuring harness</a><span class="leader">', page)
        ids = re.findall(r'\bid="([^"]+)"', page)
        self.assertEqual(len(ids), len(set(ids)), 'ids are unique')
        self.assertIn('href="#A-bench--the-timer"', page, 'links between chapters stay inside the page')
        self.assertIn('<details class="apparatus">', page)
        self.assertNotIn('<details class="apparatus" open>', page, 'the apparatus prints folded, as its summary')
        self.assertNotIn('href="3.1-reduction.html', page)

    def test_front_page(self):
        page = self.read('index.html')
        self.assertEqual(len(re.findall(r'<li>', page.split('<ol class="outcomes">')[1].split('</ol>')[0])), 8)
        for n in (1, 2, 3, 4):
            self.assertIn('id="module-%d"' % n, page)
        module3 = page.split('id="module-3"')[1].split('</section>')[0]
        self.assertIn('href="3.1-reduction.html"', module3)
        self.assertIn('Its lessons are being written', page.split('id="module-4"')[1].split('</section>')[0])
        self.assertIn('href="A-bench.html"', page.split('id="appendices"')[1])
        self.assertIn('href="print.html"', page)

    def test_the_woven_gpu_is_told_at_the_front_and_under_the_title(self):
        # the fixture is woven for the H200 beside the reference H100, one of 3.1's two claims broken
        front = self.read('index.html')
        self.assertIn("<strong>1 of the book's 2 claims hold</strong>; <strong class=\"told-broken\">1 does not hold</strong>", front)
        self.assertIn('The records of 1 chapter are stale, measured with code that has changed since: '
                      '<a href="A-bench.html">A</a>', front)
        self.assertIn('<span class="told-mark">1 of 2 claims does not hold</span>', front)
        page = self.read('3.1-reduction.html')
        told = re.search(r'<p class="told" role="note">(.*?)</p>', page).group(1)
        self.assertIn("On the NVIDIA H200 (the reference GPU is the NVIDIA H100 80GB HBM3), 1 of this chapter's "
                      "2 claims hold; <strong class=\"told-broken\">1 does not hold</strong>: <a href=\"#claim-62\">line 62</a>", told)
        self.assertLess(page.index('class="told"'), page.index('<h2'), 'told under the title, before any section')
        self.assertIn('id="claim-62" class="claim-broken"', page)
        self.assertNotIn('class="told"', self.read('A-bench.html'), 'A has no claims: nothing to count')


class ReaderRendersAgainTest(Workspace):
    """What a reader meets after an edit that renders the fixture again (apart from ReaderTest, which
    reads the rendered fixture: one ctest test each, each well inside its budget on CI's machine)."""

    def test_a_possessive_mention_lands_on_the_section_its_words_name(self):
        # web review #7: 209 of 250 cross-references landed at a chapter's top
        path = os.path.join(self.woven, '3.1-reduction.md')
        with open(path, encoding='utf-8') as f:
            text = f.read()
        with open(path, 'w', encoding='utf-8') as f:
            f.write(text + '\nAppendix A’s timers stop the clock. Appendix A’s harness, whole. Appendix A’s word.\n')
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        page = self.read('3.1-reduction.html')
        self.assertIn('<a href="A-bench.html#the-timer" class="xref">Appendix A</a>’s timers', page)
        self.assertIn('<a href="A-bench.html" class="xref">Appendix A</a>’s harness', page,
                      'a whole chapter\'s subject (section-links.txt: anchor -)')
        # no heading and no line of section-links.txt names it: to the top, its words kept for
        # check-rendered, which fails on it (a possessive that names a section must land there)
        self.assertIn('<a href="A-bench.html" class="xref" data-names="word">Appendix A</a>’s word', page)
        done = check(self.out, '--no-screenshot')
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn('3.1-reduction.html: "Appendix A’s word" names a section of A-bench.html but links to its top',
                      done.stderr)
        self.assertRegex(done.stdout, r'mentions of a chapter link to it: \d+ to the section they name \(.*?\), \d+ '
                                      r'to a chapter\'s top, of which 1 name a section')

    def test_a_new_lesson_appears_under_its_module(self):
        book = os.path.join(self.woven, 'book.json')
        with open(book) as f:
            text = f.read()
        with open(book, 'w') as f:
            f.write(text.replace('"chapters": [', '"chapters": [\n    {"id": "4.1", "title": "The roofline as a method", '
                                 '"basename": "4.1-roofline", "stale": false, "measured": ""},'))
        shutil.copy(os.path.join(self.woven, 'A-bench.md'), os.path.join(self.woven, '4.1-roofline.md'))
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        module4 = self.read('index.html').split('id="module-4"')[1].split('</section>')[0]
        self.assertIn('href="4.1-roofline.html"', module4)
        self.assertIn('The roofline as a method', module4)


class ReproducibleTest(unittest.TestCase):
    def test_the_epub_is_byte_identical_between_two_renders(self):
        # the first render is the fixture's (rendered_fixture); the second, from scratch in another
        # folder at least a second later (a timestamp left in would differ by at least a second)
        first, made_here = render_fixture.rendered_fixture()
        if made_here:
            self.addCleanup(shutil.rmtree, first, True)
        epub_path = os.path.join(first, 'book', 'kernels-and-the-machine.epub')
        with open(epub_path, 'rb') as f:
            first_book = f.read()
        time.sleep(max(0.0, 1.1 - (time.time() - os.stat(epub_path).st_mtime)))
        with tempfile.TemporaryDirectory(prefix='render-repro.') as work:
            woven = os.path.join(work, 'two', 'woven')
            shutil.copytree(os.path.join(FIXTURE, 'woven'), woven)
            out = os.path.join(work, 'two', 'book')
            done = render(out, woven)
            self.assertEqual(done.returncode, 0, done.stderr)
            with open(os.path.join(out, 'kernels-and-the-machine.epub'), 'rb') as f:
                second_book = f.read()
        self.assertEqual(first_book, second_book, 'the EPUB differs between two renders of the same book')


class CheckTest(Workspace):
    def assertCheckFails(self, message):
        done = check(self.out, '--no-screenshot')
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn(message, done.stderr)

    def test_the_fixture_passes(self):
        done = check(self.out, '--no-screenshot')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('warning: 3.1-reduction.html: has a claim that no longer holds', done.stdout)

    @unittest.skipUnless(os.path.exists(EPUBCHECK_JAR) and shutil.which('java'), 'epubcheck is not installed (make deps)')
    def test_epubcheck_finds_no_error_and_catches_one(self):
        done = check(self.out, '--no-screenshot', epubcheck=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('epubcheck on kernels-and-the-machine.epub: 0 error(s)', done.stdout)
        # a link to a page the EPUB does not hold, as appendix B's links to the chapters' pages were
        path = os.path.join(self.out, 'kernels-and-the-machine.epub')
        members = epub_members(path)
        members['EPUB/text/ch002.xhtml'] = members['EPUB/text/ch002.xhtml'].replace(
            b'href="ch003.xhtml#the-timer"', b'href="A-bench.html"', 1)
        with zipfile.ZipFile(path, 'w') as z:
            z.writestr(zipfile.ZipInfo('mimetype'), members.pop('mimetype'))
            for name, data in members.items():
                z.writestr(name, data, zipfile.ZIP_DEFLATED)
        done = check(self.out, '--no-screenshot', epubcheck=True)
        self.assertEqual(done.returncode, 1, done.stdout + done.stderr)
        self.assertIn('kernels-and-the-machine.epub: epubcheck: ERROR(RSC-007)', done.stderr)

    def test_unmeasured_values_warn_and_prose_about_them_does_not(self):
        self.damage('3.1-reduction.html', 'It reaches', 'Values read not yet measured until then. It reaches')
        done = check(self.out, '--no-screenshot')
        self.assertNotIn('3.1-reduction.html: has values "not yet measured"', done.stdout)
        self.damage('3.1-reduction.html', 'It reaches',
                    'It reaches <span class="unmeasured">not yet measured</span> and')
        done = check(self.out, '--no-screenshot')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('warning: 3.1-reduction.html: has values "not yet measured"', done.stdout)

    def test_missing_chapter_page(self):
        os.unlink(os.path.join(self.out, 'A-bench.html'))
        self.assertCheckFails('A-bench.html: missing')

    def test_unresolved_key(self):
        self.damage('3.1-reduction.html', 'It reaches', 'It reaches [x : bandwidth]{.m} and')
        self.assertCheckFails('unresolved measurement key')

    def test_unresolved_roofline(self):
        self.damage('3.1-reduction.html', 'src="figures/roofline-3.1.svg"', 'src="roofline:3.1"')
        self.assertCheckFails('unresolved roofline figure')

    def test_chunk_reference_outside_code(self):
        self.damage('3.1-reduction.html', 'It reaches', 'It reaches &lt;&lt;warp-sum&gt;&gt; and')
        self.assertCheckFails('unexpanded chunk reference')

    def test_broken_link_and_anchor(self):
        self.damage('3.1-reduction.html', 'href="A-bench.html#the-timer"', 'href="A-bench.html#no-such-part"')
        self.assertCheckFails('no id "no-such-part" in A-bench.html')
        self.damage('downloads.html', 'href="downloads/3.1-reduce.tar.gz"', 'href="downloads/gone.tar.gz"')
        self.assertCheckFails('no such file downloads/gone.tar.gz')

    def test_a_broken_claim_the_chapters_opening_leaves_out_is_caught(self):
        self.damage('3.1-reduction.html', '<a href="#claim-62">line 62</a>', 'line 62')
        self.assertCheckFails('the line under the title does not link to the claim(s) #claim-62')

    def test_network_script(self):
        self.damage('A-bench.html', '<script src="book.js"', '<script src="https://cdn.example/x.js"')
        self.assertCheckFails('loads from the network')

    def test_code_block_without_copy_button(self):
        self.damage('A-bench.html', '<button type="button" class="copy"', '<span class="copy"')
        self.assertCheckFails('container has no copy button')

    def test_code_block_outside_container(self):
        self.damage('A-bench.html', '<div class="code"', '<div class="plain"')
        self.assertCheckFails('outside a code container')

    def test_chapter_without_box(self):
        self.damage('A-bench.html', 'class="hwbox"', 'class="plainbox"')
        self.assertCheckFails('no dated hardware box')

    def test_a_second_title_is_caught(self):
        self.damage('3.1-reduction.html', '<h2 id="the-first-version">', '<h1>Again</h1><h2 id="the-first-version">')
        self.assertCheckFails('3.1-reduction.html: 2 <h1> elements, not one')

    def test_a_heading_without_its_self_link_is_caught(self):
        self.damage('3.1-reduction.html', '<a class="self-link" href="#the-ladder"', '<a class="other" href="#the-ladder"')
        self.assertCheckFails('3.1-reduction.html: 1 heading(s) without a self-link')

    def test_faint_code_comments_are_caught(self):
        done = check(self.out, '--no-screenshot')
        self.assertRegex(done.stdout, r'contrast in the light theme: a code comment (\d+\.\d+):1')
        self.assertGreaterEqual(float(re.search(r'a code comment (\d+\.\d+):1', done.stdout).group(1)), 4.5)
        self.damage('style.css', '--t-com: #57606a;', '--t-com: #6e7781;')   # the review's 4.27:1
        self.assertCheckFails('a code comment (--t-com #6e7781 on --code-bg #f6f8fa) has contrast 4.27:1 in the light theme')
        self.damage('style.css', '--accent-text: #4d7a00;', '--accent-text: #76b900;')
        self.assertCheckFails("a chapter's number (--accent-text #76b900 on --bg #fdfcf9) has contrast 2.35:1")


def browser_or_skip(test):
    """check-rendered's Chromium (find_browser's choice), or the test skips."""
    browser = os.environ.get('CHROMIUM') or next((b for b in check_rendered.BROWSERS if shutil.which(b)), None)
    if not browser:
        test.skipTest('Chromium is not installed')
    return browser


# The browser's checks, each called alone on the few pages it needs (one Chromium start or two),
# where the whole check-rendered (about a dozen Chromium starts: every check, every page) used to
# run once per case; BrowserCheckTest runs the whole of it once, and CI runs it on the real book.
class ScreenshotTest(Workspace):
    """What only a picture shows: check-rendered's screenshots of a chapter page. That the fixture
    passes (3.1's page not blank in either theme, none of its formulas clipped) is BrowserCheckTest's
    to show: the whole check-rendered calls check_screenshots on the same page of the same fixture,
    and check_maths_clipping on its formulas and A-bench's (four Chromium starts, no longer
    made twice, about 20 CPU s); here, that each damage is caught."""

    def shots(self, page):
        errors = []
        check_rendered.check_screenshots(browser_or_skip(self), self.out, page, errors)
        return errors

    def maths(self):
        errors = []
        check_rendered.check_maths_clipping(browser_or_skip(self), self.out, ['3.1-reduction.html'], errors)
        return errors

    def test_a_clipped_formula_is_caught(self):
        # the stylesheet of main 4a09ce3, whose frame cut the top off the T of every T_M (web review #1)
        with open(os.path.join(self.out, 'style.css'), 'a') as f:
            f.write('math { padding: 0; margin: 0; overflow-x: auto; overflow-y: hidden; }\n')
        self.assertTrue(any('a formula is clipped by its own frame' in e for e in self.maths()))

    def test_a_blank_page_is_caught(self):
        with open(os.path.join(self.out, '3.1-reduction.html'), 'w') as f:
            f.write('<!DOCTYPE html><html><body style="background:#fff"></body></html>')
        errors = self.shots('3.1-reduction.html')
        self.assertTrue(any('3.1-reduction.html: the light screenshot is blank' in e for e in errors), errors)


class PhoneTest(Workspace):
    """check-rendered's phone layout (check_phone): the pages laid out in 390 and 320 px frames.
    That every page of the fixture fits both (no error: each no wider than the screen, each but
    print.html with its search field) is BrowserCheckTest's to show: the whole check-rendered lays
    every page of the same fixture out on both screens (check_layouts: one Chromium, each page loaded
    once); here, that each damage is caught and that what is wider scrolls in its own frame."""
    CHAPTER_PAGES = check_rendered.chapter_pages(CHAPTERS)

    def phone(self, pages, screen=check_rendered.PHONE):
        errors = []
        found = check_rendered.check_phone(browser_or_skip(self), self.out, pages, self.CHAPTER_PAGES, errors, screen)
        return found, errors

    def test_a_search_field_too_narrow_to_type_in_is_caught(self):
        # the review's phone header: the field squeezed to 33 px, its text invisible
        with open(os.path.join(self.out, 'style.css'), 'a') as f:
            f.write('\n@media (max-width: 40rem) { .search, .search:focus-within { position: static !important; '
                    'flex: 0 0 33px !important; transform: none !important; } }\n')
        _, errors = self.phone(['A-bench.html'])
        self.assertRegex('\n'.join(errors), r'A-bench\.html: on a 390 px phone screen the focused search field is \d+ px wide')

    def test_what_is_wider_than_a_phone_scrolls_in_its_own_frame(self):
        # the widest things a chapter holds: an 8-column table of measured values, the dated box's
        # table, a long code line, a long name in inline code, a long formula, a claim's verdict
        cells = ' | '.join('[%d.%03d TFLOP/s]{.measured}' % (i, i) for i in range(7))
        table = '\n'.join(['| rung | ' + ' | '.join('measured column %d' % i for i in range(7)) + ' |',
                           '|:--|' + '--:|' * 7] +
                          ['| `matmul/v%d_blocktile_2d@4096x4096x4096` | %s |' % (i, cells) for i in range(4)])
        box = ('::: {.hwbox}\n**This generation:** NVIDIA H200.\n\n| symbol | meaning | this generation |\n'
               '|:--|:--|--:|\n| $F_\\text{fp32}$ | FP32 rate measured by the harness on the ordinary cores, each '
               'fused multiply-add counted as two operations | [65.1 TFLOP/s]{.measured} |\n\n'
               '| result | time | bandwidth | FLOP rate |\n|:--|--:|--:|--:|\n'
               '| `matmul/peer_cublas_sgemm@4096x4096x4096` | [2.67 ms]{.measured} | [75.3 GB/s]{.measured} '
               '| [51.4 TFLOP/s]{.measured} |\n:::\n')
        code = '```{.cuda}\n' + 'int x = ' + ' + '.join('value_%d' % i for i in range(40)) + ';\n```\n'
        prose = ('The name `matmul/v9_autotuned@4096x4096x4096:predicted_time/matmul/peer_cublas_sgemm@4096x4096x4096` '
                 'is long, and so is $t = ' + ' + '.join('a_{%d} b_{%d}' % (i, i) for i in range(30)) + '$.\n')
        claim = ('::: {.claim .claim-holds}\nA claim.\n\n<details class="claim-verdict"><summary>Holds on '
                 'NVIDIA H200: 1 comparison.</summary>\n\n- `0.95 * matmul/v1_naive@4096x4096x4096 : '
                 'predicted_time` = 261 ms < `matmul/v2@4096x4096x4096 : time` = 300 ms\n\n</details>\n:::\n')
        with open(os.path.join(self.woven, 'A-bench.md'), 'a') as f:
            f.write('\n## Wide things\n\n' + '\n'.join([table, box, code, prose, claim]))
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn('measured column 6', self.read('A-bench.html'))
        errors = []
        check_rendered.check_layouts(browser_or_skip(self), self.out, ['A-bench.html', 'print.html'],
                                    self.CHAPTER_PAGES, errors, (check_rendered.PHONE, check_rendered.SMALL_PHONE))
        self.assertEqual(errors, [], 'at 390 and 320 px')

    def test_a_page_that_does_not_fit_a_phone_is_caught(self):
        # too wide; as wide, but hidden (a phone would cut it off); the title pushed off the first screen
        # (and A-bench's search field gone from its bar)
        self.damage('A-bench.html', '<main id="content">', '<main id="content"><div style="width:700px">wide</div>')
        self.damage('A-bench.html', 'id="search"', 'id="not-the-search"')
        self.damage('3.1-reduction.html', '</head>', '<style>body { overflow-x: hidden; }</style></head>')
        self.damage('3.1-reduction.html', '<h1 class="title">', '<div style="height:1000px"></div><h1 class="title">')
        _, errors = self.phone(['A-bench.html', '3.1-reduction.html', 'index.html'])
        found = '\n'.join(errors)
        self.assertRegex(found, r'A-bench\.html: 7\d\d px wide on a 390 px phone screen, so the page scrolls '
                                r'sideways; wider than the screen: .*main#content > div \(to 7\d\d px\)')
        self.assertIn('3.1-reduction.html: hides what is wider than the screen (body hidden)', found)
        self.assertIn('A-bench.html: no search field on a 390 px phone screen', found)
        self.assertRegex(found, r'3\.1-reduction\.html: the title starts \d+ px down on a 390 x 844 px phone '
                                r'screen, below the first screen')
        self.assertNotRegex(found, r'index\.html')   # index.html fits

    def test_code_that_scrolls_sideways_at_desktop_width_is_caught(self):
        # code of at most 100 columns squeezed into a 300 px column at 1280 px (check_desktop_code,
        # which check_layouts runs after the phones in the same Chromium)
        with open(os.path.join(self.out, 'style.css'), 'a') as f:
            f.write('\n@media (min-width: 60rem) { main pre { max-width: 300px; overflow-x: auto; } }\n')
        errors = []
        phones, blocks = check_rendered.check_layouts(browser_or_skip(self), self.out, ['3.1-reduction.html'],
                                                      self.CHAPTER_PAGES, errors, (check_rendered.PHONE,),
                                                      desktop=['3.1-reduction.html'])
        self.assertGreater(blocks, 0)
        self.assertRegex('\n'.join(errors), r'3\.1-reduction\.html: at 1280 px, code of at most 100 columns '
                                              r'scrolls sideways: .* columns in 300 px')
        self.assertNotRegex('\n'.join(errors), r'390 px')   # the phone screen: still a fit

    def test_a_first_section_past_two_phone_screens_is_caught(self):
        # web review #2: the first section began four to nine screens down
        _, errors = self.phone(['3.1-reduction.html'])
        self.assertEqual(errors, [], 'the fixture\'s first section is on the first screens')
        self.damage('3.1-reduction.html', '<p class="chapter-meta">', '<div style="height:1800px"></div><p class="chapter-meta">')
        _, errors = self.phone(['3.1-reduction.html'])
        self.assertRegex('\n'.join(errors), r'3\.1-reduction\.html: on a 390 x 844 px phone screen the first section '
                                            r'starts \d+ px down, \d\.\d screens, past 2')


class SearchTest(Workspace):
    """Search in Chromium from file:// URLs (check_search), and the keys between chapters. That
    search works on the fixture (no error; a heading's word, a code identifier and a symbol with an
    underscore each list results and mark words on arrival) is BrowserCheckTest's to show: the whole
    check-rendered makes the same check_search call on the same fixture, and that test asserts those
    three; here, that a broken search is caught."""

    def search(self):
        errors = []
        searched = check_rendered.check_search(browser_or_skip(self), self.out, errors)
        return searched, errors

    def test_broken_search_is_caught(self):
        with open(os.path.join(self.out, 'minisearch.js'), 'w') as f:
            f.write('// not the library\n')
        _, errors = self.search()
        self.assertTrue(any('finds nothing' in e for e in errors), errors)

    def test_arrow_keys_open_the_next_chapter_but_not_while_typing(self):
        browser = next((b for b in ('chromium', 'chromium-browser', 'google-chrome') if shutil.which(b)), None)
        if not browser:
            self.skipTest('Chromium is not installed')
        page = 'file://' + os.path.abspath(os.path.join(self.out, '3.1-reduction.html'))
        # two frames of the chapter: → on the page, and → in the search field
        probe = os.path.join(self.work, 'keys.html')
        with open(probe, 'w') as f:
            f.write("""<!DOCTYPE html><html><body><iframe id="page" src="%s"></iframe><iframe id="field" src="%s"></iframe>
<script>
var out = {}, frames = 0;
function report(name, frame) {
  setTimeout(function () {
    out[name] = frame.contentWindow.location.pathname.split('/').pop();
    if (++frames === 2) { var p = document.createElement('pre'); p.id = 'keys'; p.textContent = JSON.stringify(out);
      document.body.appendChild(p); }
  }, 1500);
}
function press(name, target) {
  var frame = document.getElementById(name);
  frame.addEventListener('load', function once() {
    frame.removeEventListener('load', once);
    var el = target(frame.contentDocument);
    if (el.focus) el.focus();
    el.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
    report(name, frame);
  });
}
press('page', function (d) { return d; });
press('field', function (d) { return d.getElementById('search'); });
</script></body></html>""" % (page, page))
        with tempfile.TemporaryDirectory() as profile:
            done = subprocess.run([browser, '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                                   '--disable-background-networking', '--allow-file-access-from-files',
                                   '--user-data-dir=' + profile, '--virtual-time-budget=8000', '--dump-dom',
                                   'file://' + probe], capture_output=True, text=True, timeout=120)
        found = re.search(r'<pre id="keys">(.*?)</pre>', done.stdout)
        self.assertIsNotNone(found, done.stderr[-500:])
        self.assertIn('"page":"A-bench.html"', html.unescape(found.group(1)), '→ opens the next chapter')
        self.assertIn('"field":"3.1-reduction.html"', html.unescape(found.group(1)), '→ in the search field stays')


class AxeTest(Workspace):
    """axe-core's contrast check (check_axe): each page loaded once and checked in both themes, a
    code block left out where an earlier block, of this page or an earlier one, brought its keys."""

    def test_a_failure_is_caught_in_its_own_theme_and_page(self):
        if not check_rendered.axe_path():
            self.skipTest('axe-core is not installed (make deps)')
        # prose faint on the light background only (#999 passes on the dark one); preprocessor
        # lines faint in the dark theme only; on the later page (A-bench) one code token of a
        # colour of its own, faint in the light theme: its block brings a key no block before had
        self.damage('3.1-reduction.html', '<p>A reduction of ', '<p style="color:#999">A reduction of ')
        with open(os.path.join(self.out, 'style.css'), 'a') as f:
            f.write('\n:root[data-theme="dark"] code span.pp { color: #30363d; }\n')
        self.damage('A-bench.html', '<span class="pp">#define CUDA_CHECK',
                    '<span class="pp" style="color:#f0f0f0">#define CUDA_CHECK')
        errors = []
        totals = check_rendered.check_axe(browser_or_skip(self), self.out, ['3.1-reduction.html', 'A-bench.html'],
                                          errors)
        found = '\n'.join(errors)
        self.assertRegex(found, r'3\.1-reduction\.html: \d+ element\(s\) under WCAG AA contrast in the light theme')
        self.assertRegex(found, r'3\.1-reduction\.html: \d+ element\(s\) under WCAG AA contrast in the dark theme')
        self.assertRegex(found, r'A-bench\.html: \d+ element\(s\) under WCAG AA contrast in the light theme')
        self.assertGreater(totals['light'], 0)
        self.assertGreater(totals['dark'], 0)


class BrowserCheckTest(Workspace):
    """The whole check-rendered, every Chromium check included (screenshots, both phone screens,
    figure text, axe-core's contrast in both themes, code at desktop width, the search index's
    load, search), passes on the fixture and reports what it measured."""

    def test_the_fixture_passes_every_check(self):
        done = check(self.out)
        if done.returncode == SKIP:
            self.skipTest(done.stderr.strip())
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r'on a 390 px phone screen the widest page is \S+, (\d+) px')
        self.assertLessEqual(int(re.search(r'widest page is \S+, (\d+) px', done.stdout).group(1)), 390)
        small = re.search(r'on a 320 px phone screen the widest page is \S+, (\d+) px; the focused search field '
                          r'at least (\d+) px', done.stdout)
        self.assertIsNotNone(small, done.stdout)
        self.assertLessEqual(int(small.group(1)), 320)
        for what in ('a word of a heading', 'a code identifier', 'a symbol with an underscore'):
            self.assertRegex(done.stdout, r'search "[^"]+" \(%s\): [1-9]\d* result\(s\), the first \S+ marks [1-9]'
                             % re.escape(what))
        if check_rendered.axe_path():
            self.assertIn('axe-core color-contrast failures', done.stdout)
        self.assertIn('loading the search', done.stdout)


class DownloadTest(Workspace):
    def test_download_builds_on_its_own(self):
        if not shutil.which('cmake') or not (shutil.which('nvcc') or os.path.exists('/usr/local/cuda/bin/nvcc')):
            self.skipTest('no cmake or nvcc')
        unpacked = tempfile.mkdtemp(prefix='download-build.')   # outside the repository
        self.addCleanup(shutil.rmtree, unpacked)
        with tarfile.open(os.path.join(self.out, 'downloads', '3.1-reduce.tar.gz')) as tar:
            tar.extractall(unpacked)
        source = os.path.join(unpacked, '3.1-reduce')
        env = dict(os.environ, PATH=os.environ['PATH'] + ':/usr/local/cuda/bin')
        generator = ['-G', 'Ninja'] if shutil.which('ninja') else []
        configure = subprocess.run(['cmake', '-S', source, '-B', os.path.join(source, 'build')] + generator,
                                   capture_output=True, text=True, env=env)
        self.assertEqual(configure.returncode, 0, configure.stdout + configure.stderr)
        build = subprocess.run(['cmake', '--build', os.path.join(source, 'build'), '-j', '2'],
                               capture_output=True, text=True, env=env)
        self.assertEqual(build.returncode, 0, build.stdout[-4000:] + build.stderr[-4000:])
        self.assertTrue(os.path.exists(os.path.join(source, 'build', 'reduce_test')))


if __name__ == '__main__':
    unittest.main()
