"""Doxygen over src/ into api/, linked both ways with the chapters, and the harness check.

- The main page lists every file of src/ under the chapter that tangles it, linking to the page;
  each file's page (and its source listing) links back too: add_backlinks puts a line under the
  title, naming the chapter the file's first line names ("tangled from chapters/3.1-x.md").
- The chapters link to the file pages: Doxygen's tag file gives the page of every file, written
  to .render/api-map.tsv for code_blocks.lua.
- The harness (src/bench) must be documented: a second, strict run over its headers fails on any
  Doxygen warning, and on any public function, class or macro without a comment (check_harness)."""
import html
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

import api_theme
from stamps import digest, read_bytes, tree_digest, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
DOXYFILE = os.path.join(os.path.dirname(HERE), 'Doxyfile')
CHAPTER_NAMED = re.compile(r'chapters/([A-Za-z0-9._-]+)\.md')
HARNESS = 'bench'
MAP_FILE = os.path.join('.render', 'api-map.tsv')


class ApiError(Exception):
    pass


# The suffixes book/Doxyfile's FILE_PATTERNS documents: the files a \ref on the main page can name.
DOCUMENTED = ('.cuh', '.cu', '.h', '.hpp', '.cpp')


def mainpage(chapters, src_dir):
    lines = ['# The book\'s code {#mainpage}', '',
             'Every file below is tangled from a chapter of the book; the chapter explains it, and is '
             'the place to change it. Each file\'s page links back to its chapter.', '']
    for chapter in chapters:
        folder = os.path.join(src_dir, chapter['src']) if chapter['src'] else ''
        if not folder or not os.path.isdir(folder):
            continue
        # an HTML heading, not a Markdown one: Doxygen escapes the HTML of a "##" title, so the
        # page showed the link's markup as text
        lines.append('<h2 class="chapter"><a href="../%s.html">%s %s</a></h2>'
                     % (html.escape(chapter['basename']), html.escape(chapter['id']), html.escape(chapter['title'])))
        lines.append('')
        for name in sorted(os.listdir(folder)):
            if name.endswith(DOCUMENTED):
                lines.append('- `src/%s/%s`: \\ref %s' % (chapter['src'], name, name))
            else:  # a script (a chapter's peer in Python): Doxygen makes no page to refer to
                lines.append('- `src/%s/%s` (not C++: its chapter documents it)' % (chapter['src'], name))
        lines.append('')
    return '\n'.join(lines) + '\n'


def quoted(path):
    """A path as one item of a Doxygen list tag (a space in a checkout path split it, tools.md O13)."""
    if '"' in path:
        raise ApiError('%s holds a double quote, which Doxygen cannot read in a path: render from a folder '
                       'whose path has none' % path)
    return '"%s"' % path


# book/Doxyfile's variables that it uses in list tags (INPUT, STRIP_FROM_PATH, INCLUDE_PATH, ...)
LIST_VALUES = ('BOOK_SRC', 'BOOK_STRIP', 'BOOK_PAGE_DIR')


def doxygen_env(env):
    """book/Doxyfile's variables as Doxygen must read them: those used in list tags quoted."""
    out = {k: quoted(v) if k in LIST_VALUES else v for k, v in env.items()}
    out['BOOK_INPUT'] = quoted(env['BOOK_MAINPAGE']) + ' ' + quoted(env['BOOK_SRC'])
    return out


def run_doxygen(env, extra_lines=''):
    config = read_bytes(DOXYFILE).decode() + '\n' + extra_lines
    done = subprocess.run(['doxygen', '-'], input=config, env=dict(os.environ, **doxygen_env(env)),
                          capture_output=True, text=True)
    return done.returncode, (done.stdout + done.stderr).strip()


def file_pages(tag_file, src_dir):
    """{'src/reduce/x.cuh': 'api/x_8cuh.html'} from Doxygen's tag file."""
    pages = {}
    root = ET.parse(tag_file).getroot()
    parent = os.path.dirname(os.path.abspath(src_dir))
    for compound in root.iter('compound'):
        if compound.get('kind') != 'file':
            continue
        path = os.path.join(compound.findtext('path', ''), compound.findtext('name', ''))
        rel = os.path.relpath(path, parent) if os.path.isabs(path) else path
        filename = compound.findtext('filename', '')
        if not filename.endswith('.html'):
            filename += '.html'
        pages[rel.replace(os.sep, '/')] = 'api/' + filename
    return pages


def add_backlinks(pages, src_dir, out_dir, chapters):
    """Under the title of each file's page and source listing: the chapter it is tangled from."""
    parent = os.path.dirname(os.path.abspath(src_dir))
    for rel, page in pages.items():
        try:
            with open(os.path.join(parent, rel), encoding='utf-8', errors='replace') as f:
                named = CHAPTER_NAMED.search(f.readline())
        except OSError:
            continue
        if not named:
            continue
        chapter = chapters.get(named.group(1))
        label = '%s %s' % (chapter['id'], chapter['title']) if chapter else named.group(1)
        note = ('<p class="tangled-from">Tangled from the chapter <a href="../%s.html">%s</a>: read it '
                'there, and change it there, not here.</p>' % (html.escape(named.group(1)), html.escape(label)))
        for target in (page, page.replace('.html', '_source.html')):
            path = os.path.join(out_dir, target)
            if not os.path.exists(path):
                continue
            text = read_bytes(path).decode('utf-8')
            text = text.replace('<div class="contents">', '<div class="contents">\n' + note, 1)
            write_file(path, text)


HTML_TAG = '<html xmlns="http://www.w3.org/1999/xhtml">'


def add_language(api_dir):
    """lang="en" on every page Doxygen wrote (its pages name no language, so a screen reader
    guesses one: the web review found it missing on all of them)."""
    for folder, _, names in os.walk(api_dir):
        for name in names:
            if not name.endswith('.html'):
                continue
            path = os.path.join(folder, name)
            text = read_bytes(path).decode('utf-8')
            if HTML_TAG in text:
                write_file(path, text.replace(HTML_TAG, HTML_TAG[:-1] + ' lang="en" xml:lang="en">', 1))


def _documented(node):
    return any(''.join(node.find(tag).itertext()).strip() for tag in ('briefdescription', 'detaileddescription')
               if node.find(tag) is not None)


def undocumented_in_harness(xml_dir):
    """['src/bench/x.cuh:12: function foo'] for each public API item of the harness with no comment."""
    problems = set()
    for name in os.listdir(xml_dir):
        if not name.endswith('.xml') or name == 'index.xml':
            continue
        for compound in ET.parse(os.path.join(xml_dir, name)).getroot().iter('compounddef'):
            kind = compound.get('kind')
            where = compound.find('location')
            if kind in ('class', 'struct') and compound.get('prot', 'public') == 'public' \
                    and '::detail' not in compound.findtext('compoundname', '') and not _documented(compound):
                problems.add('%s:%s: %s %s' % (where.get('file'), where.get('line'), kind,
                                               compound.findtext('compoundname')))
            for member in compound.iter('memberdef'):
                mkind, mname = member.get('kind'), member.findtext('name', '')
                args = member.findtext('argsstring', '') or ''
                exempt = (member.get('prot') != 'public' or mkind not in ('function', 'define')
                          or mname.startswith('~') or mname.startswith('operator=')
                          or mname == compound.findtext('compoundname', '').split('::')[-1]
                          or '=delete' in args.replace(' ', '') or '=default' in args.replace(' ', '')
                          or mname.startswith('_') or '::detail' in compound.findtext('compoundname', ''))
                if exempt or _documented(member):
                    continue
                loc = member.find('location')
                problems.add('%s:%s: %s %s' % (loc.get('file'), loc.get('line'), mkind, mname))
    return sorted(problems)


def check_harness(src_dir, env):
    """Raises ApiError naming every warning and undocumented item of the harness's headers."""
    harness = os.path.join(src_dir, HARNESS)
    if not os.path.isdir(harness):
        return
    with tempfile.TemporaryDirectory() as work:
        overrides = '\n'.join([
            'INPUT = ' + quoted(harness), 'FILE_PATTERNS = *.cuh *.h *.hpp', 'EXCLUDE_PATTERNS = *_test.* *_bench.*',
            'USE_MDFILE_AS_MAINPAGE =', 'OUTPUT_DIRECTORY = ' + work, 'GENERATE_HTML = NO',
            'GENERATE_XML = YES', 'XML_OUTPUT = xml', 'GENERATE_TAGFILE =', 'SOURCE_BROWSER = NO',
            'WARN_LOGFILE = ' + os.path.join(work, 'warnings.log'), 'WARN_AS_ERROR = NO', ''])
        code, output = run_doxygen(env, overrides)
        log = open(os.path.join(work, 'warnings.log')).read().strip() if os.path.exists(
            os.path.join(work, 'warnings.log')) else ''
        problems = [line for line in log.splitlines() if line.strip()]
        if code != 0:
            problems.append('doxygen exited %d: %s' % (code, output))
        xml_dir = os.path.join(work, 'xml')
        if os.path.isdir(xml_dir):
            problems += ['%s is not documented: give it a /// comment in chapters/A-bench.md' % p
                         for p in undocumented_in_harness(xml_dir)]
    if problems:
        raise ApiError('the harness\'s API documentation (src/%s) has %d problem(s); Doxygen '
                       'warnings count as errors there:\n  %s' % (HARNESS, len(problems), '\n  '.join(problems)))


def build(chapters, src_dir, out_dir, state):
    """Remakes api/ when src/ or the configuration changed. Returns (map file, map digest, key)."""
    api_dir = os.path.join(out_dir, 'api')
    map_file = os.path.join(out_dir, MAP_FILE)
    if not os.path.isdir(src_dir) or not os.listdir(src_dir):
        shutil.rmtree(api_dir, ignore_errors=True)
        write_file(map_file, '')
        return map_file, digest(''), None
    page = mainpage(chapters, src_dir)
    key = digest(tree_digest(src_dir), read_bytes(DOXYFILE), page, read_bytes(__file__), api_theme.inputs())
    if not state.unchanged('api', key, os.path.join(api_dir, 'book.tag'), map_file):
        shutil.rmtree(api_dir, ignore_errors=True)   # links into the previous book: unlink, never rewrite
        os.makedirs(api_dir)
        page_file = os.path.join(out_dir, '.render', 'api-mainpage.md')
        write_file(page_file, page)
        env = {'BOOK_SRC': os.path.abspath(src_dir), 'BOOK_STRIP': os.path.dirname(os.path.abspath(src_dir)),
               'BOOK_API_OUT': api_dir, 'BOOK_MAINPAGE': page_file,
               # the main page's folder is the staging folder, a new name each run: stripped, so
               # that no page names it (api/ is the same for the same src/ in every run)
               'BOOK_PAGE_DIR': os.path.dirname(page_file)}
        check_harness(src_dir, env)
        code, output = run_doxygen(env)
        if code != 0:
            raise ApiError('doxygen failed (exit %d):\n%s' % (code, output))
        warnings = read_bytes(os.path.join(api_dir, 'warnings.log')).decode().strip()
        if warnings:
            print('render: doxygen: %d warning(s) outside the harness, see %s/warnings.log'
                  % (len(warnings.splitlines()), api_dir))
        pages = file_pages(os.path.join(api_dir, 'book.tag'), src_dir)
        add_backlinks(pages, src_dir, out_dir, {c['basename']: c for c in chapters})
        add_language(api_dir)
        api_theme.theme(api_dir)   # the book's theme, a phone's width, axe's landmarks
        write_file(map_file, ''.join('%s\t%s\n' % item for item in sorted(pages.items())))
    return map_file, digest(read_bytes(map_file)), ('api', key)
