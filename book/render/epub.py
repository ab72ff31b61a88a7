"""One EPUB of the whole book: the woven chapters in order, each opened by its id and title.
Code is not coloured in the EPUB (most e-readers show it in black anyway): highlighting every
chapter's code again is what made a one-sentence edit cost more than five seconds.

The same inputs give the same bytes: Pandoc's date is pinned (SOURCE_DATE_EPOCH: the newest
chapter's measurement date, else the epoch), its identifier is derived from the title (not a
random UUID), and the archive is rewritten with its members in a fixed order (mimetype first,
stored; the rest sorted by name) and every timestamp set to that date."""
import calendar
import datetime
import os
import re
import subprocess
import uuid
import zipfile

from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
CSS = os.path.join(BOOK, 'epub.css')
FILTER = os.path.join(HERE, 'code_blocks.lua')
NAME = 'kernels-and-the-machine.epub'
FIGURE = re.compile(r'\]\((figures/[^)\s]+)')


def chapter_text(chapter):
    """The chapter without its front matter and without a leading copy of its title."""
    text = re.sub(r'\A---\s*\n.*?\n(?:---|\.\.\.)\s*\n', '', chapter['text'], count=1, flags=re.S)
    text = re.sub(r'\A\s*#\s+%s\s*(\{[^}]*\})?\s*\n' % re.escape(chapter['title']), '', text, count=1)
    return '# %s %s {#chapter-%s}\n\n%s\n' % (chapter['id'], chapter['title'],
                                              re.sub(r'[^A-Za-z0-9-]', '-', chapter['basename']), text)


def pinned_epoch(chapters):
    """Seconds since 1970 of the newest chapter's measurement date (YYYY-MM-DD...), or 0."""
    days = []
    for chapter in chapters:
        try:
            days.append(datetime.datetime.strptime((chapter.get('measured') or '')[:10], '%Y-%m-%d'))
        except ValueError:
            pass
    return calendar.timegm(max(days).timetuple()) if days else 0


def normalize(path, epoch):
    """Rewrites the EPUB at path with members in a fixed order and fixed timestamps."""
    when = max(datetime.datetime.utcfromtimestamp(epoch), datetime.datetime(1980, 1, 1)).timetuple()[:6]
    with zipfile.ZipFile(path) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    order = ['mimetype'] + sorted(n for n in members if n != 'mimetype')
    with zipfile.ZipFile(path + '.zip', 'w') as z:
        for name in order:
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_STORED if name == 'mimetype' else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, members[name], compresslevel=9 if name != 'mimetype' else None)
    os.replace(path + '.zip', path)


def build(book_title, chapters, out_dir, state):
    source = '\n'.join(chapter_text(c) for c in chapters)
    figures = sorted(set(FIGURE.findall(source)))
    figure_bytes = [read_bytes(os.path.join(out_dir, f)) for f in figures if os.path.exists(os.path.join(out_dir, f))]
    target = os.path.join(out_dir, NAME)
    epoch = pinned_epoch(chapters)
    key = digest(book_title, source, figure_bytes, [read_bytes(p) for p in (CSS, FILTER, __file__)], epoch)
    if state.unchanged('epub', key, target):
        return ('epub', key), False
    work = os.path.join(out_dir, '.render', 'book.md')
    write_file(work, source)
    done = subprocess.run(
        ['pandoc', work, '--from', 'markdown', '--to', 'epub3', '--mathml', '--toc', '--toc-depth', '2',
         '--preserve-tabs', '--no-highlight', '--lua-filter', FILTER, '--css', CSS,
         '--resource-path', out_dir, '--metadata', 'title=' + book_title, '--metadata', 'lang=en',
         '--metadata', 'identifier=urn:uuid:%s' % uuid.uuid5(uuid.NAMESPACE_URL, 'book:' + book_title),
         '--epub-chapter-level', '1', '--output', target + '.new'],
        capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH=str(epoch)))
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on the EPUB:\n' + done.stderr.strip())
    normalize(target + '.new', epoch)
    os.replace(target + '.new', target)
    return ('epub', key), True
