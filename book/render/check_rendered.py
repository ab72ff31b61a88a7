"""The rendered book's structural checks: book/check-rendered.sh DIR [--chapters FILE] [--no-screenshot].

Errors (exit 1), each naming the page:
  - a chapter of book/chapters.txt without its page, or missing from index.html;
  - an unresolved weaver key or placeholder in the text outside code: `{.m`, `]{.`, `roofline:`
    (also as an image or link target), a fence `:::`, a chunk reference `<<...>>`;
  - a broken internal link: every href and src of every page must name an existing file, and
    an anchor (#id) must exist in the page it names; a script, stylesheet or image from the network;
  - a <pre> that is not inside a code container (.code) with a copy button;
  - a chapter page without its dated box (class hwbox);
  - a missing or unreadable search index, EPUB, or stylesheet;
  - (unless --no-screenshot) a blank page: headless Chromium screenshots the first chapter in the
    light and the dark theme; each must have more than a few colours, and the two must differ.
Warnings (reported, exit 0): "not yet measured" (a chapter measured on no GPU yet is legitimate
until the first `make measure`), and each claim marked broken (the weaver already reports it).
Exit 77 when Chromium is needed but not installed (ctest counts it as skipped)."""
import argparse
import glob
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import zipfile

PLACEHOLDERS = [('{.m', 'an unresolved measurement key'), (']{.', 'an unrendered span'),
                ('roofline:', 'an unresolved roofline figure'), (':::', 'an unrendered fenced div')]
CHUNK_REF = re.compile(r'<<[^<>\n]{1,80}>>')
TEXT_SKIP = {'pre', 'code', 'script', 'style', 'math'}
BROWSERS = ['chromium', 'chromium-browser', 'google-chrome']


class Page(html.parser.HTMLParser):
    """One page's ids, links, text outside code, code blocks and their copy buttons, classes."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.classes = set(), [], set()
        self.text, self.stack, self.skip = [], [], 0
        self.pres, self.with_button = [], set()   # containers (stack positions' serials)
        self.serial = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get('class') or '').split()
        self.classes.update(classes)
        if a.get('id'):
            self.ids.add(a['id'])
        if tag == 'a' and a.get('name'):
            self.ids.add(a['name'])
        for attr in ('href', 'src'):
            if a.get(attr) is not None:
                self.links.append((tag, attr, a[attr]))
        if tag in ('meta', 'link', 'img', 'br', 'hr', 'input', 'source', 'col', 'wbr'):
            return
        self.serial += 1
        self.stack.append((tag, 'code' in classes and tag == 'div', self.serial))
        if tag in TEXT_SKIP:
            self.skip += 1
        if tag == 'pre':
            self.pres.append(self.container())
        if tag == 'button' and 'copy' in classes and self.container():
            self.with_button.add(self.container())

    def container(self):
        for tag, is_code, serial in reversed(self.stack):
            if is_code:
                return serial
        return None

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                for closed, _, _ in self.stack[i:]:
                    if closed in TEXT_SKIP:
                        self.skip -= 1
                del self.stack[i:]
                return

    def handle_data(self, data):
        if self.skip == 0:
            self.text.append(data)


def parse(path, cache={}):
    if path not in cache:
        page = Page()
        with open(path, encoding='utf-8', errors='replace') as f:
            page.feed(f.read())
        cache[path] = page
    return cache[path]


def chapter_pages(chapters_file):
    names = []
    with open(chapters_file) as f:
        for line in f:
            line = line.split('#')[0].strip()
            if line:
                names.append(os.path.splitext(os.path.basename(line))[0] + '.html')
    return names


def check_links(root, name, page, errors):
    for tag, attr, target in page.links:
        parts = urllib.parse.urlsplit(target)
        if parts.scheme or target.startswith('//'):
            if parts.scheme in ('http', 'https') and (attr == 'src' or tag == 'link'):
                errors.append('%s: <%s %s="%s"> loads from the network; the book must work offline'
                              % (name, tag, attr, target))
            elif parts.scheme == 'roofline':
                errors.append('%s: %s="%s" is an unresolved roofline figure' % (name, attr, target))
            continue
        path = urllib.parse.unquote(parts.path)
        file = os.path.normpath(os.path.join(os.path.dirname(os.path.join(root, name)), path)) if path \
            else os.path.join(root, name)
        if not os.path.exists(file):
            errors.append('%s: %s="%s": no such file %s' % (name, attr, target, os.path.relpath(file, root)))
            continue
        if parts.fragment and file.endswith('.html'):
            anchor = urllib.parse.unquote(parts.fragment)
            if anchor not in parse(file).ids:
                errors.append('%s: %s="%s": no id "%s" in %s' % (name, attr, target, anchor, os.path.relpath(file, root)))


def check_text(name, page, errors, warnings):
    text = ' '.join(''.join(page.text).split())
    for needle, what in PLACEHOLDERS:
        found = re.search(re.escape(needle) + r'(?=\S)' if needle == 'roofline:' else re.escape(needle), text)
        at = found.start() if found else -1   # 'roofline:' only as a target (roofline:3.1), not prose
        if at >= 0:
            errors.append('%s: %s in the text: "...%s..."' % (name, what, text[max(0, at - 40):at + 40]))
    ref = CHUNK_REF.search(text)
    if ref:
        errors.append('%s: an unexpanded chunk reference outside code: "%s"' % (name, ref.group(0)))
    if 'not yet measured' in text.lower():
        warnings.append('%s: says "not yet measured" (run make measure on a GPU)' % name)
    if 'claim-broken' in page.classes:
        warnings.append('%s: has a claim that no longer holds on this GPU' % name)


def check_code(name, page, errors):
    bare = sum(1 for c in page.pres if c is None)
    no_button = sum(1 for c in page.pres if c is not None and c not in page.with_button)
    if bare:
        errors.append('%s: %d code block(s) outside a code container (no copy button)' % (name, bare))
    if no_button:
        errors.append('%s: %d code block(s) whose container has no copy button' % (name, no_button))


def check_files(root, chapters, errors):
    for required in ('style.css', 'book.js', 'index.html'):
        if not os.path.exists(os.path.join(root, required)):
            errors.append('%s: missing' % required)
    try:
        with open(os.path.join(root, 'search-index.json'), encoding='utf-8') as f:
            entries = json.load(f)['entries']
        indexed = {e['p'] for e in entries}
        for page in chapters:
            if page not in indexed:
                errors.append('search-index.json: nothing from %s' % page)
    except (OSError, ValueError, KeyError) as e:
        errors.append('search-index.json: missing or unreadable (%s)' % e)
    epubs = glob.glob(os.path.join(root, '*.epub'))
    if not epubs:
        errors.append('no EPUB in %s' % root)
    for epub in epubs:
        try:
            with zipfile.ZipFile(epub) as z:
                if z.read('mimetype') != b'application/epub+zip':
                    errors.append('%s: not an EPUB (mimetype)' % os.path.basename(epub))
        except (OSError, KeyError, zipfile.BadZipFile) as e:
            errors.append('%s: not a readable EPUB (%s)' % (os.path.basename(epub), e))


def screenshot(browser, page, png, dark):
    with tempfile.TemporaryDirectory() as profile:
        command = [browser, '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
                   '--disable-component-update', '--disable-sync', '--no-first-run', '--hide-scrollbars',
                   '--user-data-dir=' + profile, '--screenshot=' + png, '--window-size=1200,1600']
        if dark:
            command += ['--force-dark-mode', '--blink-settings=preferredColorScheme=0']
        subprocess.run(command + ['file://' + os.path.abspath(page)], capture_output=True, timeout=120)


def colours(png):
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.image
    pixels = matplotlib.image.imread(png)
    flat = (pixels[..., :3].reshape(-1, 3) * 255).round().astype('uint32')
    keys = flat[:, 0] << 16 | flat[:, 1] << 8 | flat[:, 2]
    values, counts = __import__('numpy').unique(keys, return_counts=True)
    return len(values), counts.max() / counts.sum(), keys


def check_screenshots(root, page_name, errors):
    browser = os.environ.get('CHROMIUM') or next((b for b in BROWSERS if shutil.which(b)), None)
    if not browser:
        print('check-rendered: Chromium is not installed (apt-get install chromium, or make deps); '
              'cannot check that a page is not blank', file=sys.stderr)
        sys.exit(77)
    shots = {}
    with tempfile.TemporaryDirectory() as work:
        for theme in ('light', 'dark'):
            png = os.path.join(work, theme + '.png')
            screenshot(browser, os.path.join(root, page_name), png, theme == 'dark')
            if not os.path.exists(png):
                errors.append('%s: Chromium wrote no %s screenshot' % (page_name, theme))
                continue
            count, dominant, keys = colours(png)
            shots[theme] = keys
            if count < 8 or dominant > 0.995:
                errors.append('%s: the %s screenshot is blank (%d colours, %.1f%% one colour)'
                              % (page_name, theme, count, 100 * dominant))
    if len(shots) == 2 and (shots['light'] == shots['dark']).all():
        errors.append('%s: the dark theme looks exactly like the light one' % page_name)


def main(argv):
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser = argparse.ArgumentParser(prog='book/check-rendered.sh', description=__doc__.split('\n')[0])
    parser.add_argument('dir')
    parser.add_argument('--chapters', default=os.path.join(repo, 'book', 'chapters.txt'))
    parser.add_argument('--no-screenshot', action='store_true')
    args = parser.parse_args(argv)
    root, errors, warnings = args.dir, [], []
    chapters = chapter_pages(args.chapters)
    for name in chapters:
        if not os.path.exists(os.path.join(root, name)):
            errors.append('%s: missing (book/chapters.txt lists it)' % name)
    pages = sorted(os.path.basename(p) for p in glob.glob(os.path.join(root, '*.html')))
    for name in pages:
        page = parse(os.path.join(root, name))
        check_links(root, name, page, errors)
        check_text(name, page, errors, warnings)
        check_code(name, page, errors)
        if name in chapters and 'hwbox' not in page.classes:
            errors.append('%s: no dated hardware box (class hwbox)' % name)
    if os.path.exists(os.path.join(root, 'index.html')):
        linked = {urllib.parse.urlsplit(t).path for _, _, t in parse(os.path.join(root, 'index.html')).links}
        errors += ['index.html: no link to %s' % c for c in chapters if c not in linked]
    check_files(root, chapters, errors)
    present = [c for c in chapters if os.path.exists(os.path.join(root, c))]
    if not args.no_screenshot and present:
        check_screenshots(root, present[0], errors)
    for w in warnings:
        print('check-rendered: warning: ' + w)
    for e in errors:
        print('check-rendered: ' + e, file=sys.stderr)
    print('check-rendered: %s: %d page(s), %d error(s), %d warning(s)' % (root, len(pages), len(errors), len(warnings)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
