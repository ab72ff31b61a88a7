"""The search index: every heading and paragraph of every chapter page, with the anchor of the
heading above it. One fragment per chapter is kept in .render/search/ (remade only with its page);
the fragments are joined, in book order, into search-index.js, which book/book.js loads."""
import html.parser
import json
import os

from stamps import write_file

FRAGMENTS = os.path.join('.render', 'search')
TEXT_TAGS = {'p', 'li', 'dd', 'td', 'th', 'figcaption', 'blockquote'}
HEADINGS = {'h1', 'h2', 'h3', 'h4', 'h5', 'h6'}
SKIP = {'pre', 'script', 'style', 'nav', 'header', 'math', 'button'}


class _Collector(html.parser.HTMLParser):
    """Collects (kind, anchor, heading, text) from the <main> element of a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries, self.in_main, self.skip, self.block = [], 0, 0, None
        self.anchor, self.heading, self.text = '', '', []

    def handle_starttag(self, tag, attrs):
        if tag == 'main':
            self.in_main += 1
        if not self.in_main:
            return
        if tag in SKIP:
            self.skip += 1
        elif self.skip == 0 and self.block is None and (tag in HEADINGS or tag in TEXT_TAGS):
            self.block, self.text = tag, []
            if tag in HEADINGS:
                self.anchor = dict(attrs).get('id') or self.anchor

    def handle_endtag(self, tag):
        if tag == 'main':
            self.in_main -= 1
        if not self.in_main:
            return
        if tag in SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == self.block:
            text = ' '.join(''.join(self.text).split())
            if tag in HEADINGS:
                self.heading = text
                self.entries.append(('h', self.anchor, text, text))
            elif text:
                self.entries.append(('p', self.anchor, self.heading, text))
            self.block = None

    def handle_data(self, data):
        if self.in_main and self.block and self.skip == 0:
            self.text.append(data)


def page_entries(page_path, href, chapter_label):
    collector = _Collector()
    with open(page_path, encoding='utf-8') as f:
        collector.feed(f.read())
    return [{'k': k, 'p': href, 'a': a, 'h': h, 't': t, 'c': chapter_label}
            for k, a, h, t in collector.entries]


def write_fragment(out_dir, basename, entries):
    write_file(os.path.join(out_dir, FRAGMENTS, basename + '.json'), json.dumps(entries, ensure_ascii=False))


def write_index(out_dir, chapters):
    """Joins the chapters' fragments into search-index.json and search-index.js."""
    entries = []
    for chapter in chapters:
        path = os.path.join(out_dir, FRAGMENTS, chapter['basename'] + '.json')
        with open(path, encoding='utf-8') as f:
            entries += json.load(f)
    index = json.dumps({'format': 1, 'entries': entries}, ensure_ascii=False, separators=(',', ':'))
    write_file(os.path.join(out_dir, 'search-index.json'), index + '\n')
    write_file(os.path.join(out_dir, 'search-index.js'), 'window.BOOK_SEARCH_INDEX = ' + index + ';\n')
    return len(entries)
