#!/usr/bin/env python3
"""Code in the chapters is kept to 100 columns (issue 11 item 3): every line of a fenced code block
in every chapter book/chapters.txt lists, counted in characters, not bytes. Prints file:line and
the width of each longer line; exit 1 if there is one, 2 on bad input.

usage: check_code_width.py [--root DIR] [--limit N]"""
import argparse
import re
import sys
from pathlib import Path

FENCE = re.compile(r'^ {0,3}(`{3,}|~{3,})')


def chapters(root):
    listing = root / 'book' / 'chapters.txt'
    try:
        text = listing.read_text(encoding='utf-8-sig')
    except OSError as error:
        raise SystemExit(f'{listing}: cannot read the chapter list: {error.strerror}')
    for line in text.split('\n'):
        path = line.split('#', 1)[0].strip()
        if path:
            yield path


def long_lines(path, text, limit):
    """(line number, width) of each line inside a fenced code block that is wider than limit."""
    fence = None
    for number, line in enumerate(text.split('\n'), start=1):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence = match.group(1)
            continue
        if match and line.strip().startswith(fence) and line.strip().strip(fence[0]) == '':
            fence = None
            continue
        width = len(line.rstrip('\r'))
        if width > limit:
            yield number, width


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--root', default='.', help='the repository (default: .)')
    parser.add_argument('--limit', type=int, default=100)
    args = parser.parse_args()
    root = Path(args.root)
    found = 0
    for relative in chapters(root):
        try:
            text = (root / relative).read_text(encoding='utf-8-sig')
        except (OSError, UnicodeDecodeError) as error:
            print(f'{relative}: error: cannot read the chapter: {error}', file=sys.stderr)
            return 2
        for number, width in long_lines(relative, text, args.limit):
            print(f'{relative}:{number}: code line of {width} columns, over {args.limit}')
            found += 1
    if found:
        print(f'check_code_width: {found} code line(s) over {args.limit} columns; wrap them '
              '(and re-tangle)', file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
