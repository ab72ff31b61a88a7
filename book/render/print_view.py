"""The whole book on one page, for printing (print.html): each chapter page's <main>, in book
order, in a <section> of its own. Ids are made unique by the chapter's page name
(3.1-reduction.html's "the-first-version" becomes "3.1-reduction--the-first-version"), and every
link between chapter pages becomes a link inside this page. The apparatus (tests, benchmark
registrations, launchers: book/CONVENTIONS.md) stays folded, so it prints as its one-line summary
(the file, its length) and the printed book is the chapters' argument; each chapter's download
holds it whole.

Printed, it opens with front matter: a title page (the title, book/metadata.yaml's author, the day
of the newest measurement), the contents, and the front page's words (index.html's <main> without
its title and its list of the book's other outputs). Each chapter is a CSS named page whose
running head is its number and title (@page ... @top-center; Chromium prints margin boxes). The
contents have no page numbers in print.html itself: Chromium (156) does not implement
target-counter(), so book/render/print_pdf.py prints the book once, reads where each chapter
starts, writes the numbers in (with_page_numbers) and prints it again."""
import html
import os
import re

from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
METADATA = os.path.join(os.path.dirname(HERE), 'metadata.yaml')

MAIN = re.compile(r'<main id="content">(.*)</main>', re.S)
ID = re.compile(r'\bid="([^"]*)"')
HREF = re.compile(r'\bhref="([^"]*)"')


def chapter_body(page_html, base, pages):
    body = MAIN.search(page_html).group(1)
    body = re.sub(r'<nav class="pager[^"]*".*?</nav>', '', body, flags=re.S)
    body = ID.sub(lambda m: 'id="%s--%s"' % (base, m.group(1)), body)

    def href(m):
        target = html.unescape(m.group(1))
        if target.startswith('#'):
            return 'href="#%s--%s"' % (html.escape(base), html.escape(target[1:]))
        page, _, anchor = target.partition('#')
        page = page.split('?')[0]
        if page in pages:
            other = page[:-len('.html')]
            return 'href="#%s"' % html.escape(other + ('--' + anchor if anchor else ''))
        return m.group(0)

    return HREF.sub(href, body)


def author():
    """book/metadata.yaml's author: line, or ''."""
    try:
        with open(METADATA, encoding='utf-8') as f:
            found = re.search(r'^author:\s*(.+?)\s*$', f.read(), re.M)
    except OSError:
        return ''
    return found.group(1).strip('"\'') if found else ''


def front_body(index_html, pages):
    """The front page's words for the front matter: index.html's <main> without its title and without
    its list of the book's other outputs (h2#also to the end), its links made internal."""
    if not MAIN.search(index_html):
        return ''
    body = chapter_body(index_html, 'index', pages)
    body = re.sub(r'<h1\b.*?</h1>', '', body, count=1, flags=re.S)
    return re.sub(r'<h2 id="index--also".*', '', body, flags=re.S)


def running_head(text):
    """A CSS string of text (a margin box's content)."""
    return '"%s"' % text.replace('\\', '\\\\').replace('"', '\\"').replace('\n', ' ')


# Print-only rules of this page (book/style.css holds the rules every page prints with): the front
# matter's pages, the running heads, the contents' leaders, and no disclosure triangles.
PRINT_CSS = """@media print {
  @page front-matter { @top-center { content: %s; font: italic 9pt/1 Charter, Georgia, serif; color: #444; } }
  %s
  .print-title { page: title; break-after: page; text-align: center; padding-top: 30vh; }
  .print-title h1 { font-size: 26pt; margin-bottom: 1.5em; }
  .print-title p { font-size: 12pt; margin: .4em 0; }
  nav.print-contents { break-after: page; }
  .print-front { page: front-matter; break-after: page; }
  ol.print-contents { list-style: none; padding: 0; }
  ol.print-contents li { display: flex; gap: .5em; }
  ol.print-contents li a { flex: 0 1 auto; }
  ol.print-contents li .leader { flex: 1 1 auto; border-bottom: 1px dotted #888; margin-bottom: .35em; }
  ol.print-contents li .page-number { flex: 0 0 auto; }
  .screen-only { display: none; }
  summary { list-style: none; }
  summary::marker, summary::-webkit-details-marker { content: none; display: none; }
}
@media screen { .print-title { text-align: center; } ol.print-contents li .leader { display: none; } }
"""


def contents(chapters, page_name, numbers=None):
    numbers = numbers or {}
    return ''.join('<li><a href="#%s">%s</a><span class="leader"></span><span class="page-number">%s</span></li>' % (
        html.escape(page_name(c)[:-len('.html')]), html.escape(('%s %s' % (c['id'], c['title'])).strip()),
        numbers.get(page_name(c)[:-len('.html')], '')) for c in chapters)


def with_page_numbers(page_html, numbers):
    """print.html with each chapter's first page (numbers: {chapter's page name without .html: n})
    written into its contents' line."""
    def fill(m):
        return '%s%s%s' % (m.group(1), numbers.get(html.unescape(m.group(2)), ''), m.group(3))
    return re.sub(r'(<li><a href="#([^"]+)">[^<]*</a><span class="leader"></span><span class="page-number">)'
                  r'[^<]*(</span>)', fill, page_html)


def measured_day(chapters):
    days = sorted((c.get('measured') or '')[:10] for c in chapters if re.match(r'\d{4}-\d\d-\d\d', c.get('measured') or ''))
    return days[-1] if days else ''


INDEX = {'id': '', 'title': 'Index', 'basename': 'index-of-terms'}


def build(book_title, chapters, page_name, out_dir, state):
    """print.html, made again if a page changed; returns the state record."""
    # the Index (index_terms.py) prints last, as a chapter of its own: its places link inside this page
    if os.path.exists(os.path.join(out_dir, INDEX['basename'] + '.html')):
        chapters = list(chapters) + [INDEX]
    texts = [read_bytes(os.path.join(out_dir, page_name(c))) for c in chapters]
    index_path = os.path.join(out_dir, 'index.html')
    index_text = read_bytes(index_path) if os.path.exists(index_path) else b''
    key = digest(book_title, [[page_name(c), c['id'], c['title'], c.get('measured')] for c in chapters], texts,
                 index_text, read_bytes(__file__), read_bytes(METADATA) if os.path.exists(METADATA) else b'')
    if state.unchanged('print', key, os.path.join(out_dir, 'print.html')):
        return 'print', key
    pages = {page_name(c) for c in chapters} | {'index.html'}
    sections, heads = [], []
    for n, (chapter, text) in enumerate(zip(chapters, texts)):
        name = page_name(chapter)
        body = chapter_body(text.decode('utf-8'), name[:-len('.html')], pages)
        sections.append('<section class="print-chapter" id="%s" style="page: chapter-%d">\n%s\n</section>'
                        % (html.escape(name[:-len('.html')]), n, body))
        heads.append('@page chapter-%d { @top-center { content: %s; font: italic 9pt/1 Charter, Georgia, serif; '
                     'color: #444; } }' % (n, running_head(('%s %s' % (chapter['id'], chapter['title'])).strip())))
    day = measured_day(chapters)
    title_page = ('<section class="print-title">\n<h1 class="title">%s</h1>\n%s%s</section>\n'
                  % (html.escape(book_title), '<p class="author">%s</p>\n' % html.escape(author()) if author() else '',
                     '<p class="date">Its numbers measured up to %s</p>\n' % html.escape(day) if day else ''))
    front = front_body(index_text.decode('utf-8'), pages)
    page = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="color-scheme" content="light">\n<title>%s: the whole book</title>\n'
            '<link rel="stylesheet" href="style.css">\n<style>\n%s</style>\n</head>\n<body class="print-view">\n'
            '<div class="layout"><main id="content">\n%s'
            '<p class="chapter-meta screen-only">The whole book on one page, to print or to save as PDF. Tests, '
            'benchmark registrations and launchers print folded, as one line naming the file: each '
            'chapter\'s code download holds them. <a href="index.html">Back to the book</a>.</p>\n'
            '<nav class="print-contents" aria-label="Contents"><h2>Contents</h2>\n<ol class="print-contents">%s</ol></nav>\n'
            '%s\n%s\n</main></div>\n</body>\n</html>\n') % (
                html.escape(book_title), PRINT_CSS % (running_head('About this book'), '\n  '.join(heads)),
                title_page, contents(chapters, page_name),
                '<section class="print-front" id="index">\n%s\n</section>' % front if front else '', '\n'.join(sections))
    write_file(os.path.join(out_dir, 'print.html'), page)
    return 'print', key
