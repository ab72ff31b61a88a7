"""The book's chapters, in order, as the weaver's book.json lists them (id, title, basename,
stale, measured date, claims by verdict), completed with each chapter's src folder from its front
matter and what the book tells of its GPU (told_of)."""
import json
import os
import re

DEFAULT_TITLE = 'Kernels and the Machine'


class BookError(Exception):
    pass


FRONT_MATTER = re.compile(r'---\s*\n(.*?)\n(?:---|\.\.\.)\s*\n', re.S)


def body(text):
    """The chapter without its front matter, its lines kept as blank ones (Pandoc's messages
    name the woven file's lines). Pandoc reads it with -yaml_metadata_block: a body's own
    `---` / `key: value` / `---` is then a rule and text, as written, not metadata that
    vanished (tools.md O11); the front matter is read here, never by Pandoc."""
    match = FRONT_MATTER.match(text)
    return '\n' * match.group(0).count('\n') + text[match.end():] if match else text


def front_matter_value(text, key):
    """A scalar of the YAML front matter at the top of a Markdown file, or None."""
    match = FRONT_MATTER.match(text)
    if not match:
        return None
    value = re.search(r'^%s:\s*(.+?)\s*(?:#.*)?$' % re.escape(key), match.group(1), re.M)
    return value.group(1).strip('"\'') if value else None


def told_of(book, entries):
    """What the chapters' openings and the front page tell of the woven GPU (book/render/told.py):
    its name, the reference's, and where the list of what does not hold is (the GPUs page)."""
    book = book if isinstance(book, dict) else {}
    return {'gpu': book.get('gpu'), 'reference_gpu': book.get('reference_gpu'),
            'woven_is_reference': book.get('woven_is_reference', True),
            'list': 'gpus.html#does-not-hold' if any(isinstance(e, dict) and e.get('basename') == 'gpus' for e in entries) else None}


def read(woven_dir, repo):
    """Returns (book title, [chapter dict]) from WOVEN_DIR/book.json."""
    path = os.path.join(woven_dir, 'book.json')
    try:
        with open(path) as f:
            book = json.load(f)
    except OSError:
        raise BookError('%s: missing; run the weaver first (make book does)' % path)
    except ValueError as e:
        raise BookError('%s: not valid JSON: %s' % (path, e))
    entries = book.get('chapters') if isinstance(book, dict) else book
    if not isinstance(entries, list) or not entries:
        raise BookError('%s: expected a list of chapters (or {"chapters": [...]})' % path)
    title = book.get('title', DEFAULT_TITLE) if isinstance(book, dict) else DEFAULT_TITLE
    told = told_of(book, entries)
    chapters = []
    for n, entry in enumerate(entries):
        missing = [k for k in ('id', 'title', 'basename') if k not in entry]
        if missing:
            raise BookError('%s: chapter %d lacks %s' % (path, n + 1, ', '.join(missing)))
        md = os.path.join(woven_dir, entry['basename'] + '.md')
        if not os.path.exists(md):
            raise BookError('%s: lists %s, but %s does not exist' % (path, entry['basename'], md))
        with open(md, encoding='utf-8') as f:
            text = f.read()
        src = entry.get('src') or front_matter_value(text, 'src')
        if not src:
            source = os.path.join(repo, 'chapters', entry['basename'] + '.md')
            if os.path.exists(source):
                with open(source, encoding='utf-8') as f:
                    src = front_matter_value(f.read(), 'src')
        chapters.append({
            'id': str(entry['id']), 'title': entry['title'], 'basename': entry['basename'],
            'stale': bool(entry.get('stale', False)),
            'measured': entry.get('measured') or entry.get('measured_date') or entry.get('date') or '',
            'src': src or '', 'markdown': md, 'text': text,
            'source': entry.get('source') if isinstance(entry.get('source'), str) else None,
            'claims': entry.get('claims') if isinstance(entry.get('claims'), dict) else None,
            'book': told,
        })
    return title, chapters
