"""One EPUB of the whole book: the woven chapters in order, each opened by its id and title.
Code is not coloured in the EPUB (most e-readers show it in black anyway): highlighting every
chapter's code again is what made a one-sentence edit cost more than five seconds."""
import os
import re
import subprocess

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


def build(book_title, chapters, out_dir, state):
    source = '\n'.join(chapter_text(c) for c in chapters)
    figures = sorted(set(FIGURE.findall(source)))
    figure_bytes = [read_bytes(os.path.join(out_dir, f)) for f in figures if os.path.exists(os.path.join(out_dir, f))]
    target = os.path.join(out_dir, NAME)
    key = digest(book_title, source, figure_bytes, [read_bytes(p) for p in (CSS, FILTER, __file__)])
    if state.unchanged('epub', key, target):
        return ('epub', key), False
    work = os.path.join(out_dir, '.render', 'book.md')
    write_file(work, source)
    done = subprocess.run(
        ['pandoc', work, '--from', 'markdown', '--to', 'epub3', '--mathml', '--toc', '--toc-depth', '2',
         '--preserve-tabs', '--no-highlight', '--lua-filter', FILTER, '--css', CSS,
         '--resource-path', out_dir, '--metadata', 'title=' + book_title, '--metadata', 'lang=en',
         '--epub-chapter-level', '1', '--output', target + '.new'],
        capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on the EPUB:\n' + done.stderr.strip())
    os.replace(target + '.new', target)
    return ('epub', key), True
