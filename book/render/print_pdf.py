"""The print view as a PDF whose contents have page numbers:
    python3 book/render/print_pdf.py BOOK_DIR [PDF]     (PDF: BOOK_DIR/kernels-and-the-machine.pdf)

Chromium does not implement CSS target-counter() (checked on Chromium 156: the contents print
without numbers), so the numbers are found by printing: headless Chromium prints print.html once;
pdftotext (poppler-utils) reads each page's first line, the running head that print_view.py sets
per chapter; a chapter's first page is the first whose head is the chapter's. The numbers are
written into a copy of print.html beside it (print_view.with_page_numbers), which is printed
again; the numbers sit on lines the contents already had, so no page moves, and the second print
is read again to make sure. Takes two prints of the whole book (minutes on two cores): a command
of its own, not part of make book. Prints each chapter's first page and the page count."""
import html
import os
import time
import re
import shutil
import subprocess
import sys
import tempfile

import print_view

CHROMIUM = ['chromium', 'chromium-browser', 'google-chrome']
# Chromium's --timeout: without it, two prints of the whole book here sat idle after layout (the
# renderer's CPU time stopped growing) until killed, while each of three with it printed all 352-356
# pages within 2-4 minutes, well before the limit; so a print that still reaches it is an error.
PRINT_LIMIT_MS = 900000


def browser():
    for name in CHROMIUM:
        if shutil.which(name):
            return shutil.which(name)
    raise SystemExit('print_pdf: no Chromium found (%s)' % ', '.join(CHROMIUM))


def print_to_pdf(page, pdf):
    if os.path.exists(pdf):
        os.unlink(pdf)                                   # a previous run's, never taken for this one's
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as profile:
        done = subprocess.run([browser(), '--headless=new', '--no-sandbox', '--disable-gpu', '--no-pdf-header-footer',
                               '--user-data-dir=' + profile, '--timeout=%d' % PRINT_LIMIT_MS,
                               '--print-to-pdf=' + pdf, 'file://' + os.path.abspath(page)],
                              capture_output=True, text=True, timeout=1800)
    if not os.path.exists(pdf):
        raise SystemExit('print_pdf: Chromium printed no PDF of %s (exit %d): %s'
                         % (page, done.returncode, done.stderr.strip()[-400:]))
    if time.monotonic() - started >= PRINT_LIMIT_MS / 1000:
        raise SystemExit('print_pdf: %s took Chromium past its --timeout of %d s, so the page may have printed '
                         'before it finished loading: run make pdf again on a quieter machine'
                         % (page, PRINT_LIMIT_MS // 1000))


def page_heads(pdf):
    """Each page's first line of text (its running head, or its first words), whitespace collapsed."""
    if not shutil.which('pdftotext'):
        raise SystemExit('print_pdf: pdftotext is missing (Debian: apt-get install poppler-utils)')
    text = subprocess.run(['pdftotext', '-layout', '-enc', 'UTF-8', pdf, '-'], capture_output=True, text=True,
                          check=True).stdout
    heads = []
    for page in text.split('\f'):
        lines = [' '.join(line.split()) for line in page.split('\n') if line.strip()]
        heads.append(lines[0] if lines else '')
    return heads[:-1] if heads and heads[-1] == '' else heads


CONTENTS_LINE = re.compile(r'<li><a href="#([^"]+)">([^<]*)</a><span class="leader">')


def chapters_listed(page_html):
    """[(section id, its running head)] of print.html's contents, in order."""
    return [(html.unescape(i), ' '.join(html.unescape(t).split())) for i, t in CONTENTS_LINE.findall(page_html)]


def first_pages(chapters, heads):
    """{section id: its first page, counted from 1}, for each chapter whose running head some page shows."""
    found = {}
    for section, head in chapters:
        for n, line in enumerate(heads, 1):
            if line == head:
                found[section] = n
                break
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out = argv[1]
    pdf = argv[2] if len(argv) > 2 else os.path.join(out, 'kernels-and-the-machine.pdf')
    source = os.path.join(out, 'print.html')
    with open(source, encoding='utf-8') as f:
        text = f.read()
    chapters = chapters_listed(text)
    numbered = os.path.join(out, '.print-numbered.html')   # beside print.html: its links and figures resolve
    first = pdf + '.pass1.pdf'
    try:
        print_to_pdf(source, first)
        numbers = first_pages(chapters, page_heads(first))
        with open(numbered, 'w', encoding='utf-8') as f:
            f.write(print_view.with_page_numbers(text, numbers))
        print_to_pdf(numbered, pdf)
        heads = page_heads(pdf)
        again = first_pages(chapters, heads)
    finally:
        for leftover in (numbered, first):
            if os.path.exists(leftover):
                os.unlink(leftover)
    moved = {k: (v, again.get(k)) for k, v in numbers.items() if again.get(k) != v}
    missing = [section for section, _ in chapters if section not in numbers]
    print('print_pdf: %s: %d pages; chapters start on pages %s' % (pdf, len(heads), ', '.join(
        '%s %d' % (k, v) for k, v in sorted(again.items(), key=lambda kv: kv[1]))))
    if missing:
        print('print_pdf: no page shows the running head of %s: their contents lines have no number'
              % ', '.join(missing), file=sys.stderr)
    if moved:
        print('print_pdf: the numbers moved pages in the second print (%s): the contents are wrong' % moved,
              file=sys.stderr)
        return 1
    return 1 if missing else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
