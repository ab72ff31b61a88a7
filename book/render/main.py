"""The book's renderer: book/render.sh OUT_DIR WOVEN_DIR [--src DIR] [--index-terms DIR].

Reads the weaver's output (WOVEN_DIR: <chapter>.md, book.json, roofline-inputs.json) and the
tangled code (src/), and writes the book into OUT_DIR: a page per chapter, the front page, the
Index (index-of-terms.html, from book/index-terms/), style.css,
book.js, search-index.js and minisearch.js (the search library, from npm), print.html (the whole
book on one page), figures/, downloads/, api/ (Doxygen) and the EPUB.

Incremental: only the outputs whose inputs changed (a digest per output, kept in
.render/stamps.json) are made again, each written as a new file renamed into place. Two steps:
1. the pages, the index, figures, downloads and api/ are made in a staging folder (OUT_DIR copied
   as hard links), which then replaces OUT_DIR whole: a failure here leaves the previous book as
   it was. After a prose edit this is the one page, so the writer sees it as soon as it can be
   (the renderer prints when: "pages in place after").
2. what is made from all the pages or all the chapters, in OUT_DIR where it stands: the search
   index, the print view and the EPUB. A failure here leaves the new pages with the previous
   index, print view and EPUB, and the next run makes these again."""
import argparse
import concurrent.futures
import contextlib
import fcntl
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import apidocs
import book_index
import downloads
import downloads_page
import epub
import front
import index_terms
import pages
import print_view
import search_index
import told
from stamps import State, digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
REPO = os.path.dirname(BOOK)
ROOFLINE = os.path.join(REPO, 'figures', 'roofline.py')
PLOTS = os.path.join(REPO, 'figures', 'plots')   # one script a figure: PLOT RECORDS_DIR OUT_DIR
FIGURE_RUNNER = os.path.join(HERE, 'figure_runner.py')
ASSETS = ['style.css', 'book.js', 'search-core.js']
MINISEARCH_DIR = os.path.join(BOOK, 'node_modules', 'minisearch')
MINISEARCH = os.path.join(MINISEARCH_DIR, 'dist', 'umd', 'index.js')
MINISEARCH_LICENSE = os.path.join(MINISEARCH_DIR, 'LICENSE.txt')
try:
    with open(os.path.join(MINISEARCH_DIR, 'package.json')) as _f:
        MINISEARCH_VERSION = json.load(_f)['version']
except (OSError, ValueError, KeyError):
    MINISEARCH_VERSION = '?'


def stage(out):
    """A staging folder beside OUT_DIR holding OUT_DIR's files as hard links. Called under
    exclusive(out): every other book.tmp.* and book.old.* is a killed run's leftover."""
    parent, name = os.path.split(out.rstrip('/'))
    os.makedirs(parent, exist_ok=True)
    for leftover in glob.glob(os.path.join(parent, name + '.tmp.*')) + glob.glob(os.path.join(parent, name + '.old.*')):
        shutil.rmtree(leftover, ignore_errors=True)
    staging = tempfile.mkdtemp(prefix=name + '.tmp.', dir=parent)
    os.chmod(staging, 0o755)
    if os.path.isdir(out):
        subprocess.run(['cp', '-al', out + '/.', staging], check=True)
    return staging


def swap(staging, out):
    if os.path.exists(out):
        old = '%s.old.%d' % (out.rstrip('/'), os.getpid())
        os.rename(out, old)
        os.rename(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(staging, out)


def figures_key(woven, *scripts):
    """What the figures are drawn from: the scripts, their helpers, the weaver's roofline inputs and
    this GPU's records. Unchanged, no script runs (each costs a Python and a matplotlib start).
    Each file is named by its path in the repository, the inputs by their name in the woven folder:
    where that folder lies draws nothing different (a copy of a rendered book, the render tests'
    way, drew every figure again at its first render, about 14 s of CPU on the test fixture)."""
    inputs = os.path.join(woven, 'roofline-inputs.json')
    records = records_dir(woven)
    files = list(scripts) + sorted(glob.glob(os.path.join(REPO, 'figures', '*.py'))) + \
        sorted(glob.glob(os.path.join(records, '*.json')))
    named = [(os.path.relpath(f, REPO), read_bytes(f)) for f in files]
    if os.path.exists(inputs):
        named.append(('<woven>/roofline-inputs.json', read_bytes(inputs)))
    return digest(named)


def draw_figures(woven, staging, state=None):
    inputs = os.path.join(woven, 'roofline-inputs.json')
    if not os.path.exists(inputs):
        print('render: no %s: no rooflines drawn' % inputs)
        return
    key = figures_key(woven, ROOFLINE)
    if state is not None and state.unchanged('figures:roofline', key, os.path.join(staging, 'figures')):
        return ('figures:roofline', key)
    done = subprocess.run([sys.executable, ROOFLINE, inputs, os.path.join(staging, 'figures')],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('figures/roofline.py failed (exit %d):\n%s' % (done.returncode, done.stderr.strip()))
    return ('figures:roofline', key)


def records_dir(woven):
    """book/measurements/<gpu-slug>/ of the GPU the weaver wove for (roofline-inputs.json)."""
    inputs = os.path.join(woven, 'roofline-inputs.json')
    slug = ''
    if os.path.exists(inputs):
        with open(inputs) as f:
            slug = json.load(f).get('gpu_slug') or ''
    return os.path.join(BOOK, 'measurements', slug)


def vendor_search(staging):
    """The search library (MiniSearch, from npm: make deps runs npm ci in book/) into the book."""
    if not os.path.exists(MINISEARCH):
        raise RuntimeError('%s is missing: run make deps (it installs the search library with npm ci in book/)'
                           % os.path.relpath(MINISEARCH, REPO))
    license_text = read_bytes(MINISEARCH_LICENSE)
    write_file(os.path.join(staging, 'minisearch.js'),
               b'/* MiniSearch ' + MINISEARCH_VERSION.encode() + b' (npm), vendored by make book. License:\n'
               + license_text.replace(b'*/', b'* /') + b'*/\n' + read_bytes(MINISEARCH))


def plots_to_draw(woven, staging, state):
    """The figures/plots/*.py scripts to run on this GPU's records (each writes its own SVG into
    figures/): all of them if any input changed, else none; and the state record."""
    scripts = sorted(glob.glob(os.path.join(PLOTS, '*.py')))
    key = figures_key(woven, *scripts)
    if state is not None and state.unchanged('figures:plots', key, os.path.join(staging, 'figures')):
        return [], ('figures:plots', key)
    return scripts, ('figures:plots', key)


def draw_plots(scripts, woven, staging, jobs):
    """Each plot script run as `python3 SCRIPT RECORDS_DIR FIGURES_DIR` runs it, JOBS at a time, in
    one process that imports Matplotlib once and forks a child a script (figure_runner.py: 16
    scripts cost 13 CPU s as a Python each, Matplotlib's import most of it)."""
    if not scripts:
        return
    done = subprocess.run([sys.executable, FIGURE_RUNNER, str(jobs),
                           json.dumps([records_dir(woven), os.path.join(staging, 'figures')])] + list(scripts),
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip() or 'figure_runner.py failed (exit %d)' % done.returncode)


def index_extras(staging, chapters, hrefs):
    extras = [(downloads_page.NAME, 'Each chapter\'s code, to build and run on its own: the downloads')] if any(hrefs) else []
    if os.path.exists(os.path.join(staging, 'figures', 'roofline-book.svg')):
        extras.insert(0, ('figures/roofline-book.svg', 'Every kernel of the book on one roofline'))
    if os.path.exists(os.path.join(staging, 'api', 'index.html')):
        extras.insert(0, ('api/index.html', 'The code\'s API reference (Doxygen)'))
    extras.insert(0, (index_terms.NAME, 'The index: the book\'s terms, and the sections that teach each'))
    extras.insert(0, (epub.NAME, 'The whole book as an EPUB'))
    extras.insert(0, ('print.html', 'The whole book on one page, to print or save as PDF'))
    return extras


class PagesInPlace(RuntimeError):
    """Step 2 failed: the new pages are in place, the rest of the book is the previous one."""


@contextlib.contextmanager
def exclusive(out):
    """Holds OUT_DIR.lock (beside OUT_DIR) for a whole render: a second render of the same book
    (a second make book, an editor's watch loop) waits for the first instead of deleting its
    staging folder under it. The kernel drops the lock when the process ends, killed or not."""
    path = out.rstrip('/') + '.lock'
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'a') as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print('render: another render of %s is running; waiting for it to finish (%s)' % (out, path),
                  file=sys.stderr)
            fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def render(out, woven, src_dir, jobs, index_dir=index_terms.FOLDER):
    """Makes the book; returns (chapters, pages made, seconds until they were in place, EPUB
    remade, search entries)."""
    with exclusive(out):   # the lock beside OUT_DIR as given: the weaver's --lock names that one
        # the book made where OUT_DIR's links lead: a link build/book -> a published copy was renamed
        # away by the swap and a folder put in its place, the copy never updated, the link left as
        # book.old.PID (tools.md RD02)
        return render_locked(os.path.realpath(out), woven, src_dir, jobs, index_dir)


def render_locked(out, woven, src_dir, jobs, index_dir):
    start = time.monotonic()
    title, chapters = book_index.read(woven, REPO)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, jobs)) as pool:
        made = stage_pages(out, woven, src_dir, title, chapters, pool, jobs, index_dir)
        ready = time.monotonic() - start
        try:
            epub_made, entries = from_the_pages(out, title, chapters, pool, index_dir)
        except (apidocs.ApiError, RuntimeError, OSError) as e:
            raise PagesInPlace(e)
    return len(chapters), made, ready, epub_made, entries


def stage_pages(out, woven, src_dir, title, chapters, pool, jobs, index_dir):
    """Step 1: the pages and what they link to, made in a staging folder that replaces OUT_DIR."""
    staging = stage(out)
    try:
        state = State(staging)
        made = []
        api_job = pool.submit(apidocs.build, chapters, src_dir, staging, state)
        download_jobs = [pool.submit(downloads.build, c, src_dir, staging, state) for c in chapters]
        map_file, map_digest, api_record = api_job.result()
        download_results = [j.result() for j in download_jobs]
        hrefs = [href for href, _ in download_results]
        # a chapter's page links its entry on the downloads page, not the bare archive
        links = [downloads_page.entry_href(c) if href else '' for c, href in zip(chapters, hrefs)]
        records = [r for _, r in download_results if r] + ([api_record] if api_record else [])

        # the pages first (after a prose edit the writer waits for one of them), then the figures:
        # the pool runs its jobs in that order
        tools = pages.toolchain_digest()
        salt = pages.code_salt()
        page_jobs = {}
        for i, chapter in enumerate(chapters):
            key = pages.chapter_digest(title, chapters, i, links[i], map_digest, tools)
            name = 'page:' + chapter['basename']
            if not state.unchanged(name, key, os.path.join(staging, pages.page_name(chapter))):
                page_jobs[i] = (pool.submit(pages.render_chapter, title, chapters, i, links[i], map_file, staging,
                                            salt), (name, key))
        figure_job = pool.submit(draw_figures, woven, staging, state)
        scripts, plots_record = plots_to_draw(woven, staging, state)
        plot_jobs = [pool.submit(draw_plots, scripts, woven, staging, jobs)]

        records += [r for r in [figure_job.result()] if r] + [plots_record]
        for job in plot_jobs:
            job.result()
        extras = index_extras(staging, chapters, hrefs)
        if any(hrefs):
            downloads_page.build(title, chapters, hrefs, src_dir, staging, os.path.join(staging, '.render'))
        measurements = records_dir(woven)
        index_key = digest(title, [[c['id'], c['title'], c['basename'], c['stale'], c['measured'], c['claims'], c['book']]
                                   for c in chapters],
                           extras, tools, front.inputs(measurements), read_bytes(front.__file__),
                           read_bytes(told.__file__))
        if not state.unchanged('index', index_key, os.path.join(staging, 'index.html')):
            page_jobs['index'] = (pool.submit(pages.render_index, title, chapters, extras, measurements, staging,
                                              os.path.join(staging, '.render')), ('index', index_key))
        for i, (job, record) in page_jobs.items():
            job.result()
            records.append(record)
            if i != 'index':
                made.append(chapters[i]['basename'])
        # the Index page, once the pages it points into are made: an entry whose anchor is no
        # heading of its chapter stops the render here, naming its file and line
        index_terms.build(title, chapters, staging, os.path.join(staging, '.render'), index_dir)
        vendor_search(staging)
        for asset in ASSETS:
            write_file(os.path.join(staging, asset), read_bytes(os.path.join(BOOK, asset)))
        keep = {pages.page_name(c) for c in chapters} | {'index.html', 'print.html', downloads_page.NAME, index_terms.NAME}
        for orphan in glob.glob(os.path.join(staging, '*.html')):
            if os.path.basename(orphan) not in keep:
                os.unlink(orphan)
        for name, key in records:
            state.record(name, key)
        state.save()
        swap(staging, out)
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)   # no job left to write into the staging folder
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return made


def from_the_pages(out, title, chapters, pool, index_dir):
    """Step 2, in OUT_DIR as it stands: the EPUB (its chapters' trees, then a Pandoc run over them
    joined) beside the search index and the print view. The state records each only once it is in
    place."""
    state = State(out)
    version = epub.pandoc_version()
    links = epub.link_context(chapters)
    ast_jobs = [pool.submit(epub.chapter_ast, c, out, state, version, links) for c in chapters]
    try:
        records, entries = search_index.build(out, chapters, pages.page_name, state, index_dir)
        records.append(print_view.build(title, chapters, pages.page_name, out, state))
    finally:
        # the chapters' trees are waited for whatever happened above (none is left writing into
        # OUT_DIR), and kept apart: if the search index failed, `records` was never bound, and
        # its error, not an UnboundLocalError, is the one the writer must see
        ast_records = [job.result() for job in ast_jobs]
    records += ast_records
    epub_record, epub_made = epub.build(title, chapters, out, state, index_dir)
    for name, key in records + [epub_record]:
        state.record(name, key)
    state.save()
    return epub_made, entries


def main(argv):
    parser = argparse.ArgumentParser(prog='book/render.sh', description=__doc__.split('\n')[0])
    parser.add_argument('out_dir', help='where the book goes (build/book)')
    parser.add_argument('woven_dir', help="the weaver's output (build/book/woven)")
    parser.add_argument('--src', default=os.path.join(REPO, 'src'), help='the tangled code (default: src/)')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2, help='parallel Pandoc runs')
    parser.add_argument('--index-terms', default=index_terms.FOLDER,
                        help="the book's index entries, a file a chapter (default: book/index-terms/)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        count, made, ready, epub_made, entries = render(os.path.abspath(args.out_dir), os.path.abspath(args.woven_dir),
                                                 os.path.abspath(args.src), args.jobs, os.path.abspath(args.index_terms))
    except PagesInPlace as e:
        print('book/render.sh: %s\nbook/render.sh: the new pages are in %s; its search index, print view and '
              'EPUB are the previous ones (the next run makes them).' % (e, args.out_dir), file=sys.stderr)
        return 1
    except (book_index.BookError, apidocs.ApiError, front.FrontError, RuntimeError, OSError) as e:
        print('book/render.sh: %s\nbook/render.sh: the previous book in %s is unchanged.' % (e, args.out_dir),
              file=sys.stderr)
        return 1
    print('render: %d chapter(s), %d page(s) re-rendered%s (pages in place after %.2f s)%s, %d search entries, '
          '%.2f s -> %s' % (count, len(made), ' (' + ', '.join(made) + ')' if made else '', ready,
                            ', EPUB remade' if epub_made else '', entries, time.monotonic() - start, args.out_dir))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
