"""The book's downloads page (downloads.html): every chapter's download, what it holds, its size
and the programs it builds, after what all of them share, said once: the prerequisites (which
chapters need a GPU of compute capability 9.0), the steps that build and run one, and how the
numbers it prints relate to the book's (`make measure`). The words are download_guide's, which
also writes each download's README, so the page and the READMEs say the same.

  body(chapters, entries)      the page's HTML (entries: [(chapter, href, bytes, facts)])
  build(book_title, chapters, hrefs, src_dir, out_dir)   writes downloads.html; returns its path"""
import html
import os
import re

import download_guide
import downloads
from pages import html_page, page_name
from stamps import read_bytes

NAME = 'downloads.html'
CODE = re.compile(r'`([^`]+)`')


def inline(markdown_text):
    """The guide's few Markdown marks (backquoted code) as HTML, the rest escaped."""
    return CODE.sub(lambda m: '<code>%s</code>' % m.group(1), html.escape(markdown_text, quote=False))


def size(n):
    return '%d kB' % round(n / 1000) if n < 1000000 else '%.1f MB' % (n / 1e6)


def anchor(chapter):
    return 'download-' + re.sub(r'[^A-Za-z0-9-]', '-', chapter['id'])


def entry_href(chapter):
    """Where a chapter's page sends its reader for its code: its entry on the downloads page (what
    is inside, what it needs, how to build and run it), which links the archive."""
    return NAME + '#' + anchor(chapter)


def chapter_link(chapter):
    return '<a href="%s">%s</a>' % (html.escape(page_name(chapter)), html.escape(chapter['id']))


def entry_html(chapter, href, n_bytes, facts):
    programs = ', '.join('<code>%s</code> (%s)' % (html.escape(name), 'tests' if kind == 'test' else 'benchmarks')
                         for name, kind in facts['programs'])
    held = ['<code>src/%s/</code>' % html.escape(f) for f in facts['folders'] if f != 'bench']
    if 'bench' in facts['folders']:
        held.append('the harness, <code>src/bench/</code>' if chapter['src'] != 'bench' else '<code>src/bench/</code>, whole')
    parts = ['<h3 id="%s">%s %s</h3>' % (anchor(chapter), html.escape(chapter['id']), html.escape(chapter['title'])),
             '<p><a href="%s" download>%s</a>, %s: %s, %d files, a CMakeLists.txt and a README. Builds %s. '
             '<a href="%s">Read the chapter</a>.%s</p>'
             % (html.escape(href), html.escape(os.path.basename(href)), size(n_bytes), ', '.join(held),
                facts['files'], programs or 'a library', html.escape(page_name(chapter)),
                ' <strong>Needs compute capability 9.0</strong> for its Hopper kernels.' if facts['sm90a'] else '')]
    return '\n'.join(parts)


def body(chapters, entries):
    hopper = [chapter_link(c) for c, _, _, f in entries if f['sm90a']]
    first = entries[0][3] if entries else None
    prerequisites = download_guide.prerequisites(dict(first, sm90a=[])) if first else []
    prerequisites[-1:] = ['an NVIDIA GPU to run the tests and benchmarks; of compute capability 9.0 (an H100 '
                          'or H200) for the Hopper kernels of %s, whose tests and benchmarks skip on any other '
                          'GPU. Without a GPU the code still builds (for compute capability 9.0) and the GPU '
                          'tests skip' % (', '.join(hopper) or 'no chapter')] if first else []
    example = next(((c, f) for c, _, _, f in entries if f['programs']), None)
    parts = ['<h1 class="title">Downloads</h1>', '<p>Each chapter\'s code, as the book tangles it from the chapter, with the harness it builds on '
             'and a CMakeLists.txt, so that it builds, tests and runs on its own, outside the book\'s '
             'repository. Each archive\'s README says what this page says.</p>',
             '<h2 id="prerequisites">Prerequisites</h2>', '<ul>']
    parts += ['<li>%s</li>' % (p if p.startswith('an NVIDIA GPU to run the tests and benchmarks;') else inline(p))
              for p in prerequisites]
    parts += ['</ul>', '<h2 id="build-and-run">Build and run</h2>']
    if example:
        chapter, facts = example
        parts += ['<p>Unpack an archive and, from its folder (here chapter %s\'s):</p>' % chapter_link(chapter),
                  '<div class="code"><div class="code-head"><button type="button" class="copy" '
                  'aria-label="Copy this code">Copy</button></div>\n'
                  '<pre><code>tar xzf %s.tar.gz &amp;&amp; cd %s\n%s</code></pre></div>'
                  % (html.escape(facts['top']), html.escape(facts['top']),
                     html.escape('\n'.join(download_guide.run_steps(facts)))),
                  '<p>Each archive builds <code>&lt;folder&gt;_test</code> and <code>&lt;folder&gt;_bench</code> '
                  'for its chapter\'s folder of <code>src/</code>, named in its entry below.</p>']
    parts += ['<h2 id="numbers">Its numbers and the book\'s</h2>', '<p>%s</p>' % inline(download_guide.against_measure()),
              '<h2 id="the-downloads">The downloads</h2>']
    parts += [entry_html(*e) for e in entries]
    return '\n'.join(parts) + '\n'


def entries(chapters, hrefs, src_dir, out_dir):
    found = []
    for chapter, href in zip(chapters, hrefs):
        if not href:
            continue
        files = [(rel, read_bytes(path)) for rel, path in downloads.chapter_files(src_dir, chapter)]
        facts = download_guide.facts(chapter, files, downloads.archive_name(chapter))
        found.append((chapter, href, os.path.getsize(os.path.join(out_dir, href)), facts))
    return found


def build(book_title, chapters, hrefs, src_dir, out_dir, work_dir):
    """downloads.html through the book's template (a page like the front page)."""
    return html_page(body(chapters, entries(chapters, hrefs, src_dir, out_dir)), NAME, out_dir, work_dir, book_title,
                     'Downloads', 'Downloads', 'the downloads page')
