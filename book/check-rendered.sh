#!/usr/bin/env bash
# The rendered book's structural checks (run by .ci/run after make book, and by ctest on a fixture):
#   book/check-rendered.sh DIR [--chapters FILE] [--no-browser] [--no-epubcheck]
# (--no-browser, or its old name --no-screenshot, leaves out the checks in headless Chromium:
# blank pages, every page fitting a 390 px phone screen, search and its arrivals, and the longest
# main-thread task while the search index loads, timed with Chromium's CPU throttle off; --no-epubcheck leaves out epubcheck,
# which otherwise runs on the EPUB wherever Debian's epubcheck is installed.)
# The list of checks, and which findings are errors and which warnings: book/render/check_rendered.py.
set -euo pipefail
PYTHON=${PYTHON:-/usr/bin/python3}
exec "$PYTHON" "$(dirname "$0")/render/check_rendered.py" "$@"
