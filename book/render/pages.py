"""One HTML page per chapter, and the index, from book/template.html through Pandoc."""
import html
import os
import subprocess

from stamps import digest, read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.dirname(HERE)
TEMPLATE = os.path.join(BOOK, 'template.html')
SYNTAX = os.path.join(BOOK, 'cuda.xml')
FILTER = os.path.join(HERE, 'code_blocks.lua')


def toolchain_digest():
    """Everything besides a chapter's text that shapes its page."""
    return digest([read_bytes(p) for p in (TEMPLATE, SYNTAX, FILTER, __file__)])


def page_name(chapter):
    return chapter['basename'] + '.html'


def neighbours(chapters, i):
    prev = chapters[i - 1] if i > 0 else None
    nxt = chapters[i + 1] if i + 1 < len(chapters) else None
    return prev, nxt


def variables(book_title, chapters, i, download):
    """The template's variables for chapter i, HTML-escaped (Pandoc inserts -V values as they are)."""
    chapter = chapters[i]
    prev, nxt = neighbours(chapters, i)
    values = {'book-title': book_title, 'chapter-id': chapter['id'], 'chapter-title': chapter['title'],
              'measured': chapter['measured'], 'download': download}
    if chapter['stale']:
        values['stale'] = 'true'
    if chapter.get('src'):
        values['has-code'] = 'true'
    if prev:
        values.update({'prev-href': page_name(prev), 'prev-title': prev['id'] + ' ' + prev['title']})
    if nxt:
        values.update({'next-href': page_name(nxt), 'next-title': nxt['id'] + ' ' + nxt['title']})
    return {k: html.escape(v, quote=True) for k, v in values.items() if v}


def run_pandoc(args, env_extra, what):
    env = dict(os.environ, **env_extra)
    done = subprocess.run(['pandoc'] + args, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError('pandoc failed on %s:\n%s' % (what, done.stderr.strip()))
    if done.stderr.strip():
        print('render: pandoc on %s: %s' % (what, done.stderr.strip()))


def chapter_digest(book_title, chapters, i, download, api_map_digest, tools):
    return digest(chapters[i]['text'], sorted(variables(book_title, chapters, i, download).items()),
                  api_map_digest, tools)


def render_chapter(book_title, chapters, i, download, api_map_file, out_dir):
    chapter = chapters[i]
    target = os.path.join(out_dir, page_name(chapter))
    args = [chapter['markdown'], '--from', 'markdown', '--to', 'html5', '--standalone',
            '--template', TEMPLATE, '--toc', '--toc-depth', '3', '--mathml', '--preserve-tabs',
            '--syntax-definition', SYNTAX, '--lua-filter', FILTER,
            '--metadata', 'pagetitle=' + chapter['title'], '--output', target + '.new']
    for key, value in variables(book_title, chapters, i, download).items():
        args += ['--variable', '%s=%s' % (key, value)]
    run_pandoc(args, {'BOOK_API_MAP': api_map_file or '', 'BOOK_DOWNLOAD': download,
                      'BOOK_CHAPTER_TITLE': chapter['title']}, chapter['markdown'])
    os.replace(target + '.new', target)
    return target


def index_body(book_title, chapters, extras):
    """The index page's text: the chapters in order, then the book's other outputs."""
    rows = []
    for chapter in chapters:
        if chapter['measured']:
            state = 'measured ' + chapter['measured']
        elif chapter.get('src'):
            state = 'not yet measured'
        else:
            state = 'no code of its own'  # the appendices of symbols and rebuilding
        if chapter['stale']:
            state += '; <strong class="stale">stale: the code changed since</strong>'
        rows.append('<li><span class="id">%s</span><a href="%s">%s</a><span class="meta">%s</span></li>'
                    % (html.escape(chapter['id']), page_name(chapter), html.escape(chapter['title']), state))
    parts = ['<h1 class="title">%s</h1>' % html.escape(book_title),
             '<p>A literate book: every kernel, test and benchmark is tangled from these pages, and '
             'every number in them was measured.</p>',
             '<h2 id="chapters">Chapters</h2>', '<ol class="chapters">', '\n'.join(rows), '</ol>']
    if extras:
        parts += ['<h2 id="also">Also in this book</h2>', '<ul>']
        parts += ['<li><a href="%s">%s</a></li>' % (html.escape(href), html.escape(label)) for href, label in extras]
        parts.append('</ul>')
    return '\n'.join(parts) + '\n'


def render_index(book_title, chapters, extras, out_dir, work_dir):
    source = os.path.join(work_dir, 'index.md')
    write_file(source, '```{=html}\n' + index_body(book_title, chapters, extras) + '```\n')
    target = os.path.join(out_dir, 'index.html')
    run_pandoc([source, '--from', 'markdown', '--to', 'html5', '--standalone', '--template', TEMPLATE,
                '--metadata', 'pagetitle=' + book_title,
                '--variable', 'book-title=' + html.escape(book_title),
                '--variable', 'chapter-title=Contents', '--output', target + '.new'], {}, 'the index')
    os.replace(target + '.new', target)
    return target
