"""One EPUB of the whole book: the woven chapters in order, each opened by its id and title.
Code is not coloured in the EPUB (most e-readers show it in black anyway): highlighting every
chapter's code again is what made a one-sentence edit cost more than five seconds.

Made in two steps, so that an edit costs one chapter's parse, not the book's: each chapter is
read by Pandoc into its own syntax tree (chapter_ast: .render/epub/<chapter>.json, remade only
when the chapter's text changes; the renderer runs these beside the pages), then the trees are
joined into one document (join: a heading id an earlier chapter used gets -1, -2, ..., as Pandoc
does within one document) and written as the EPUB (build). Reading Markdown is most of Pandoc's
time on this book: the whole book in one run took 30 s or more on two cores.

The same inputs give the same bytes: Pandoc's date is pinned (SOURCE_DATE_EPOCH: the newest
chapter's measurement date, else the epoch), its identifier is derived from the title (not a
random UUID), and the archive is rewritten with its members in a fixed order (mimetype first,
stored; the rest sorted by name) and every timestamp set to that date."""
import calendar
import datetime
import html
import json
import os
import re
import subprocess
import sys
import uuid
import zipfile

import epub_front
import epub_tree
import index_terms
from pages import SECTION_LINKS, chapter_map, chapter_sections, named, pandoc
from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
CSS = os.path.join(BOOK, 'epub.css')
FILTER = os.path.join(HERE, 'code_blocks.lua')
NAME = 'kernels-and-the-machine.epub'
FIGURE = re.compile(r'\]\((figures/[^)\s]+)')
AST_DIR = os.path.join('.render', 'epub')


# What Markdown or HTML would read in a title: escaped, the title is its text (the HTML pages escape
# it too, tools.md Z9). Quotes and dashes stay bare: Pandoc's smart typography curls them as before.
MARKUP = re.compile(r'([\\`*_\[\]{}<>#$^~&|@])')


def plain(text):
    return MARKUP.sub(r'\\\1', text)


def chapter_text(chapter):
    """The chapter without its front matter and without a leading copy of its title."""
    text = re.sub(r'\A---\s*\n.*?\n(?:---|\.\.\.)\s*\n', '', chapter['text'], count=1, flags=re.S)
    text = re.sub(r'\A\s*#\s+%s\s*(\{[^}]*\})?\s*\n' % re.escape(chapter['title']), '', text, count=1)
    return '# %s %s {#%s}\n\n%s\n' % (plain(chapter['id']), plain(chapter['title']), opening_id(chapter), text)


def pinned_epoch(chapters):
    """Seconds since 1970 of the newest chapter's measurement date (YYYY-MM-DD...), or 0."""
    days = []
    for chapter in chapters:
        try:
            days.append(datetime.datetime.strptime((chapter.get('measured') or '')[:10], '%Y-%m-%d'))
        except ValueError:
            pass
    return calendar.timegm(max(days).timetuple()) if days else 0


DOCTYPE = re.compile(rb'<!DOCTYPE[^>\[]*(\[[^\]]*\])?\s*>\s*')
EMPTY_PATH = re.compile(rb'<path((?:\s+(?!d=)[\w:-]+="[^"]*")*)\s*/>')
NAV_ITEM = re.compile(rb'(<item [^>]*href="nav.xhtml"[^>]*properties=")nav(")')


def repair(members):
    """What epubcheck rejects in Pandoc's EPUB of this book, mended in place (members: name -> bytes):
    an SVG figure's DOCTYPE (Matplotlib writes SVG 1.1's; epubcheck reads its external DTD and
    fails on each entity), a glyph <path> without a d (Matplotlib's space: required in SVG 1.1; an
    empty d draws nothing, as before, and keeps the id that <use> names), and a nav holding MathML
    (a heading with maths) without the manifest saying so."""
    for name, data in members.items():
        if name.endswith('.svg'):
            members[name] = EMPTY_PATH.sub(rb'<path\1 d=""/>', DOCTYPE.sub(b'', data, count=1))
    nav = [n for n in members if n.endswith('/nav.xhtml') or n == 'nav.xhtml']
    if nav and b'<math' in members[nav[0]]:
        for name in members:
            if name.endswith('.opf'):
                members[name] = NAV_ITEM.sub(rb'\1nav mathml\2', members[name])


def normalize(path, epoch):
    """Rewrites the EPUB at path with members in a fixed order and fixed timestamps (repaired)."""
    when = max(datetime.datetime.utcfromtimestamp(epoch), datetime.datetime(1980, 1, 1)).timetuple()[:6]
    with zipfile.ZipFile(path) as z:
        members = {info.filename: z.read(info) for info in z.infolist()}
    repair(members)
    order = ['mimetype'] + sorted(n for n in members if n != 'mimetype')
    with zipfile.ZipFile(path + '.zip', 'w') as z:
        for name in order:
            info = zipfile.ZipInfo(name, date_time=when)
            info.compress_type = zipfile.ZIP_STORED if name == 'mimetype' else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            info.create_system = 3
            z.writestr(info, members[name], compresslevel=9 if name != 'mimetype' else None)
    os.replace(path + '.zip', path)


def pandoc_version():
    return subprocess.run(['pandoc', '--version'], capture_output=True, text=True).stdout.split('\n')[0]


def ast_path(out_dir, chapter):
    return os.path.join(out_dir, AST_DIR, chapter['basename'] + '.json')


def link_context(chapters):
    """What code_blocks.lua needs to make a mention of a chapter ("appendix A's $B_\\text{read}$") a
    link to it, as the pages do: the chapters' pages and section headings, section-links.txt. The
    links name the chapters' pages; join() points them inside the EPUB."""
    return {'BOOK_CHAPTERS': chapter_map(chapters), 'BOOK_SECTIONS': chapter_sections(chapters),
            'BOOK_SECTION_LINKS': SECTION_LINKS}


def ast_key(chapter, version, links):
    return digest(chapter_text(chapter), read_bytes(FILTER), read_bytes(__file__), version, sorted(links.items()),
                  read_bytes(SECTION_LINKS) if os.path.exists(SECTION_LINKS) else b'')


def chapter_ast(chapter, out_dir, state, version, links=None):
    """The chapter's syntax tree (Pandoc's JSON, the code blocks' heads added by the filter, its
    mentions of chapters made links when links = link_context(chapters)), made if its text or the
    links' context changed; returns the state record."""
    links = links or {}
    name, key, target = 'epub-ast:' + chapter['basename'], ast_key(chapter, version, links), ast_path(out_dir, chapter)
    if state.unchanged(name, key, target):
        return name, key
    os.makedirs(os.path.dirname(target), exist_ok=True)
    done = pandoc(['pandoc', '--from', 'markdown-yaml_metadata_block', '--to', 'json', '--preserve-tabs', '--lua-filter',
                   FILTER, '--output', target + '.new'], named(chapter) + ' for the EPUB',
                  input=chapter_text(chapter), capture_output=True, text=True, env=dict(os.environ, **links))
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on %s for the EPUB:\n%s' % (named(chapter), done.stderr.strip()))
    os.replace(target + '.new', target)
    return name, key


def unique_heading_ids(node, used, renamed):
    """Renames, in document order, each heading whose id an earlier one took: id-1, id-2, ...;
    renamed maps each of this node's heading ids, as written, to the id it now has."""
    if isinstance(node, list):
        for item in node:
            unique_heading_ids(item, used, renamed)
    elif isinstance(node, dict):
        if node.get('t') == 'Header' and node['c'][1][0]:
            base = ident = node['c'][1][0]
            n = 0
            while ident in used:
                n += 1
                ident = '%s-%d' % (base, n)
            node['c'][1][0] = ident
            used.add(ident)
            renamed.setdefault(base, ident)
        unique_heading_ids(node.get('c'), used, renamed)


def relink(node, targets):
    """Points each link to a chapter's page (3.1-reduction.html, ...#id) at the chapter inside the
    EPUB: '#id' (Pandoc then names the chapter's own file, chNNN.xhtml), the chapter's opening
    when the id is not one of its headings. targets: page -> (opening id, {id as written: id})."""
    if isinstance(node, list):
        for item in node:
            relink(item, targets)
    elif isinstance(node, dict):
        if node.get('t') == 'Link':
            page, _, fragment = node['c'][2][0].partition('#')
            if page in targets:
                opening, ids = targets[page]
                node['c'][2][0] = '#' + ids.get(fragment, opening)
        relink(node.get('c'), targets)


def opening_id(chapter):
    return 'chapter-' + re.sub(r'[^A-Za-z0-9-]', '-', chapter['basename'])


def too_deep(chapter):
    """Python's recursion limit met in a chapter's tree (tools.md P2: its own message named no chapter)."""
    return RuntimeError('%s nests too deeply for the EPUB (quotes, lists or spans more than about %d levels '
                        'inside each other): flatten it' % (named(chapter), sys.getrecursionlimit() // 2))


def load(asts, chapters):
    """The chapters' trees (Pandoc's JSON, as bytes) read, each failure naming its chapter."""
    trees = []
    for ast, chapter in zip(asts, chapters):
        try:
            trees.append(json.loads(ast))
        except RecursionError:
            raise too_deep(chapter) from None
    return trees


def join(asts, chapters):
    """One document of the chapters' trees, in order, its links between chapters made internal (a
    link to a chapter's page, with or without a section's #id, points at that heading in the EPUB)."""
    used, targets = set(), {}
    for ast, chapter in zip(asts, chapters):
        renamed = {}
        try:
            unique_heading_ids(ast['blocks'], used, renamed)
        except RecursionError:
            raise too_deep(chapter) from None
        targets[chapter['basename'] + '.html'] = (renamed.get(opening_id(chapter), opening_id(chapter)), renamed)
    blocks = []
    for ast, chapter in zip(asts, chapters):
        try:
            relink(ast['blocks'], targets)
        except RecursionError:
            raise too_deep(chapter) from None
        blocks += ast['blocks']
    return {'pandoc-api-version': asts[0]['pandoc-api-version'], 'meta': {}, 'blocks': blocks}


COVER = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1600" viewBox="0 0 1200 1600">
<rect width="1200" height="1600" fill="#1f2a1a"/>
<rect x="80" y="80" width="1040" height="12" fill="#76b900"/>
%s
<rect x="80" y="1508" width="1040" height="12" fill="#76b900"/>
</svg>
"""


def cover_svg(book_title):
    """A plain cover, drawn here so that it needs no font file or image tool: the title on a
    dark ground between two green rules, one line per word pair, in the reader's own sans-serif."""
    words, lines = book_title.split(), []
    while words:
        lines.append(' '.join(words[:2]))
        words = words[2:]
    text = '\n'.join('<text x="100" y="%d" font-family="sans-serif" font-size="110" font-weight="bold" '
                     'fill="#ffffff">%s</text>' % (400 + 150 * i, html.escape(line)) for i, line in enumerate(lines))
    return COVER % text


def front_ast(chapters, out_dir):
    """The front matter's tree (epub_front.markdown through Pandoc): small, so read at each build."""
    done = pandoc(['pandoc', '--from', 'markdown-yaml_metadata_block', '--to', 'json'], 'the EPUB\'s front matter',
                  input=epub_front.markdown(chapters, opening_id), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on the EPUB\'s front matter (%s):\n%s' % (front_words(), done.stderr.strip()))
    return done.stdout.encode('utf-8')


def front_words():
    return os.path.relpath(epub_front.FRONT['markdown'])


INDEX = {'id': '', 'title': 'Index', 'basename': 'index-of-terms'}   # the book's index, its last chapter


def index_markdown(chapters, index_dir):
    """The Index as Markdown (index_terms.markdown, its heading the EPUB chapter's id), or '' where
    the book has no entries."""
    entries = index_terms.printed(index_terms.read(index_dir, chapters))
    if not entries:
        return ''
    return index_terms.markdown(entries, chapters, chapter_sections(chapters)).replace(
        '{#book-index}', '{#%s}' % opening_id(INDEX), 1)


def index_ast(text):
    """The Index's tree: its Markdown through Pandoc (made only when the EPUB is)."""
    done = pandoc(['pandoc', '--from', 'markdown-yaml_metadata_block', '--to', 'json'], 'the EPUB\'s Index',
                  input=text, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on the EPUB\'s Index:\n%s' % done.stderr.strip())
    return done.stdout.encode('utf-8')


def build(book_title, chapters, out_dir, state, index_dir):
    """The EPUB from the chapters' trees (chapter_ast made them), after its front matter, with the
    book's index (index_dir: book/index-terms/) as its last chapter; returns (record, remade)."""
    source = '\n'.join(chapter_text(c) for c in chapters)
    figures = sorted(set(FIGURE.findall(source)))
    figure_bytes = [read_bytes(os.path.join(out_dir, f)) for f in figures if os.path.exists(os.path.join(out_dir, f))]
    target = os.path.join(out_dir, NAME)
    epoch = pinned_epoch(chapters)
    asts = [read_bytes(ast_path(out_dir, c)) for c in chapters]
    index = index_markdown(chapters, index_dir)
    key = digest(book_title, [[c['id'], c['title'], c['basename']] for c in chapters], asts, figure_bytes,
                 [read_bytes(p) for p in [CSS, __file__, epub_tree.__file__, index_terms.__file__] + epub_front.inputs()],
                 epoch, index)
    if state.unchanged('epub', key, target):
        return ('epub', key), False
    work = os.path.join(out_dir, '.render', 'book.json')
    try:
        last = [INDEX] if index else []
        tree = join(load([front_ast(chapters, out_dir)] + asts + ([index_ast(index)] if index else []),
                         [epub_front.FRONT] + chapters + last), [epub_front.FRONT] + chapters + last)
        epub_tree.verdicts_plain(tree['blocks'])
        epub_tree.label_box_cells(tree['blocks'])
        epub_tree.code_lines(tree['blocks'])
        joined = json.dumps(tree, ensure_ascii=False)
    except RecursionError:   # each chapter's tree was read and walked: the whole is no deeper
        raise RuntimeError('the EPUB nests too deeply to write (no chapter alone does): flatten the deepest')
    write_file(work, joined)
    cover = os.path.join(out_dir, '.render', 'cover.svg')
    write_file(cover, cover_svg(book_title))
    done = pandoc(
        ['pandoc', work, '--from', 'json', '--to', 'epub3', '--mathml', '--toc', '--toc-depth', '2',
         '--no-highlight', '--css', CSS, '--epub-cover-image', cover,
         '--resource-path', out_dir, '--metadata', 'title=' + book_title, '--metadata', 'lang=en',
         '--metadata', 'identifier=urn:uuid:%s' % uuid.uuid5(uuid.NAMESPACE_URL, 'book:' + book_title)]
        + epub_front.metadata_args(epoch) + ['--epub-chapter-level', '1', '--output', target + '.new'],
        'the EPUB', capture_output=True, text=True, env=dict(os.environ, SOURCE_DATE_EPOCH=str(epoch)))
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on the EPUB:\n' + done.stderr.strip())
    normalize(target + '.new', epoch)
    os.replace(target + '.new', target)
    return ('epub', key), True
