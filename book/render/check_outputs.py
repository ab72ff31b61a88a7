"""The checks of the book's outputs beside its pages, for book/render/check_rendered.py:

  check_epub(root, errors)       each EPUB: its links (every internal one must name a file of the
                                 EPUB and an id in it; cross-references between chapters must be
                                 there, class xref, where the pages have any), its front matter (the section chapter-index,
                                 book/render/epub_front.py), its metadata (title, creator, language,
                                 date, identifier) and no <details> (verdicts are plain for readers
                                 without it). Returns [(epub, links, cross-references)].
  check_downloads(root, errors)  downloads.html lists and links every archive of downloads/, and
                                 each archive's README has its prerequisites, build and run steps
                                 and how its numbers relate to make measure
                                 (book/render/download_guide.py), and a chapter page's download
                                 links go to its entry there, not to the archive. Returns the
                                 archives' count."""
import glob
import html.parser
import os
import posixpath
import re
import tarfile
import zipfile

METADATA = ('dc:title', 'dc:creator', 'dc:language', 'dc:date', 'dc:identifier')
README_SECTIONS = ('## What is inside', '## Prerequisites', '## Build and run', '## Its numbers and the book\'s')


class Anchors(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links, self.xrefs, self.details = set(), [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'):
            self.ids.add(a['id'])
        if tag == 'a' and a.get('href'):
            self.links.append(a['href'])
            self.xrefs += 'xref' in (a.get('class') or '').split()
        if tag == 'details':
            self.details += 1


# what only a web page does, which a book's front matter must not ask of its reader
WEB_WORDS = re.compile(r'\b(hover\w*|click\w*|search box|search field|theme|toggle|dark mode|scroll\w*|'
                       r'this (?:web )?page)\b', re.I)


def check_epub(root, errors, expect_xrefs=True):
    found = []
    for path in sorted(glob.glob(os.path.join(root, '*.epub'))):
        name = os.path.basename(path)
        try:
            with zipfile.ZipFile(path) as z:
                members = {n: z.read(n) for n in z.namelist()}
        except (OSError, zipfile.BadZipFile):
            continue                                   # check_files reports an unreadable EPUB
        opf = next((data.decode('utf-8', 'replace') for n, data in members.items() if n.endswith('.opf')), '')
        errors += ['%s: no %s in its metadata (book/render/epub.py, book/metadata.yaml)' % (name, tag)
                   for tag in METADATA if '<' + tag not in opf]
        pages = {}
        for member, data in members.items():
            if member.endswith('.xhtml'):
                parser = Anchors()
                parser.feed(data.decode('utf-8', 'replace'))
                pages[member] = parser
        links = xrefs = broken = 0
        for member, page in pages.items():
            if member.endswith('nav.xhtml'):
                continue
            xrefs += page.xrefs
            if page.details:
                errors.append('%s: %s has %d <details>, which readers of the Kindle family do not show '
                              '(book/render/epub_tree.py)' % (name, member, page.details))
            for href in page.links:
                if re.match(r'[a-z]+:', href):
                    continue
                links += 1
                target, _, fragment = href.partition('#')
                target = posixpath.normpath(posixpath.join(posixpath.dirname(member), target)) if target else member
                if target not in pages or (fragment and fragment not in pages[target].ids):
                    broken += 1
                    if broken <= 5:
                        errors.append('%s: %s links to %s, which the EPUB does not hold' % (name, member, href))
        if broken > 5:
            errors.append('%s: %d more broken links' % (name, broken - 5))
        if expect_xrefs and not xrefs:
            errors.append('%s: no cross-reference between chapters is a link (code_blocks.lua makes them; '
                          'book/render/epub.py passes it the chapters)' % name)
        if not any('chapter-index' in p.ids for p in pages.values()):
            errors.append('%s: no front matter (section chapter-index: book/render/epub_front.py)' % name)
        for member, data in members.items():
            if member.endswith('.xhtml') and b'id="chapter-index"' in data:
                words = WEB_WORDS.findall(re.sub(r'<[^>]*>', ' ', data.decode('utf-8', 'replace')))
                if words:
                    errors.append('%s: its front matter speaks of the web page (%s): book/front.md\'s '
                                  '[[web||book]] words' % (name, ', '.join(sorted(set(w.lower() for w in words)))))
        found.append((name, links, xrefs))
    return found


def readme_of(archive):
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.name.count('/') == 1 and member.name.endswith('/README.md'):
                return tar.extractfile(member).read().decode('utf-8', 'replace')
    return ''


def check_downloads(root, errors):
    archives = sorted(glob.glob(os.path.join(root, 'downloads', '*.tar.gz')))
    if not archives:
        return 0
    page_path = os.path.join(root, 'downloads.html')
    if not os.path.exists(page_path):
        errors.append('downloads.html: missing, though downloads/ holds %d archive(s) (book/render/downloads_page.py)'
                      % len(archives))
        page = ''
    else:
        with open(page_path, encoding='utf-8') as f:
            page = f.read()
        for section in ('id="prerequisites"', 'id="build-and-run"', 'id="numbers"'):
            if section not in page:
                errors.append('downloads.html: no section %s' % section)
    for archive in archives:
        href = 'downloads/' + os.path.basename(archive)
        if page and 'href="%s"' % href not in page:
            errors.append('downloads.html: does not list %s' % href)
        try:
            text = readme_of(archive)
        except (OSError, tarfile.TarError) as e:
            errors.append('%s: not a readable archive (%s)' % (href, e))
            continue
        missing = [s for s in README_SECTIONS if s not in text]
        if missing:
            errors.append('%s: its README lacks %s (book/render/download_guide.py)' % (href, ', '.join(missing)))
    check_chapter_links(root, page, errors)
    return len(archives)


DOWNLOAD_LINK = re.compile(r'href="(downloads(?:/[^"#]*|\.html#([^"]*)))"')


def check_chapter_links(root, page, errors):
    """A chapter page's download links (its opening's and its code blocks') go to its entry on
    downloads.html, which must exist, never to a bare archive (web review, finding 21)."""
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    for path in sorted(glob.glob(os.path.join(root, '*.html'))):
        name = os.path.basename(path)
        if name in ('index.html', 'print.html', 'downloads.html'):
            continue
        with open(path, encoding='utf-8') as f:
            links = set(DOWNLOAD_LINK.findall(f.read()))
        for href, entry in sorted(links):
            if not entry:
                errors.append('%s: links the archive %s, not its entry on downloads.html '
                              '(downloads_page.entry_href)' % (name, href))
            elif entry not in ids:
                errors.append('%s: links %s, an entry downloads.html does not have' % (name, href))
