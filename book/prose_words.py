#!/usr/bin/env python3
"""Words of prose in chapters: the measure of length the editorial issues use ("a fifth shorter").

Counted: every whitespace-separated word with a letter or digit, outside the front matter, code
fences, fenced-div lines (:::) and HTML comments; a woven span [key : quantity]{.m ...} counts as
one word; tables count, their cells being prose. Usage: python3 book/prose_words.py chapters/*.md
"""
import re
import sys

SPAN = re.compile(r'\[[^\[\]]*\]\{\.m[^}]*\}')
FENCE = re.compile(r'^(`{3,}|~{3,})')


def prose_lines(text):
    """The chapter's lines outside front matter, comments, code fences and div fences."""
    if text.startswith('---\n'):
        text = text[text.index('\n---\n', 4) + 5:]
    text = re.sub(r'<!--.*?-->', ' ', text, flags=re.S)
    fence = None
    for line in text.split('\n'):
        stripped = line.strip()
        opening = FENCE.match(stripped)
        if fence:
            if opening and stripped.startswith(fence) and not stripped.strip('`~'):
                fence = None
            continue
        if opening:
            fence = opening.group(1)
        elif not stripped.startswith(':::'):
            yield line


def words(path):
    body = SPAN.sub(' W ', '\n'.join(prose_lines(open(path, encoding='utf-8').read())))
    return sum(1 for token in body.split() if re.search(r'[A-Za-z0-9]', token))


if __name__ == '__main__':
    total = 0
    for path in sys.argv[1:]:
        count = words(path)
        total += count
        print(f'{count:6d} {path}')
    print(f'{total:6d} total')
