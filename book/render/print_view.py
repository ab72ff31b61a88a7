"""The whole book on one page, for printing (print.html): each chapter page's <main>, in book
order, in a <section> of its own. Ids are made unique by the chapter's page name
(3.1-reduction.html's "the-first-version" becomes "3.1-reduction--the-first-version"), and every
link between chapter pages becomes a link inside this page. The apparatus (tests, benchmark
registrations, launchers: book/CONVENTIONS.md) stays folded, so it prints as its one-line summary
(the file, its length) and the printed book is the chapters' argument; each chapter's download
holds it whole."""
import html
import os
import re

from stamps import digest, read_bytes, write_file

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


def build(book_title, chapters, page_name, out_dir, state):
    """print.html, made again if a page changed; returns the state record."""
    texts = [read_bytes(os.path.join(out_dir, page_name(c))) for c in chapters]
    key = digest(book_title, [[page_name(c), c['id'], c['title']] for c in chapters], texts, read_bytes(__file__))
    if state.unchanged('print', key, os.path.join(out_dir, 'print.html')):
        return 'print', key
    pages = {page_name(c) for c in chapters}
    sections = []
    for chapter, text in zip(chapters, texts):
        name = page_name(chapter)
        body = chapter_body(text.decode('utf-8'), name[:-len('.html')], pages)
        sections.append('<section class="print-chapter" id="%s">\n%s\n</section>'
                        % (html.escape(name[:-len('.html')]), body))
    contents = ''.join('<li><a href="#%s">%s %s</a></li>' % (
        html.escape(page_name(c)[:-len('.html')]), html.escape(c['id']), html.escape(c['title']))
        for c in chapters)
    page = ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            '<meta name="color-scheme" content="light">\n<title>%s: the whole book</title>\n'
            '<link rel="stylesheet" href="style.css">\n</head>\n<body class="print-view">\n'
            '<div class="layout"><main id="content">\n<h1 class="title">%s</h1>\n'
            '<p class="chapter-meta">The whole book on one page, to print or to save as PDF. Tests, '
            'benchmark registrations and launchers print folded, as one line naming the file: each '
            'chapter\'s code download holds them. <a href="index.html">Back to the book</a>.</p>\n<ol class="print-contents">%s</ol>\n%s\n'
            '</main></div>\n</body>\n</html>\n') % (html.escape(book_title), html.escape(book_title),
                                                    contents, '\n'.join(sections))
    write_file(os.path.join(out_dir, 'print.html'), page)
    return 'print', key
