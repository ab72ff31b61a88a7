"""The book's renderer: book/render.sh OUT_DIR WOVEN_DIR [--src DIR].

Reads the weaver's output (WOVEN_DIR: <chapter>.md, book.json, roofline-inputs.json) and the
tangled code (src/), and writes the book into OUT_DIR: a page per chapter and an index, style.css,
book.js, search-index.js and minisearch.js (the search library, from npm), print.html (the whole
book on one page), figures/, downloads/, api/ (Doxygen) and the EPUB.

Incremental and safe: OUT_DIR is copied as hard links into a staging folder beside it; only the
outputs whose inputs changed (a digest per output, kept in .render/stamps.json) are made again,
each written as a new file renamed into place; then the staging folder replaces OUT_DIR whole.
A failure leaves the previous book as it was."""
import argparse
import concurrent.futures
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
import epub
import front
import pages
import print_view
import search_index
from stamps import State, digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
REPO = os.path.dirname(BOOK)
ROOFLINE = os.path.join(REPO, 'figures', 'roofline.py')
PLOTS = os.path.join(REPO, 'figures', 'plots')   # one script a figure: PLOT RECORDS_DIR OUT_DIR
ASSETS = ['style.css', 'book.js']
MINISEARCH_DIR = os.path.join(BOOK, 'node_modules', 'minisearch')
MINISEARCH = os.path.join(MINISEARCH_DIR, 'dist', 'umd', 'index.js')
MINISEARCH_LICENSE = os.path.join(MINISEARCH_DIR, 'LICENSE.txt')
try:
    with open(os.path.join(MINISEARCH_DIR, 'package.json')) as _f:
        MINISEARCH_VERSION = json.load(_f)['version']
except (OSError, ValueError, KeyError):
    MINISEARCH_VERSION = '?'


def stage(out):
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
    this GPU's records. Unchanged, no script runs (each costs a Python and a matplotlib start)."""
    inputs = os.path.join(woven, 'roofline-inputs.json')
    records = records_dir(woven)
    files = list(scripts) + sorted(glob.glob(os.path.join(REPO, 'figures', '*.py'))) + \
        ([inputs] if os.path.exists(inputs) else []) + sorted(glob.glob(os.path.join(records, '*.json')))
    return digest([(os.path.relpath(f, REPO), read_bytes(f)) for f in files])


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


def draw_plots(woven, staging, state=None):
    """Runs every figures/plots/*.py on this GPU's records; each writes its own SVG into figures/."""
    records = records_dir(woven)
    scripts = sorted(glob.glob(os.path.join(PLOTS, '*.py')))
    key = figures_key(woven, *scripts)
    if state is not None and state.unchanged('figures:plots', key, os.path.join(staging, 'figures')):
        return ('figures:plots', key)
    for script in scripts:
        done = subprocess.run([sys.executable, script, records, os.path.join(staging, 'figures')],
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError('%s failed (exit %d):\n%s' % (os.path.relpath(script, REPO), done.returncode,
                                                            done.stderr.strip()))
    return ('figures:plots', key)


def index_extras(staging, chapters, hrefs):
    extras = [(h, 'Chapter %s: its code, to build on its own' % c['id']) for c, h in zip(chapters, hrefs) if h]
    if os.path.exists(os.path.join(staging, 'figures', 'roofline-book.svg')):
        extras.insert(0, ('figures/roofline-book.svg', 'Every kernel of the book on one roofline'))
    if os.path.exists(os.path.join(staging, 'api', 'index.html')):
        extras.insert(0, ('api/index.html', 'The code\'s API reference (Doxygen)'))
    extras.insert(0, (epub.NAME, 'The whole book as an EPUB'))
    extras.insert(0, ('print.html', 'The whole book on one page, to print or save as PDF'))
    return extras


def render(out, woven, src_dir, jobs):
    title, chapters = book_index.read(woven, REPO)
    staging = stage(out)
    try:
        state = State(staging)
        made = []
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(2, jobs)) as pool:
            api_job = pool.submit(apidocs.build, chapters, src_dir, staging, state)
            figure_job = pool.submit(draw_figures, woven, staging, state)
            plot_job = pool.submit(draw_plots, woven, staging, state)
            download_jobs = [pool.submit(downloads.build, c, src_dir, staging, state) for c in chapters]
            map_file, map_digest, api_record = api_job.result()
            figure_records = [r for r in (figure_job.result(), plot_job.result()) if r]
            download_results = [j.result() for j in download_jobs]
            hrefs = [href for href, _ in download_results]
            records = [r for _, r in download_results if r] + ([api_record] if api_record else []) + figure_records

            tools = pages.toolchain_digest()
            salt = pages.code_salt()
            page_jobs = {}
            for i, chapter in enumerate(chapters):
                key = pages.chapter_digest(title, chapters, i, hrefs[i], map_digest, tools)
                name = 'page:' + chapter['basename']
                target = os.path.join(staging, pages.page_name(chapter))
                fragment = os.path.join(staging, search_index.FRAGMENTS, chapter['basename'] + '.json')
                if not state.unchanged(name, key, target, fragment):
                    page_jobs[i] = (pool.submit(pages.render_chapter, title, chapters, i, hrefs[i], map_file, staging,
                                                salt),
                                    (name, key))
            extras = index_extras(staging, chapters, hrefs)
            measurements = records_dir(woven)
            index_key = digest(title, [[c['id'], c['title'], c['basename'], c['stale'], c['measured']] for c in chapters],
                               extras, tools, front.inputs(measurements), read_bytes(front.__file__))
            if not state.unchanged('index', index_key, os.path.join(staging, 'index.html')):
                page_jobs['index'] = (pool.submit(pages.render_index, title, chapters, extras, measurements, staging,
                                                  os.path.join(staging, '.render')), ('index', index_key))
            # A prose edit: the page is what the writer waits for, so the EPUB (a Pandoc run over the
            # whole book) is made after the new pages are in place (below); a larger render runs it
            # beside the pages.
            epub_job = pool.submit(epub.build, title, chapters, staging, state) if len(page_jobs) > 2 else None
            for i, (job, record) in page_jobs.items():
                path = job.result()
                records.append(record)
                if i != 'index':
                    chapter = chapters[i]
                    search_index.write_fragment(staging, chapter['basename'], search_index.page_entries(
                        path, pages.page_name(chapter), chapter['id'] + ' ' + chapter['title']))
                    made.append(chapter['basename'])
            epub_made = False
            if epub_job is not None:
                epub_record, epub_made = epub_job.result()
                records.append(epub_record)
        entries = search_index.write_index(staging, chapters)
        vendor_search(staging)
        print_view.build(title, chapters, pages.page_name, staging)
        for asset in ASSETS:
            write_file(os.path.join(staging, asset), read_bytes(os.path.join(BOOK, asset)))
        keep = {pages.page_name(c) for c in chapters} | {'index.html', 'print.html'}
        for orphan in glob.glob(os.path.join(staging, '*.html')):
            if os.path.basename(orphan) not in keep:
                os.unlink(orphan)
        for name, key in records:
            state.record(name, key)
        state.save()
        swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    if epub_job is None:
        # the pages are in place; the EPUB is written into the book where it stands (a new file
        # renamed over the old one), and its digest recorded once it is there
        state = State(out)
        epub_record, epub_made = epub.build(title, chapters, out, state)
        state.record(*epub_record)
        state.save()
    return len(chapters), made, epub_made, entries


def main(argv):
    parser = argparse.ArgumentParser(prog='book/render.sh', description=__doc__.split('\n')[0])
    parser.add_argument('out_dir', help='where the book goes (build/book)')
    parser.add_argument('woven_dir', help="the weaver's output (build/book/woven)")
    parser.add_argument('--src', default=os.path.join(REPO, 'src'), help='the tangled code (default: src/)')
    parser.add_argument('--jobs', type=int, default=os.cpu_count() or 2, help='parallel Pandoc runs')
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        count, made, epub_made, entries = render(os.path.abspath(args.out_dir), os.path.abspath(args.woven_dir),
                                                 os.path.abspath(args.src), args.jobs)
    except (book_index.BookError, apidocs.ApiError, front.FrontError, RuntimeError, OSError) as e:
        print('book/render.sh: %s\nbook/render.sh: the previous book in %s is unchanged.' % (e, args.out_dir),
              file=sys.stderr)
        return 1
    print('render: %d chapter(s), %d page(s) re-rendered%s%s, %d search entries, %.2f s -> %s'
          % (count, len(made), ' (' + ', '.join(made) + ')' if made else '', ', EPUB remade' if epub_made else '',
             entries, time.monotonic() - start, args.out_dir))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
