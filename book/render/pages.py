"""One HTML page per chapter, and the index, from book/template.html through Pandoc."""
import html
import os
import re
import subprocess

import book_index
import front
import index_terms
import told
from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
TEMPLATE = os.path.join(BOOK, 'template.html')
SYNTAX = os.path.join(BOOK, 'cuda.xml')
FILTER = os.path.join(HERE, 'code_blocks.lua')
SECTION_LINKS = os.path.join(BOOK, 'section-links.txt')   # phrases that link to another chapter's section


def toolchain_digest():
    """Everything besides a chapter's text that shapes its page."""
    return digest([read_bytes(p) for p in (TEMPLATE, SYNTAX, FILTER, SECTION_LINKS, __file__)])


CODE_CACHE = os.path.join('.render', 'code')
CACHED = re.compile(r'<!--code-cache:([0-9a-f]{40})-->\n?(.*?)\n?<!--/code-cache-->', re.S)


def code_salt():
    """What, besides a block, shapes its highlighted HTML: the syntax definition, Pandoc's version."""
    version = subprocess.run(['pandoc', '--version'], capture_output=True, text=True).stdout.split('\n')[0]
    return digest(read_bytes(SYNTAX), version)


def fill_code_cache(page, cache_dir):
    """Stores each block Pandoc highlighted (between the filter's markers) and drops the markers."""
    def store(match):
        key, block = match.groups()
        write_file(os.path.join(cache_dir, key + '.html'), block)
        return block
    return CACHED.sub(store, page)


def page_name(chapter):
    return chapter['basename'] + '.html'


def neighbours(chapters, i):
    prev = chapters[i - 1] if i > 0 else None
    nxt = chapters[i + 1] if i + 1 < len(chapters) else None
    return prev, nxt


DAY = re.compile(r'\d{4}-\d{2}-\d{2}(T|$)')   # a record's stamp, 2026-12-01T11:42:33Z: shown as its day


def variables(book_title, chapters, i, download):
    """The template's variables for chapter i, HTML-escaped (Pandoc inserts -V values as they are);
    `told`, where the woven GPU's verdicts are told, is HTML made from escaped words."""
    chapter = chapters[i]
    prev, nxt = neighbours(chapters, i)
    values = {'book-title': book_title, 'chapter-id': chapter['id'], 'chapter-title': chapter['title'],
              'measured': chapter['measured'][:10] if DAY.match(chapter['measured'] or '') else chapter['measured'],
              'measured-stamp': chapter['measured'], 'download': download}
    if chapter['stale']:
        values['stale'] = 'true'
    if chapter.get('src'):
        values['has-code'] = 'true'
    if prev:
        values.update({'prev-href': page_name(prev), 'prev-title': prev['id'] + ' ' + prev['title']})
    if nxt:
        values.update({'next-href': page_name(nxt), 'next-title': nxt['id'] + ' ' + nxt['title']})
    escaped = {k: html.escape(v, quote=True) for k, v in values.items() if v}
    opening = told.opening(chapter)   # HTML already, its words escaped (book/render/told.py)
    if opening:
        escaped['told'] = opening
    return escaped


def module_of(chapter):
    """A lesson's module number ("3.2b" -> 3), or None for an appendix or another page."""
    head = chapter['id'].split('.')[0]
    return int(head) if head.isdigit() and '.' in chapter['id'] else None


def book_nav(chapters, i):
    """The whole book's chapter list beside the text on a desktop (book/style.css shows it 1100 px
    wide and up): a fold per module, named as the front page names it (book/front.md), and one for
    the appendices; the fold of chapter i open, chapter i marked as the page shown."""
    try:
        names = {n: name for n, (name, _) in front.read_words()['modules'].items()}
    except (OSError, front.FrontError):
        names = {}
    groups = []
    for c in chapters:
        n = module_of(c)
        label = 'Module %d: %s' % (n, names.get(n, '')) if n is not None else 'Appendices'
        if not groups or groups[-1][0] != label:
            groups.append((label, []))
        groups[-1][1].append(c)
    parts = ['<nav class="book-nav" aria-label="The book\'s chapters">',
             '<a class="book-home" href="index.html">The book</a>']
    for label, members in groups:
        here = chapters[i] in members
        items = ''.join('<li><a href="%s"%s><span class="id">%s</span> %s</a></li>' % (
            html.escape(page_name(c)), ' aria-current="page"' if c is chapters[i] else '',
            html.escape(c['id']), html.escape(c['title'])) for c in members)
        parts.append('<details class="book-part"%s><summary>%s</summary><ol>%s</ol></details>'
                     % (' open' if here else '', html.escape(label.rstrip(': ')), items))
    parts.append('<a class="book-home book-index" href="%s">Index</a>' % index_terms.NAME)
    parts.append('</nav>')
    return '\n'.join(parts)


# a chapter's front matter is read by book_index, never by Pandoc (see book_index.body)
MARKDOWN = 'markdown-yaml_metadata_block'


# Pandoc's warning for maths it cannot parse; it then prints the TeX as text, so it is an error here.
UNREADABLE_MATH = 'Could not convert TeX math'


# Each Pandoc run's time limit (BOOK_PANDOC_SECONDS): a chapter Pandoc chokes on (brackets nested 15
# deep took it over a minute, 20 would take days: tools.md RD01) stops the render naming the
# chapter, and the previous book stays. The weaver refuses the known shapes before they get here.
PANDOC_SECONDS = float(os.environ.get('BOOK_PANDOC_SECONDS') or 600)


def named(chapter):
    """A chapter as a message names it: its woven file, and the chapter it was woven from."""
    return '%s (woven from %s)' % (chapter['markdown'], chapter['source']) if chapter.get('source') else chapter['markdown']


def pandoc(command, what, **kwargs):
    """subprocess.run of a Pandoc command, stopped past PANDOC_SECONDS with an error naming `what`."""
    try:
        return subprocess.run(command, timeout=PANDOC_SECONDS, **kwargs)
    except subprocess.TimeoutExpired:
        raise RuntimeError('pandoc ran over %g s on %s and was stopped: a line that nests brackets, quotes '
                           'or lists deeply, or thousands of "<" in one paragraph, makes it slow; simplify '
                           'it in the chapter (BOOK_PANDOC_SECONDS sets the limit)' % (PANDOC_SECONDS, what)) from None


def run_pandoc(args, env_extra, what, text=None):
    env = dict(os.environ, **env_extra)
    done = pandoc(['pandoc'] + args, what, env=env, input=text, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on %s:\n%s' % (what, done.stderr.strip()))
    if UNREADABLE_MATH in done.stderr:
        raise RuntimeError('pandoc could not read the TeX math in %s, and would show it as raw TeX:\n%s\n'
                           'the usual cause is a woven number, [...]{.m}, inside $...$ or $$...$$: move it '
                           'out of the maths in the chapter' % (what, done.stderr.strip()))
    if done.stderr.strip():
        print('render: pandoc on %s: %s' % (what, done.stderr.strip()))


def chapter_map(chapters):
    """The book's chapters for code_blocks.lua's links: one "id<TAB>page" a line."""
    return ''.join('%s\t%s\n' % (c['id'], page_name(c)) for c in chapters)


FENCE = re.compile(r'^(```|~~~)')
SECTION_HEADING = re.compile(r'^(#{2,4})\s+(.*?)\s*$')


def heading_id(text):
    """(the id Pandoc gives a heading, its text): an explicit {#id}, else Pandoc's auto identifier
    (formatting dropped; letters, digits, _ - . kept; spaces to hyphens; lowercase; nothing before
    the first letter)."""
    attrs = re.search(r'\{([^{}]*)\}\s*$', text)
    if attrs:
        explicit = re.search(r'#([\w.:-]+)', attrs.group(1))
        text = text[:attrs.start()]
        if explicit:
            return explicit.group(1), text
    t = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    t = re.sub(r'\[([^\]]*)\]\{[^}]*\}', r'\1', t)
    t = t.replace('`', '').replace('$', '').replace('*', '')
    t = ''.join(c for c in t if c.isalnum() or c in '_-. \t').lower()
    t = re.sub(r'^[^a-z]+', '', re.sub(r'\s+', '-', t.strip()))
    return t or 'section', text


def chapter_sections(chapters):
    """Every chapter's section headings (h2-h4, outside code), one "id<TAB>anchor<TAB>heading" a
    line, for code_blocks.lua's links to a section another chapter names."""
    lines = []
    for chapter in chapters:
        fence, seen = None, {}
        for line in book_index.body(chapter['text']).split('\n'):
            opened = FENCE.match(line)
            if opened:
                fence = opened.group(1) if fence is None else (None if line.startswith(fence) else fence)
                continue
            heading = None if fence else SECTION_HEADING.match(line)
            if heading:
                anchor, text = heading_id(heading.group(2))
                seen[anchor] = seen.get(anchor, -1) + 1
                if seen[anchor]:
                    anchor = '%s-%d' % (anchor, seen[anchor])
                lines.append('%s\t%s\t%s\n' % (chapter['id'], anchor, ' '.join(text.split())))
    return ''.join(lines)


def chapter_digest(book_title, chapters, i, download, api_map_digest, tools):
    return digest(chapters[i]['text'], sorted(variables(book_title, chapters, i, download).items()),
                  api_map_digest, tools, chapter_map(chapters), chapter_sections(chapters), book_nav(chapters, i))


# A line of highlighted code (Pandoc: <span id="cb8-18"><a href="#cb8-18" ...></a>...</span>)
# whose text is a chunk reference alone: <<name>>, its parts cut into highlighting spans.
CODE_LINE = re.compile(r'(<span id="([^"]+)"><a href="#[^"]+" aria-hidden="true" tabindex="-1"></a>)(.*?)(</span>\n|</span></code>)')
CHUNK_HEAD = re.compile(r'<span class="code-name chunk">⟨([^⟩<]+)⟩ (\+?≡)</span>')
TAG = re.compile(r'<[^>]+>')


def link_chunks(page):
    """<<name>> in code links to the chunk's first block (id name); each chunk's head lists, and
    links to, the lines that use it. The text of the code (what Copy copies) is unchanged."""
    defined = set(CHUNK_HEAD_ID.findall(page))
    uses = {}

    def line(match):
        start, line_id, body, end = match.groups()
        text = html.unescape(TAG.sub('', body))
        ref = re.fullmatch(r'(\s*)<<([^<>\s]+)>>(\s*)', text)
        if not ref or ref.group(2) not in defined:
            return match.group(0)
        indent, name, trail = ref.groups()
        uses.setdefault(name, []).append(line_id)
        return '%s%s<a class="chunk-ref" href="#%s" title="Where this chunk is defined">&lt;&lt;%s&gt;&gt;</a>%s%s' % (
            start, indent, html.escape(name), html.escape(name), trail, end)

    page = CODE_LINE.sub(line, page)
    names = {block: re.sub(r' \+?≡$', '', TAG.sub('', name).replace(' (continued)', '').strip())
             for name, block in BLOCK_NAME.findall(page)}

    def head(match):
        name, sign = match.groups()
        used = uses.get(html.unescape(name), [])
        if not used or sign != '≡':
            return match.group(0)
        links = ', '.join('<a href="#%s">%s</a>' % (u, names.get(u.rsplit('-', 1)[0], 'line ' + u))
                          for u in used)
        return match.group(0) + ' <span class="chunk-uses">used in %s</span>' % links

    return CHUNK_HEAD.sub(head, page)


BLOCK_NAME = re.compile(r'<div class="code-head"><span class="code-name [a-z]+">(.*?)</span>'
                        r'(?:(?!<div class="sourceCode").)*?<div class="sourceCode" id="([^"]+)"', re.S)
CHUNK_HEAD_ID = re.compile(r'<div class="sourceCode" id="([^"]+)"')


# A section heading as Pandoc writes it: <h2 id="name">...</h2> (h2 to h4; the contents' own
# list links to the same ids). The lazy body stops at the heading's first closing tag.
HEADING = re.compile(r'(<h([2-4])\b[^>]*\bid="([^"]+)"[^>]*>)(.*?)(</h\2>)', re.S)


def link_self(page):
    """Each section heading ends in a link to itself (the ¶ comes from the stylesheet, so a
    heading's text, which the search index and the contents read, stays the heading's)."""
    def add(match):
        start, _, name, body, end = match.groups()
        if 'class="self-link"' in body:
            return match.group(0)
        return '%s%s<a class="self-link" href="#%s" aria-label="Link to this section"></a>%s' % (
            start, body, name, end)
    return HEADING.sub(add, page)


def render_chapter(book_title, chapters, i, download, api_map_file, out_dir, salt=None):
    chapter = chapters[i]
    target = os.path.join(out_dir, page_name(chapter))
    args = ['--from', MARKDOWN, '--to', 'html5', '--standalone',
            '--template', TEMPLATE, '--toc', '--toc-depth', '3', '--mathml', '--preserve-tabs', '--wrap', 'none',
            '--syntax-definition', SYNTAX, '--lua-filter', FILTER,
            '--metadata', 'pagetitle=' + chapter['title'], '--output', target + '.new']
    for key, value in variables(book_title, chapters, i, download).items():
        args += ['--variable', '%s=%s' % (key, value)]
    args += ['--variable', 'book-nav=' + book_nav(chapters, i)]   # HTML, escaped where it is made
    cache_dir = os.path.join(out_dir, CODE_CACHE)
    os.makedirs(cache_dir, exist_ok=True)
    run_pandoc(args, {'BOOK_API_MAP': api_map_file or '', 'BOOK_DOWNLOAD': download,
                      'BOOK_CHAPTER_TITLE': chapter['title'], 'BOOK_CHAPTERS': chapter_map(chapters),
                      'BOOK_CHAPTER_ID': chapter['id'], 'BOOK_SECTION_LINKS': SECTION_LINKS,
                      'BOOK_SECTIONS': chapter_sections(chapters),
                      'BOOK_CODE_CACHE': cache_dir, 'BOOK_CODE_SALT': salt or code_salt()},
               named(chapter), book_index.body(chapter['text']))
    with open(target + '.new', encoding='utf-8') as f:
        page = link_self(link_chunks(fill_code_cache(f.read(), cache_dir)))
    with open(target + '.new', 'w', encoding='utf-8') as f:
        f.write(page)
    os.replace(target + '.new', target)
    return target


def render_index(book_title, chapters, extras, records_dir, out_dir, work_dir):
    """The front page (book/render/front.py writes its body)."""
    return html_page(front.body(book_title, chapters, extras, records_dir, page_name), 'index.html', out_dir,
                     work_dir, book_title, book_title, 'Contents', 'the index')


def html_page(body_html, name, out_dir, work_dir, book_title, page_title, heading, what):
    """OUT_DIR/NAME: a page of the book that is not a chapter (the front page, the downloads, the
    Index), its body HTML made elsewhere, through the book's template (Pandoc: the bar, the search,
    the theme), written whole and renamed into place; returns its path. WHAT names it in an error."""
    source = os.path.join(work_dir, name[:-len('.html')] + '.md')
    write_file(source, '```{=html}\n' + body_html + '```\n')
    target = os.path.join(out_dir, name)
    run_pandoc([source, '--from', 'markdown', '--to', 'html5', '--standalone', '--template', TEMPLATE,
                '--metadata', 'pagetitle=' + page_title, '--variable', 'book-title=' + html.escape(book_title),
                '--variable', 'chapter-title=' + heading, '--output', target + '.new'], {}, what)
    with open(target + '.new', encoding='utf-8') as f:
        page = link_self(f.read())
    with open(target + '.new', 'w', encoding='utf-8') as f:
        f.write(page)
    os.replace(target + '.new', target)
    return target
