#!/usr/bin/python3
"""Renders the fixture book once for the render tests: tests/render/render_fixture.py DIR.

Writes DIR/woven (a copy of fixture/woven) and DIR/book (book/render.sh on it, with fixture/src),
replacing what DIR held. ctest runs it as the fixture `render_book` (FIXTURES_SETUP) before the
tests that read it (FIXTURES_REQUIRED); they find DIR in $RENDERED_FIXTURE and copy it, never write
it. A render that fails fails this test, and ctest then skips the tests that need it."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(HERE, 'fixture')
RENDER = os.path.join(REPO, 'book', 'render.sh')


def render_fixture(folder):
    """The fixture's woven folder and its rendered book in folder/woven and folder/book."""
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    woven, book = os.path.join(folder, 'woven'), os.path.join(folder, 'book')
    shutil.copytree(os.path.join(FIXTURE, 'woven'), woven)
    done = subprocess.run([RENDER, book, woven, '--src', os.path.join(FIXTURE, 'src'),
                           '--index-terms', os.path.join(FIXTURE, 'index-terms')], capture_output=True,
                          text=True)
    if done.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError('rendering the fixture failed (exit %d):\n%s%s' % (done.returncode, done.stdout,
                                                                             done.stderr))
    return woven, book, done.stdout


def rendered_fixture():
    """(folder, made here): the folder holding the rendered fixture (woven/, book/): ctest's
    (render_fixture.py, named in $RENDERED_FIXTURE), read only; else one rendered now into a
    temporary folder, for the caller to remove."""
    shared = os.environ.get('RENDERED_FIXTURE')
    if shared:
        if not os.path.isfile(os.path.join(shared, 'book', 'index.html')):
            raise AssertionError('RENDERED_FIXTURE=%s holds no rendered book: run tests/render/render_fixture.py %s '
                                 '(ctest runs it as render.fixture_book)' % (shared, shared))
        return shared, False
    folder = tempfile.mkdtemp(prefix='render-test-class.')
    try:
        render_fixture(folder)
    except RuntimeError as e:
        shutil.rmtree(folder, ignore_errors=True)
        raise AssertionError(str(e))
    return folder, True


def main(argv):
    if len(argv) != 1:
        print('usage: tests/render/render_fixture.py DIR', file=sys.stderr)
        return 2
    start = time.monotonic()
    try:
        _, _, output = render_fixture(os.path.abspath(argv[0]))
    except RuntimeError as e:
        print('render_fixture: %s' % e, file=sys.stderr)
        return 1
    print(output.strip())
    print('render_fixture: the fixture book rendered once in %.1f s into %s' % (time.monotonic() - start, argv[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
