"""The EPUB's front matter and metadata, from the words the front page reads (book/front.md,
book/render/front.py) and from book/metadata.yaml: what the book is, how to read it, what a
reader will be able to do, and its modules with their lessons, each a link to its chapter; a
reader of the EPUB meets these before chapter 1.1, as a reader of the web book does on its front
page. Pandoc's title page shows the title, the author and the date; its contents come after it.

  FRONT                       the pseudo-chapter join() places first (its page: index.html)
  markdown(chapters)          the front matter as Markdown, one chapter (h1) with its sections
  metadata_args(epoch, words) Pandoc's --metadata-file and the date and description options"""
import datetime
import os
import re

import front

HERE = os.path.dirname(os.path.abspath(__file__))
METADATA = os.path.join(os.path.dirname(HERE), 'metadata.yaml')
FRONT = {'id': '', 'title': 'About this book', 'basename': 'index', 'markdown': front.WORDS, 'source': None}
MARKUP = re.compile(r'([\\`*_\[\]{}<>#$^~&|@])')


def plain(text):
    return MARKUP.sub(r'\\\1', text)


def module_of(chapter):
    """A lesson's module (the number before the first dot of its id), or None for an appendix."""
    head = chapter['id'].split('.')[0]
    return int(head) if head.isdigit() and '.' in chapter['id'] else None


def markdown(chapters, opening_id):
    """The front matter: book/front.md's intro, outcomes and modules, each module's lessons and then
    the appendices linked to their chapters (opening_id(chapter): the id of its heading)."""
    words = front.read_words(medium='book')
    intro = words['intro']
    lines = ['# About this book {#%s}' % opening_id(FRONT), '']
    lines += [p + '\n' for p in intro]
    lines += ['## What you will be able to do', '']
    lines += ['%d. %s' % (n, item) for n, item in enumerate(words['outcomes'], 1)] + ['']
    lines += ['## The modules', '']
    for number, (name, text) in sorted(words['modules'].items()):
        lessons = [c for c in chapters if module_of(c) == number]
        lines += ['**Module %d: %s.** %s' % (number, name, text), '']
        lines += ['- [%s %s](#%s)' % (plain(c['id']), plain(c['title']), opening_id(c)) for c in lessons] + ['']
    appendices = [c for c in chapters if module_of(c) is None]
    if appendices:
        lines += ['**The appendices**, for reference:', '']
        lines += ['- [%s %s](#%s)' % (plain(c['id']), plain(c['title']), opening_id(c)) for c in appendices] + ['']
    return '\n'.join(lines)


def first_sentence(paragraph):
    match = re.match(r'(.+?[.!?])\s', paragraph + ' ')
    return match.group(1) if match else paragraph


def metadata_args(epoch):
    """Pandoc's options for the metadata beyond title, language and identifier: the author and
    subject (book/metadata.yaml), the date (the newest measurement's day: the epoch the EPUB is
    pinned to) and a description (the first sentence of book/front.md's intro)."""
    day = datetime.datetime.utcfromtimestamp(epoch).strftime('%Y-%m-%d')
    description = first_sentence(front.read_words(medium='book')['intro'][0])
    return ['--metadata-file', METADATA, '--metadata', 'date=' + day, '--metadata', 'description=' + description]


def inputs():
    """The files whose bytes shape the front matter and the metadata (for the EPUB's digest)."""
    return [front.WORDS, METADATA, __file__]
