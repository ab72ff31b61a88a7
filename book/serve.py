#!/usr/bin/python3
"""make serve: the book over http://127.0.0.1:PORT/, each chapter remade as it is saved, and the
browser showing it reloaded (live reload).

    book/serve.py [--root REPO] [--out DIR] [--port 8000] [--weave PATH] [--interval 0.2]

Watches ROOT/chapters/*.md and book/style.css and book/book.js (their modification times, read
every INTERVAL seconds: no package beyond Python's own). When a chapter changes, the weaver weaves
the book again into OUT/woven (it takes a fraction of a second) and that chapter's page alone is
rendered into OUT (book/render/pages.py, reusing every highlighted code block that did not change),
then every browser showing that page reloads it: a script that the server adds to each page it
sends asks /__serve/version twice a second. A changed stylesheet or book.js is copied in and
reloads every page. A weave or render that fails prints its error here and on the page (a banner),
and leaves the previous page in place.

What the pages link to but are made from the whole book (the search index, print.html, the EPUB,
figures, downloads, the API reference) stays as the last `make book` left it; a page this server
remade is forgotten in OUT's render state, so the next `make book` renders it again. A chapter
whose page is missing from OUT is rendered when the server starts (after a first `make book`,
none is). The server listens on 127.0.0.1 only. Ctrl-C stops it."""
import argparse
import errno
import html
import http.server
import json
import os
import subprocess
import sys
import threading
import time
import traceback
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'render'))
sys.dont_write_bytecode = True
import book_index  # noqa: E402
import downloads  # noqa: E402
import downloads_page  # noqa: E402
import pages  # noqa: E402
from main import exclusive  # noqa: E402
from stamps import State, read_bytes, write_file  # noqa: E402

ASSETS = ['style.css', 'book.js']

# Added before </body> of every page served: reloads the page when the server says it was remade,
# and shows the last error in a banner (it goes again with the next good build).
RELOAD = """<script>
(function () {
  var page = decodeURIComponent(location.pathname.split('/').pop()) || 'index.html', seen = null, banner = null;
  function say(error) {
    if (!error) { if (banner) { banner.remove(); banner = null; } return; }
    if (!banner) {
      banner = document.createElement('pre');
      banner.style.cssText = 'position:fixed;left:0;right:0;bottom:0;z-index:99;margin:0;max-height:40vh;overflow:auto;' +
        'padding:.6rem 1rem;background:#fde8e8;color:#6b0000;font:12px/1.4 monospace;white-space:pre-wrap';
      document.body.appendChild(banner);
    }
    banner.textContent = 'make serve: ' + error;
  }
  function poll() {
    fetch('/__serve/version?page=' + encodeURIComponent(page), { cache: 'no-store' })
      .then(function (r) { return r.json(); })
      .then(function (v) {
        if (seen === null) seen = v.version;
        else if (v.version !== seen) { location.reload(); return; }
        say(v.error);
        setTimeout(poll, 500);
      }, function () { setTimeout(poll, 1000); });
  }
  poll();
})();
</script>
"""


def served_gpu(woven, measurements):
    """The GPU the served book was woven for (the slug in the last weave's roofline-inputs.json), so
    that a page remade here names the GPU its figures, drawn by that make book, were drawn for
    (make book GPU=nvidia-h200 draws the H200 with the reference beside it); None, and so the
    reference, where there is no such weave or that GPU's folder is gone."""
    try:
        with open(os.path.join(woven, 'roofline-inputs.json')) as f:
            slug = json.load(f).get('gpu_slug')
    except (OSError, ValueError, AttributeError):
        return None
    if isinstance(slug, str) and slug and os.path.isdir(os.path.join(measurements, slug)):
        return slug
    return None


class Book:
    """The served folder and what has been remade in it: a version per page, one for the assets."""

    def __init__(self, root, out, weave):
        self.root, self.out, self.weave = root, out, weave
        self.woven = os.path.join(out, 'woven')
        self.versions, self.assets, self.error = {}, 0, None
        self.lock = threading.Lock()

    def version(self, page):
        with self.lock:
            return {'version': self.versions.get(page, 0) + self.assets, 'error': self.error}

    def weave_book(self):
        with open(os.path.join(self.root, 'book', 'reference-gpu')) as f:
            reference = f.read().strip()
        measurements = os.path.join(self.root, 'book', 'measurements')
        gpu = served_gpu(self.woven, measurements)
        done = subprocess.run([self.weave, '--root', self.root, '--measurements', measurements, '--out', self.woven,
                               '--reference', reference] + (['--gpu', gpu] if gpu else []),
                              capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError('the weaver failed (exit %d):\n%s' % (done.returncode, (done.stderr or done.stdout).strip()))

    def render(self, basenames):
        """Weaves, then renders the pages of the chapters named; returns their page names. Holds the
        render's lock (OUT.lock, as make book and make weave do) throughout: a make book's render
        swaps OUT for its staging folder, and a page written into OUT before the swap, or a woven
        folder rewritten while that render reads it, would be lost or mixed."""
        with exclusive(self.out):
            return self.render_locked(basenames)

    def render_locked(self, basenames):
        self.weave_book()
        title, chapters = book_index.read(self.woven, self.root)
        api_map = os.path.join(self.out, '.render', 'api-map.tsv')
        state, made = State(self.out), []
        for i, chapter in enumerate(chapters):
            if chapter['basename'] not in basenames:
                continue
            href = downloads.href(chapter)      # the page links its entry on the downloads page
            href = downloads_page.entry_href(chapter) if os.path.exists(os.path.join(self.out, href)) else ''
            pages.render_chapter(title, chapters, i, href, api_map if os.path.exists(api_map) else None, self.out)
            state.forget('page:' + chapter['basename'])   # made outside make book: make book makes it again
            made.append(pages.page_name(chapter))
        state.save()
        return made

    def changed(self, basenames):
        """Renders these chapters; on success their pages' versions go up (their browsers reload)."""
        start = time.monotonic()
        try:
            made = self.render(basenames)
        except Exception as e:   # the server keeps serving the previous page, and says why
            message = str(e) if isinstance(e, (RuntimeError, OSError, book_index.BookError)) else traceback.format_exc()
            with self.lock:
                self.error = message
            print('serve: %s' % message, file=sys.stderr, flush=True)
            return
        with self.lock:
            self.error = None
            for page in made:
                self.versions[page] = self.versions.get(page, 0) + 1
        print('serve: %s remade in %.2f s' % (', '.join(made) or 'nothing', time.monotonic() - start), flush=True)

    def copy_assets(self):
        changed = False
        for asset in ASSETS:
            changed |= write_file(os.path.join(self.out, asset), read_bytes(os.path.join(self.root, 'book', asset)))
        if changed:
            with self.lock:
                self.assets += 1
        return changed


def watched(root):
    """{path: modification time} of the chapters and the assets."""
    folder = os.path.join(root, 'chapters')
    paths = [os.path.join(folder, n) for n in os.listdir(folder) if n.endswith('.md')]
    paths += [os.path.join(root, 'book', a) for a in ASSETS]
    times = {}
    for path in paths:
        try:
            times[path] = os.stat(path).st_mtime_ns
        except OSError:
            pass
    return times


def watch(book, interval, stop):
    seen = watched(book.root)
    while not stop.wait(interval):
        now = watched(book.root)
        edited = [p for p, t in now.items() if seen.get(p) != t]
        seen = now
        if not edited:
            continue
        chapters = {os.path.basename(p)[:-len('.md')] for p in edited if p.endswith('.md')}
        if any(not p.endswith('.md') for p in edited) and book.copy_assets():
            print('serve: style.css or book.js copied in', flush=True)
        if chapters:
            book.changed(chapters)


def handler(book):
    class Handler(http.server.SimpleHTTPRequestHandler):
        # an idle connection is closed after this many seconds: 500 silent ones held a thread each
        # for ever, and past about 230 no request could be served (tools.md SV08)
        timeout = 10

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=book.out, **kwargs)

        def refused(self, url):
            """Why this request is not served, or None (tools.md SV03-SV06): a Host other than this
            server's own (a page elsewhere reading the book through DNS rebinding); a NUL in the
            path (a traceback and no answer); a path whose real path leaves the served folder (a
            link placed in it); a folder without an index.html (its listing)."""
            port = self.server.server_address[1]
            if self.headers.get('Host', '') not in ('127.0.0.1:%d' % port, 'localhost:%d' % port):
                return 403, 'make serve answers http://127.0.0.1:%d/ only' % port
            if url.path == '/__serve/version':
                return None
            if '\0' in urllib.parse.unquote(url.path):
                return 404, 'no such page'
            path = self.translate_path(url.path)
            top = os.path.realpath(book.out)
            if os.path.commonpath([os.path.realpath(path), top]) != top:
                return 404, 'no such page'
            if os.path.isdir(path) and not os.path.isfile(os.path.join(path, 'index.html')):
                return 404, 'no such page'
            return None

        def do_HEAD(self):
            why = self.refused(urllib.parse.urlsplit(self.path))
            if why:
                return self.send(why[0], 'text/plain; charset=utf-8', b'', head=True)
            return super().do_HEAD()

        def end_headers(self):
            self.send_header('Cache-Control', 'no-store')
            super().end_headers()

        def log_message(self, *args):   # quiet: the terminal shows the rebuilds
            pass

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            why = self.refused(url)
            if why:
                return self.send(why[0], 'text/plain; charset=utf-8', (why[1] + '\n').encode())
            if url.path == '/__serve/version':
                page = urllib.parse.parse_qs(url.query).get('page', ['index.html'])[0]
                return self.send(200, 'application/json', json.dumps(book.version(page)).encode())
            path = self.translate_path(url.path)
            if os.path.isdir(path):
                path = os.path.join(path, 'index.html')
            if path.endswith('.html') and os.path.isfile(path):
                with open(path, 'rb') as f:
                    text = f.read().decode('utf-8', 'replace')
                at = text.rfind('</body>')
                text = text[:at] + RELOAD + text[at:] if at >= 0 else text + RELOAD
                return self.send(200, 'text/html; charset=utf-8', text.encode('utf-8'))
            return super().do_GET()

        def send(self, status, kind, body, head=False):
            self.send_response(status)
            self.send_header('Content-Type', kind)
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            if not head:
                self.wfile.write(body)
    return Handler


def bind(port, handler_class):
    """The server on 127.0.0.1:PORT, or None with a line saying why (tools.md SV11: a taken or
    impossible port was a traceback)."""
    if not 0 <= port <= 65535:
        print('make serve: port %d is not a port (0 to 65535): make serve PORT=8001' % port, file=sys.stderr)
        return None
    try:
        return http.server.ThreadingHTTPServer(('127.0.0.1', port), handler_class)
    except OSError as e:
        taken = e.errno == errno.EADDRINUSE
        print('make serve: port %d %s: make serve PORT=%d' % (
            port, 'is in use' if taken else 'cannot be opened (%s)' % e.strerror, port + 1 if port < 65535 else 8001),
            file=sys.stderr)
        return None


def main(argv):
    repo = os.path.dirname(HERE)
    parser = argparse.ArgumentParser(prog='make serve', description=__doc__.split('\n')[0])
    parser.add_argument('--root', default=repo, help='the repository (chapters/, book/): default this one')
    parser.add_argument('--out', help='the served book (default ROOT/build/book, as make book writes it)')
    parser.add_argument('--port', type=int, default=8000, help='the port on 127.0.0.1 (0: any free one)')
    parser.add_argument('--weave', help='the weaver (default ROOT/build/tangle/weave: make tools)')
    parser.add_argument('--interval', type=float, default=0.2, help='seconds between looks at the files')
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)
    out = os.path.abspath(args.out or os.path.join(root, 'build', 'book'))
    weave = os.path.abspath(args.weave or os.path.join(root, 'build', 'tangle', 'weave'))
    if not os.access(weave, os.X_OK):
        print('make serve: no weaver at %s: run make tools first' % weave, file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    book = Book(root, out, weave)
    book.copy_assets()
    try:
        book.weave_book()
        _, chapters = book_index.read(book.woven, root)
    except (RuntimeError, OSError, book_index.BookError) as e:
        print('make serve: %s' % e, file=sys.stderr)
        return 1
    missing = {c['basename'] for c in chapters if not os.path.exists(os.path.join(out, pages.page_name(c)))}
    if missing:
        print('serve: rendering %d page(s) missing from %s' % (len(missing), out), flush=True)
        book.changed(missing)
    server = bind(args.port, handler(book))
    if server is None:
        return 2
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(book, args.interval, stop), daemon=True)
    watcher.start()
    first = pages.page_name(chapters[0]) if chapters else ''
    print('serve: http://127.0.0.1:%d/%s (the book in %s); edit a chapter and save: its page reloads. '
          'Ctrl-C stops.' % (server.server_address[1], first, out), flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
        server.server_close()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
