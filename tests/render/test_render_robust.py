#!/usr/bin/python3
"""The renderer on bad luck and bad input (review tools.md: C7, C8, O11, O13, Z9, P2), each on
the fixture in a temporary folder outside the repository. The tests that render start from a copy
of the fixture book rendered once (render_fixture.py; ctest's fixture render_book), and each
makes its render do the work it tests: an edited page, or api/ removed so that Doxygen runs."""
import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(HERE, 'fixture')
RENDER = os.path.join(REPO, 'book', 'render.sh')
sys.path.insert(0, os.path.join(REPO, 'book', 'render'))
import epub  # noqa: E402
import json  # noqa: E402
import main      # noqa: E402  (book/render/main.py)
import render_fixture  # noqa: E402  (tests/render/render_fixture.py)
import pages     # noqa: E402
import search_index  # noqa: E402


def render(out, woven, src=os.path.join(FIXTURE, 'src'), background=False):
    command = [RENDER, out, woven, '--src', src, '--index-terms', os.path.join(FIXTURE, 'index-terms')]
    if background:
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return subprocess.run(command, capture_output=True, text=True)


class Temp(unittest.TestCase):
    """A copy of the rendered fixture (woven/ and book/) in a fresh temporary folder."""

    @classmethod
    def setUpClass(cls):
        cls.rendered, cls.made_here = render_fixture.rendered_fixture()

    @classmethod
    def tearDownClass(cls):
        if cls.made_here:
            shutil.rmtree(cls.rendered, ignore_errors=True)

    def setUp(self):
        self.work = tempfile.mkdtemp(prefix='render-robust.')
        self.addCleanup(shutil.rmtree, self.work, True)
        self.woven = os.path.join(self.work, 'woven')
        shutil.copytree(os.path.join(self.rendered, 'woven'), self.woven)
        self.out = os.path.join(self.work, 'book')
        shutil.copytree(os.path.join(self.rendered, 'book'), self.out, symlinks=True)

    def edit_a_page(self):
        """A sentence added to a chapter: the next render re-renders its page."""
        with open(os.path.join(self.woven, '3.1-reduction.md'), 'a', encoding='utf-8') as f:
            f.write('\nOne more sentence.\n')


class ConcurrencyTest(Temp):
    def test_two_renders_of_one_book_both_succeed(self):
        # C8: the second used to delete the first's staging folder (book.tmp.*) under it; every render
        # stages, so one that re-renders a page shows it as well as a render from scratch did
        self.edit_a_page()
        first = render(self.out, self.woven, background=True)
        second = render(self.out, self.woven, background=True)
        for run in (first, second):
            stdout, stderr = run.communicate(timeout=600)
            self.assertEqual(run.returncode, 0, stderr)
        self.assertTrue(os.path.exists(os.path.join(self.out, 'index.html')))
        self.assertEqual([n for n in os.listdir(self.work) if n.startswith('book.')], ['book.lock'])
        with open(os.path.join(self.out, '3.1-reduction.html'), encoding='utf-8') as f:
            self.assertIn('One more sentence.', f.read())

    def test_a_linked_book_folder_is_rendered_where_it_points(self):
        # RD02: the swap renamed the link away and put a folder in its place; the published copy
        # kept the old pages and the link was left as book.old.PID for ever
        published = os.path.join(self.work, 'published')
        os.rename(self.out, published)
        os.symlink(published, self.out)
        self.edit_a_page()
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.islink(self.out))
        with open(os.path.join(published, '3.1-reduction.html'), encoding='utf-8') as f:
            self.assertIn('One more sentence.', f.read())
        self.assertFalse([n for n in os.listdir(self.work) if '.old.' in n])

    def test_a_failing_search_index_reports_its_own_error(self):
        # C7: the finally block read `records` that search_index.build never bound
        def broken(*args):
            raise RuntimeError('the search index broke (test)')
        self.edit_a_page()
        saved, search_index.build = search_index.build, broken
        self.addCleanup(setattr, search_index, 'build', saved)
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            code = main.main([self.out, self.woven, '--src', os.path.join(FIXTURE, 'src'),
                              '--index-terms', os.path.join(FIXTURE, 'index-terms')])
        self.assertEqual(code, 1)
        self.assertIn('the search index broke (test)', stderr.getvalue())
        self.assertIn('the new pages are in', stderr.getvalue())
        self.assertNotIn('UnboundLocalError', stderr.getvalue())


class PathTest(Temp):
    def test_a_checkout_path_with_a_space_renders_with_its_api_pages(self):
        # O13: Doxygen split the unquoted $(BOOK_SRC) at the space
        root = os.path.join(self.work, 'with space', 'root')
        src = os.path.join(root, 'src')
        shutil.copytree(os.path.join(FIXTURE, 'src'), src)
        out = os.path.join(root, 'build', 'book')
        shutil.copytree(self.out, out, symlinks=True)
        shutil.rmtree(os.path.join(out, 'api'))   # Doxygen runs again, on the path with a space
        done = render(out, self.woven, src=src)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.exists(os.path.join(out, 'api', 'index.html')))
        self.assertTrue(any(n.endswith('_source.html') for n in os.listdir(os.path.join(out, 'api'))))
        for name in os.listdir(os.path.join(out, 'api')):
            if name.endswith('.html'):   # the paths are stripped to src/...
                with open(os.path.join(out, 'api', name), encoding='utf-8') as f:
                    self.assertNotIn('with space', f.read(), name)


class MarkdownTest(Temp):
    def test_a_dash_block_in_a_chapter_body_is_text_not_metadata(self):
        # O11: after a blank line Pandoc took --- / key: value / --- as metadata: valid YAML
        # vanished from the page, invalid YAML failed the render
        path = os.path.join(self.woven, '3.1-reduction.md')
        with open(path, 'a', encoding='utf-8') as f:
            f.write('\n---\nsurvives: the page keeps this line\n---\n\n---\nbad: [yaml\n---\n')
        done = render(self.out, self.woven)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(os.path.join(self.out, '3.1-reduction.html'), encoding='utf-8') as f:
            page = f.read()
        self.assertIn('survives: the page keeps this line', page)
        self.assertIn('bad: [yaml', page)
        self.assertIn('A reduction in three levels', page)
        self.assertNotIn('id: &quot;3.1&quot;', page)   # the front matter is still no text


class EpubTitleTest(unittest.TestCase):
    def test_a_chapter_title_is_text_in_the_epub(self):
        # Z9: the title was read as Markdown, its HTML raw in the EPUB
        title = '<img src=x onerror=alert(1)> *x* [a](b) `c` $d$ Hopper\'s {#e}'
        chapter = {'id': '3.1', 'title': title, 'basename': '3.1-x', 'text': '---\nid: "3.1"\n---\nbody\n'}
        done = subprocess.run(['pandoc', '--from', 'markdown-smart-yaml_metadata_block', '--to', 'json'],
                              input=epub.chapter_text(chapter), capture_output=True, text=True, check=True)
        header = json.loads(done.stdout)['blocks'][0]
        self.assertEqual(header['t'], 'Header')
        self.assertEqual(header['c'][1][0], 'chapter-3-1-x')
        self.assertTrue(all(i['t'] in ('Str', 'Space') for i in header['c'][2]), header['c'][2])
        self.assertEqual(''.join(i['c'] if i['t'] == 'Str' else ' ' for i in header['c'][2]), '3.1 ' + title)


class DepthTest(unittest.TestCase):
    CHAPTER = {'markdown': 'build/book/woven/9.9-deep.md', 'basename': '9.9-deep'}

    def test_a_tree_too_deep_to_read_names_its_chapter(self):
        # P2: 'maximum recursion depth exceeded while decoding a JSON object', no chapter named
        deep = b'{"pandoc-api-version": [1], "blocks": ' + b'[' * 100000 + b']' * 100000 + b'}'
        with self.assertRaisesRegex(RuntimeError, r'build/book/woven/9\.9-deep\.md nests too deeply'):
            epub.load([deep], [self.CHAPTER])

    def test_a_tree_too_deep_to_walk_names_its_chapter(self):
        node = {'t': 'Para', 'c': []}
        for _ in range(100000):
            node = {'t': 'BlockQuote', 'c': [node]}
        with self.assertRaisesRegex(RuntimeError, r'9\.9-deep\.md nests too deeply for the EPUB'):
            epub.join([{'pandoc-api-version': [1], 'blocks': [node]}], [self.CHAPTER])


    def test_the_chapter_it_was_woven_from_is_named(self):  # R9: the woven file alone was named
        chapter = dict(self.CHAPTER, source='chapters/9.9-deep.md')
        deep = b'{"pandoc-api-version": [1], "blocks": ' + b'[' * 100000 + b']' * 100000 + b'}'
        with self.assertRaisesRegex(RuntimeError, r'9\.9-deep\.md \(woven from chapters/9\.9-deep\.md\) nests'):
            epub.load([deep], [chapter])


class PandocTimeLimitTest(unittest.TestCase):
    """tools.md RD01 (issue 35 goal 5): a Pandoc run past its limit is stopped, naming the chapter;
    a chapter of 15 nested brackets took it over a minute a run, silently."""

    def test_a_pandoc_run_past_its_limit_names_the_chapter(self):
        bin_dir = tempfile.mkdtemp(prefix='slow-pandoc.')
        self.addCleanup(shutil.rmtree, bin_dir)
        with open(os.path.join(bin_dir, 'pandoc'), 'w') as f:
            f.write('#!/bin/sh\nexec sleep 60\n')
        os.chmod(os.path.join(bin_dir, 'pandoc'), 0o755)
        saved_path, saved_limit = os.environ['PATH'], pages.PANDOC_SECONDS
        os.environ['PATH'] = bin_dir + os.pathsep + saved_path
        pages.PANDOC_SECONDS = 1
        try:
            chapter = {'markdown': 'build/book/woven/9.9-slow.md', 'source': 'chapters/9.9-slow.md'}
            with self.assertRaisesRegex(RuntimeError, r'pandoc ran over 1 s on build/book/woven/9\.9-slow\.md '
                                        r'\(woven from chapters/9\.9-slow\.md\) and was stopped'):
                pages.run_pandoc(['--to', 'html5'], {}, pages.named(chapter), 'x')
            with self.assertRaisesRegex(RuntimeError, r'pandoc ran over 1 s on .*9\.9-slow\.md\) for the EPUB'):
                epub.chapter_ast(dict(chapter, basename='9.9-slow', text='x', id='9.9', title='Slow'), bin_dir,
                                 type('State', (), {'unchanged': lambda *a: False})(), 'v')
        finally:
            os.environ['PATH'], pages.PANDOC_SECONDS = saved_path, saved_limit


class UnreadableMathTest(unittest.TestCase):
    """A woven number inside display maths (4.3b had one): Pandoc warns and prints the TeX as
    text, exit 0; the renderer makes that an error that names the page and says what to move."""

    def test_a_woven_number_inside_maths_is_an_error(self):
        text = '$$t \\approx [1024]{.measured title="x : y"}.$$\n'
        with self.assertRaises(RuntimeError) as caught:
            pages.run_pandoc(['--from', pages.MARKDOWN, '--to', 'html5', '--mathml'], {}, 'x.md', text)
        self.assertIn('x.md', str(caught.exception))
        self.assertIn('out of the maths', str(caught.exception))

    def test_readable_maths_passes(self):
        with contextlib.redirect_stdout(io.StringIO()):
            pages.run_pandoc(['--from', pages.MARKDOWN, '--to', 'html5', '--mathml'], {}, 'x.md',
                             '$$t \\approx 1024.$$\n')


if __name__ == '__main__':
    unittest.main(argv=sys.argv[:1] + sys.argv[1:])
