#!/usr/bin/python3
"""The search's readiness on a phone-class CPU, as the web review timed it (issue 36):
  tests/render/search_ready.py BOOK_DIR [RATE] [LOADS]
loads BOOK_DIR/index.html in headless Chromium at 390x844 with its CPU throttled RATE times
(default 4), focuses the search box, types "warp" and prints the milliseconds until the first answer
is listed (the index loaded, the engine made, the query answered), for each of LOADS loads (default
5), and their median. Not run by CI (a shared machine's load moves it by half a second): run it
before and after a change to the index or book/search-core.js, on the same machine, alternately."""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import check_rendered  # noqa: E402  (its DevTools driver and the page that types the query)


def answered_ms(browser, root, rate):
    with tempfile.TemporaryDirectory() as work:
        page = check_rendered.write_load_page(work, os.path.join(root, 'index.html'))
        found = json.loads(check_rendered.cdp_page(browser, check_rendered.file_url(page),
                                                   "(document.getElementById('load-found') || {}).textContent || ''",
                                                   cpu_slowdown=rate))
    if found.get('error'):
        raise RuntimeError(found['error'])
    return found['answered']


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    rate = float(argv[2]) if len(argv) > 2 else 4
    loads = int(argv[3]) if len(argv) > 3 else 5
    browser = check_rendered.find_browser()
    times = sorted(answered_ms(browser, argv[1], rate) for _ in range(loads))
    print('search_ready: %s at %gx CPU: %s ms, median %d ms' % (argv[1], rate, ', '.join(map(str, times)),
                                                                times[len(times) // 2]))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
