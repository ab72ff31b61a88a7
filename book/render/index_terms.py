"""The book's index (book/index-terms/<chapter>.txt; the format is in the README there): the
entries an author lists for each chapter, each a term, the other names a reader may look it up by,
and the sections that teach it, the first of them where it is taught.

  read(folder, chapters)          the entries, in the chapters' order; IndexTermsError names the
                                  file and line of each line it cannot read
  check(entries, headings)        IndexTermsError for each anchor that is no heading of its chapter
  page_headings(path)             {anchor: the heading's HTML} of a rendered page ('' its title)
  lines(entries, chapters)        the index's lines by letter (a term and its places, or an other
                                  name and the terms to see), and each term's id
  body(entries, chapters, headings)     the Index page's HTML
  markdown(entries, chapters, sections) the same, as Markdown, for the EPUB (epub.py)
  by_section(entries, chapters)   {page#anchor: (names it is the first place of, later ones)}: what
                                  the search adds to each section (search_index.py)
  questions(entries, chapters)    {page#anchor: [the readers' questions it answers]}: the search's
                                  too (a line `? QUESTION -> #anchor`, never printed)
  build(title, chapters, out_dir, work_dir)   reads, checks, writes index-of-terms.html"""
import html
import os
import re
import unicodedata

# the book's entries (book/render.sh --index-terms names another book's: the render tests' fixture)
FOLDER = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'index-terms')
NAME = 'index-of-terms.html'
ENTRY = re.compile(r'^(?P<names>.*?)\s+->\s+(?P<anchors>#\S*(?:\s+#\S*)*)$')
ANCHOR = re.compile(r'^#[a-z0-9][a-z0-9._-]*$|^#$')
HEADING = re.compile(r'<h([1-4])\b([^>]*)>(.*?)</h\1>', re.S)
ID = re.compile(r'\bid="([^"]*)"')
LINK = re.compile(r'</?a\b[^>]*>')


class IndexTermsError(RuntimeError):
    pass


class Entry:
    """A line of a chapter's file: an index entry (term, other names, anchors), or, where question
    is set, a reader's question that the anchors' sections answer (term: the question)."""
    def __init__(self, term, others, chapter, anchors, where, question=False):
        self.term, self.others, self.chapter, self.anchors, self.where = term, others, chapter, anchors, where
        self.question = question


def printed(entries):
    """The entries the index prints (not the readers' questions)."""
    return [e for e in entries if not e.question]


def _file(folder, name):
    return os.path.relpath(os.path.join(folder, name))


def _where(folder, name, number):
    return '%s:%d' % (_file(folder, name), number)


def read(folder, chapters):
    """The entries of every <chapter>.txt in FOLDER (the book's: FOLDER), in the chapters' order. A file
    whose name is no chapter's id, a line that is not `TERM ; OTHER -> #ANCHOR ...`, an empty name
    or a name twice on a line is an IndexTermsError naming the file and line."""
    if not os.path.isdir(folder):
        return []
    ids = [c['id'] for c in chapters]
    errors, entries = [], []
    files = sorted(f for f in os.listdir(folder) if f.endswith('.txt'))
    for name in files:
        chapter = name[:-len('.txt')]
        if chapter not in ids:
            errors.append('%s: no chapter has the id %r (the file is named for its chapter: %s)'
                          % (_file(folder, name), chapter, ', '.join(i + '.txt' for i in ids)))
            continue
        with open(os.path.join(folder, name), encoding='utf-8') as f:
            lines = f.read().split('\n')
        for number, line in enumerate(lines, 1):
            text = line.strip()
            if not text or text.startswith('#'):
                continue
            question = text.startswith('?')
            if question:
                text = text[1:].strip()
            match = ENTRY.match(text)
            if not match:
                errors.append('%s: not an entry: %r; write TERM ; OTHER NAME -> #anchor (book/index-terms/README.md)'
                              % (_where(folder, name, number), text[:80]))
                continue
            names = ([' '.join(match.group('names').split())] if question else
                     [' '.join(n.split()) for n in match.group('names').split(';')])
            anchors = match.group('anchors').split()
            bad = [a for a in anchors if not ANCHOR.match(a)]
            if bad:
                errors.append('%s: %s is not an anchor: write # and a heading\'s id (#a-divergent-branch-priced), '
                              'or # alone for the chapter\'s opening' % (_where(folder, name, number), bad[0]))
                continue
            if not all(names):
                errors.append('%s: an empty name between semicolons' % _where(folder, name, number))
                continue
            folded = [fold(n) for n in names]
            if len(set(folded)) != len(folded):
                errors.append('%s: a name twice on one line: %s' % (_where(folder, name, number), names))
                continue
            entries.append(Entry(names[0], names[1:], chapter, [a[1:] for a in anchors],
                                 _where(folder, name, number), question))
    if errors:
        raise IndexTermsError('the book\'s index:\n  ' + '\n  '.join(errors))
    order = {i: n for n, i in enumerate(ids)}
    entries.sort(key=lambda e: order[e.chapter])      # stable: each file's lines stay in order
    return entries


def page_headings(path):
    """{anchor: heading HTML, its links taken out} of a rendered page's h1-h4; '' is its title."""
    with open(path, encoding='utf-8') as f:
        page = f.read()
    found = {}
    for level, attributes, inner in HEADING.findall(page):
        anchor = (ID.search(attributes) or [None, ''])[1]
        inner = LINK.sub('', inner).strip()
        if level == '1' and not anchor:
            found.setdefault('', re.sub(r'<span class="chapter-id">[^<]*</span>\s*', '', inner))
        elif anchor:
            found.setdefault(anchor, inner)
    return found


def check(entries, headings):
    """IndexTermsError listing each anchor that is no heading of its chapter's page (headings:
    {chapter id: page_headings})."""
    errors = []
    for e in entries:
        known = headings.get(e.chapter, {})
        for anchor in e.anchors:
            if anchor not in known:
                near = [a for a in known if a and (anchor[:12] in a or a[:12] in anchor)]
                errors.append('%s: chapter %s has no heading #%s%s' % (
                    e.where, e.chapter, anchor, '; did you mean #%s?' % near[0] if near else
                    '; its headings\' ids are in its page (id="..." on each h2-h4)'))
    if errors:
        raise IndexTermsError('the book\'s index:\n  ' + '\n  '.join(errors))


GREEK = dict(zip('αβγδεζηθκλμνξπρστφχψωΓΔΘΛΠΣΦΩ',
                 'alpha beta gamma delta epsilon zeta eta theta kappa lambda mu nu xi pi rho sigma tau phi chi '
                 'psi omega Gamma Delta Theta Lambda Pi Sigma Phi Omega'.split()))


def fold(name):
    """A name's sort key: lower case, a Greek letter as its name (λ_0: lambda_0), accents and
    leading marks (_ . -) off: __syncthreads under S, cp.async under C."""
    text = ''.join(GREEK.get(ch, ch) for ch in name)
    text = unicodedata.normalize('NFKD', text).encode('ascii', 'ignore').decode().lower()
    return re.sub(r'^[^a-z0-9]+', '', text) or text


def term_key(term):
    """The key a term's places are gathered under: folded, without a trailing gloss in brackets,
    so that "B_read (read bandwidth)" in one chapter's file and "B_read (read-stream bandwidth)"
    in another's are one line of the index."""
    return fold(re.sub(r'\s*\([^()]*\)$', '', term) or term)


def letter(name):
    first = fold(name)[:1]
    return first.upper() if first.isalpha() else '#'


def slug(name):
    return 'term-' + (re.sub(r'[^a-z0-9]+', '-', fold(name)).strip('-') or 'x')


def page_of(chapters):
    return {c['id']: c['basename'] + '.html' for c in chapters}


def places(entries, chapters):
    """{term as folded: (term as written, [(chapter, anchor)] in book order, once each)}."""
    order = {c['id']: n for n, c in enumerate(chapters)}
    found = {}
    for e in printed(entries):
        written, where = found.setdefault(term_key(e.term), (e.term, []))
        for anchor in e.anchors:
            if (e.chapter, anchor) not in where:
                where.append((e.chapter, anchor))
    for written, where in found.values():
        where.sort(key=lambda p: order[p[0]])
    return found


def lines(entries, chapters):
    """The index's lines by letter, each letter's sorted: (key, written, places, see), places
    [(chapter, anchor)] for a term's line, see [the terms to see] for an other name's; and each
    term's id on the page, {term_key: id}."""
    terms = places(entries, chapters)
    see = {}
    for e in printed(entries):
        shown = terms[term_key(e.term)][0]        # the term as its index line prints it
        for other in e.others:
            if term_key(other) not in terms:
                targets = see.setdefault(fold(other), (other, []))[1]
                if shown not in targets:
                    targets.append(shown)
    found, ids = {}, {}
    for key in sorted(terms):       # each term's id, unique: two terms may slug alike (issue_active, issue active)
        ident, n = slug(terms[key][0]), 1
        while ident in ids.values():
            n += 1
            ident = '%s-%d' % (slug(terms[key][0]), n)
        ids[key] = ident
    for key, (written, where) in terms.items():
        found.setdefault(letter(written), []).append((key, written, where, None))
    for key, (written, targets) in see.items():
        found.setdefault(letter(written), []).append((key, written, None, targets))
    return [(k, sorted(found[k], key=lambda line: line[0])) for k in sorted(found, key=lambda k: (k == '#', k))], ids


def letter_id(k):
    return 'letter-' + ('symbols' if k == '#' else k.lower())


def letter_name(k):
    return 'Numbers and symbols' if k == '#' else k


INTRODUCTION = ('The book\'s terms, each with the sections that teach it (the chapter\'s number, then the '
                'section). A name the field also uses points to the book\'s own term (%s). The search reads '
                'these entries too.')


def body(entries, chapters, headings):
    """The Index page's body: a letter bar, then each letter's lines: a term and its places (the
    chapter's number and the section's heading, linked; of several, the first, where the book
    teaches it, in bold), or an other name and the terms to see."""
    pages = page_of(chapters)
    by_letter, ids = lines(entries, chapters)
    parts = ['<h1 class="title">Index</h1>', '<p>%s</p>' % (INTRODUCTION % '<em>see</em>'),
             '<nav class="index-letters" aria-label="Index letters">%s</nav>' % ' '.join(
                 '<a href="#%s">%s</a>' % (letter_id(k), 'Symbols' if k == '#' else k) for k, _ in by_letter)]
    for k, items in by_letter:
        parts.append('<h2 id="%s">%s</h2>' % (letter_id(k), letter_name(k)))
        rows = []
        for _, written, where, see in items:
            if where is not None:
                # the first place (where the book teaches it, README) in bold, as a printed index does
                links = ', '.join('<a href="%s"%s>%s <span class="index-section">%s</span></a>' % (
                    html.escape(pages[chapter] + ('#' + anchor if anchor else '')),
                    ' class="index-first"' if n == 0 and len(where) > 1 else '', html.escape(chapter),
                    headings.get(chapter, {}).get(anchor, '')) for n, (chapter, anchor) in enumerate(where))
                rows.append('<li id="%s"><span class="index-term">%s</span> %s</li>'
                            % (ids[term_key(written)], html.escape(written), links))
            else:
                rows.append('<li class="index-see"><span class="index-term">%s</span>, <em>see</em> %s</li>' % (
                    html.escape(written), '; '.join('<a href="#%s">%s</a>' % (ids[term_key(t)], html.escape(t)) for t in see)))
        parts.append('<ul class="index-terms">\n%s\n</ul>' % '\n'.join(rows))
    return '\n'.join(parts) + '\n'


MARKDOWN_MARKS = re.compile(r'([\\`*_\[\]{}<>#$^~&|@])')


def markdown(entries, chapters, sections):
    """The Index as Markdown, for the EPUB (epub.py): the same lines, each place a link to the
    chapter's page and section (epub.join points it inside the EPUB), the section named by its
    heading as the chapter writes it (sections: pages.chapter_sections's lines)."""
    pages = page_of(chapters)
    titles = {c['id']: c['title'] for c in chapters}
    heading = {}
    for line in sections.split('\n'):
        if line.count('\t') == 2:
            chapter, anchor, text = line.split('\t')
            heading.setdefault(chapter, {})[anchor] = text
    plain = lambda text: MARKDOWN_MARKS.sub(r'\\\1', text)
    parts = ['# Index {#book-index}', '', INTRODUCTION % '*see*', '']
    by_letter, ids = lines(entries, chapters)
    for k, items in by_letter:
        parts += ['## %s {#%s}' % (letter_name(k), letter_id(k)), '']
        for _, written, where, see in items:
            if where is not None:
                links = ', '.join(('[**%s %s**](%s)' if n == 0 and len(where) > 1 else '[%s %s](%s)') % (
                    chapter, heading.get(chapter, {}).get(anchor, '') if anchor else plain(titles[chapter]),
                    pages[chapter] + ('#' + anchor if anchor else '')) for n, (chapter, anchor) in enumerate(where))
                parts.append('- [**%s**]{#%s} %s' % (plain(written), ids[term_key(written)], links))
            else:
                parts.append('- %s, *see* %s' % (plain(written), '; '.join('[%s](#%s)' % (plain(t), ids[term_key(t)])
                                                                         for t in see)))
        parts.append('')
    return '\n'.join(parts) + '\n'


def by_section(entries, chapters):
    """{page#anchor: ([names it is the first place of], [names it is a later place of])}, for the
    search (search_index.py). A name's first place is where the book teaches it: of the entries
    whose term it is (else of those listing it as an other name), those of the earliest chapter
    (the course builds up: a later chapter that lists it applies it; an inverted entry such as
    "Little's law, for a pipeline of stages" is a term of its own), at each one's first anchor (an
    entry names the section that teaches it first, then those that add to it). Its other places
    are later."""
    pages = page_of(chapters)
    order = {c['id']: n for n, c in enumerate(chapters)}
    as_term, as_other, firsts = {}, {}, {}
    for e in printed(entries):
        for k, name in enumerate([e.term] + e.others):
            table = as_term if k == 0 or term_key(name) == term_key(e.term) else as_other
            written, where = table.setdefault(term_key(name), (name, []))
            where.extend((e.chapter, a) for a in e.anchors if (e.chapter, a) not in where)
            firsts.setdefault(term_key(name), set()).add((e.chapter, e.anchors[0]))
    names = {}
    for key in list(as_term) + [k for k in as_other if k not in as_term]:
        written, where = as_term.get(key) or as_other[key]
        later = [p for p in as_other.get(key, ('', []))[1] if p not in where] if key in as_term else []
        first = min(order[c] for c, _ in where)
        for chapter, anchor in where + later:
            primary = order[chapter] == first and (chapter, anchor) in where and (chapter, anchor) in firsts[key]
            known = names.setdefault(pages[chapter] + '#' + anchor, ([], []))
            if written not in known[0] and written not in known[1]:
                known[0 if primary else 1].append(written)
    return names


def questions(entries, chapters):
    """{page#anchor: [the readers' questions the section answers]}, for the search
    (search_index.py): a question counts for each of its anchors' sections."""
    pages, found = page_of(chapters), {}
    for e in entries:
        if e.question:
            for anchor in e.anchors:
                found.setdefault(pages[e.chapter] + '#' + anchor, []).append(e.term)
    return found


def build(book_title, chapters, out_dir, work_dir, folder):
    """Reads and checks the entries against the rendered pages in OUT_DIR, writes the Index page
    through the book's template (every page's book list links it: a book with no entries yet says
    so there); returns its path."""
    from pages import html_page, page_name
    entries = read(folder, chapters)
    headings = {c['id']: page_headings(os.path.join(out_dir, page_name(c))) for c in chapters
                if os.path.exists(os.path.join(out_dir, page_name(c)))}
    check(entries, headings)
    text = body(entries, chapters, headings) if printed(entries) else \
        '<h1 class="title">Index</h1>\n<p>This book has no index entries yet (book/index-terms/).</p>\n'
    return html_page(text, NAME, out_dir, work_dir, book_title, 'Index', 'Index', 'the Index page')
