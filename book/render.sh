#!/usr/bin/env bash
# Renders the woven book: book/render.sh OUT_DIR WOVEN_DIR [--src DIR] [--jobs N]
# (pages, index, search, figures, downloads, API reference, EPUB; see book/render/main.py).
# Debian's python3 on purpose: it is the one with matplotlib (make deps installs it).
set -euo pipefail
PYTHON=${PYTHON:-/usr/bin/python3}
exec "$PYTHON" "$(dirname "$0")/render/main.py" "$@"
