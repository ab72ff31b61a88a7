"""The search index's documents: one a section of every chapter page (its heading, first paragraph,
the rest of its prose, the words of its formulas, the terms its prose sets in italics (where the
book defines them), and its code blocks' identifiers, each block marked where it is apparatus,
folded on the page), which book/search-core.js weighs field by field,
the prose far above the code. Neither a claim's verdict, the comparisons folded under it, the dated
box (the same symbols in every chapter and the run's numbers), nor the date and download line is
indexed. A section is also indexed with the names of the book's index entries that point to it
(i, book/index-terms/), and with what the book's cross-references to it call it (r,
referred_as: "Little's law (lesson 1.3)", "chapter 3.3's online softmax"), as a web search reads the
links to a page. A formula is kept as searchable words (x: B_\\text{dram} gives B_dram, \\lambda gives lambda
and λ); a code block as its identifiers. A paragraph, cell or code block of fewer than SHORT
characters is left out unless it holds a formula: those are table cells ("1", "rung", "1×").
One fragment per chapter is kept in .render/search/ (remade only when its page changed); the
fragments are joined, in book order, into search-index.js, a script that sets
window.BOOK_SEARCH_INDEX (a <script>, not fetched JSON, so file:// pages work), with the MiniSearch
engine built over them by search_prebuild.js under Node, so the browser loads it rather than
builds it. `python3 search_index.py BOOK_DIR` makes the index again from a rendered book's pages."""
import html.parser
import json
import os
import re
import shutil
import subprocess

import index_terms
from stamps import digest, read_bytes, write_file

FRAGMENTS = os.path.join('.render', 'search')
TEXT_TAGS = {'p', 'li', 'dd', 'td', 'th', 'figcaption', 'blockquote'}
HEADINGS = {'h1', 'h2', 'h3', 'h4', 'h5', 'h6'}
SKIP = {'pre', 'script', 'style', 'nav', 'header', 'math', 'button'}
SHORT = 25               # a non-heading entry's text shorter than this, without a formula, is not indexed
GREEK = {'alpha': 'α', 'beta': 'β', 'gamma': 'γ', 'delta': 'δ', 'epsilon': 'ε', 'varepsilon': 'ε',
         'zeta': 'ζ', 'eta': 'η', 'theta': 'θ', 'kappa': 'κ', 'lambda': 'λ', 'mu': 'μ', 'nu': 'ν',
         'xi': 'ξ', 'pi': 'π', 'rho': 'ρ', 'sigma': 'σ', 'tau': 'τ', 'phi': 'φ', 'varphi': 'φ',
         'chi': 'χ', 'psi': 'ψ', 'omega': 'ω', 'Gamma': 'Γ', 'Delta': 'Δ', 'Theta': 'Θ',
         'Lambda': 'Λ', 'Pi': 'Π', 'Sigma': 'Σ', 'Phi': 'Φ', 'Omega': 'Ω'}
TEXT_COMMANDS = re.compile(r'\\(?:text|mathrm|mathit|mathbf|mathsf|mathtt|textrm|textit|operatorname)\s*\{([^{}]*)\}')
IDENTIFIER = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')


def tex_words(tex):
    """A formula as the words a reader would type for it: B_{\\text{dram}} -> B_dram."""
    text = TEXT_COMMANDS.sub(r'\1', tex)
    text = re.sub(r'\\([A-Za-z]+)', lambda m: ' %s %s ' % (m.group(1), GREEK[m.group(1)])
                  if m.group(1) in GREEK else ' ', text)
    text = re.sub(r'_\s*\{([^{}]*)\}', lambda m: '_' + re.sub(r'\s+', '', m.group(1)), text)
    return ' '.join(text.replace('{', ' ').replace('}', ' ').split())


# A formula in a section's prose (f, t) is this character, and its display form the next of the
# section's m (an exponent's <sup> likewise, shown as ^): the search's words skip it (it is no letter, and ASCII, so no text is normalised
# for it), and a result's excerpt shows the formula where it stood (BookSearch's row()).
FORMULA = '\x01'
TEX_SYMBOLS = {'cdot': '·', 'times': '×', 'le': '≤', 'leq': '≤', 'ge': '≥', 'geq': '≥', 'ne': '≠',
               'neq': '≠', 'approx': '≈', 'sim': '~', 'to': '→', 'rightarrow': '→', 'infty': '∞',
               'lceil': '⌈', 'rceil': '⌉', 'lfloor': '⌊', 'rfloor': '⌋', 'ldots': '…', 'dots': '…',
               'cdots': '…', 'log': 'log', 'ln': 'ln', 'exp': 'exp', 'max': 'max', 'min': 'min',
               'sum': 'Σ', 'in': '∈', 'pm': '±', 'mid': '|', 'lvert': '|', 'rvert': '|', 'ell': 'ℓ',
               'prime': '′', 'left': '', 'right': '', 'big': '', 'Big': '', 'displaystyle': ''}
DISPLAY_LONGEST = 40     # a formula's display form longer than this shows as an ellipsis


def tex_display(tex):
    """A short formula as plain text for a search excerpt: N_{\\text{SM}} -> N_SM,
    \\lceil G/256 \\rceil -> ⌈G/256⌉, \\frac{a}{b} -> a/b; '…' for what this does not read
    (a command it does not know) or what is too long to show."""
    text = TEXT_COMMANDS.sub(r'\1', tex)
    text = re.sub(r'\\frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}',
                  lambda m: '%s/%s' % tuple(g if len(g) == 1 else '(%s)' % g for g in m.groups()), text)
    text = re.sub(r'\\sqrt\s*\{([^{}]*)\}', r'√(\1)', text)
    text = re.sub(r'\\[,;:! ]', ' ', text)
    text = re.sub(r'\\([A-Za-z]+)', lambda m: GREEK.get(m.group(1), TEX_SYMBOLS.get(m.group(1), '\\' + m.group(1))), text)
    text = ' '.join(text.replace('{', '').replace('}', '').split())
    return '…' if '\\' in text or len(text) > DISPLAY_LONGEST or not text else text


XREF_TARGET = re.compile(r'^[0-9A-Z][\w.-]*\.html(#[\w.-]*)?$')
CLAUSE_END = re.compile(r'[,;:.()\[\]—–]')


def referred_as(before, after):
    """What a sentence calls the section a cross-reference points to, in at most three words:
    the words of a possessive after it ("chapter 3.3's online softmax"), or those just before it
    where they name what it holds ("Little's law (lesson 1.3)", "the access pattern of lesson
    2.1"); '' where neither (most references only say where)."""
    owned = re.match(r"^[’']s\s+([^,;:.()\[\]—–]+)", after)
    if owned:
        return ' '.join(owned.group(1).split()[:3])
    head = before.rstrip()
    if head.endswith('('):
        head = head[:-1]
    elif re.search(r'\b(?:of|in)$', head):
        head = re.sub(r'\s*\b(?:of|in)$', '', head)
    else:
        return ''
    clause = CLAUSE_END.split(head)[-1].split()
    return ' '.join(clause[-3:])


def with_formulas(text, formulas):
    """The text with each formula, at its place, as FORMULA, its display form and FORMULA_END
    (page_entries splits them apart: without_formulas, and MARKED for the forms)."""
    for place, shown in reversed(formulas):
        text = text[:place] + FORMULA + shown + FORMULA_END + text[place:]
    return text


FORMULA_END = '\x02'
MARKED = re.compile(FORMULA + '([^' + FORMULA_END + ']*)' + FORMULA_END)


def without_formulas(text):
    """The text as it was before formulas were kept in it: the search reads the same words."""
    return ' '.join(MARKED.sub('', text).split())


def code_words(code):
    """A code block's identifiers, each once, in order of first use."""
    seen = dict.fromkeys(w for w in IDENTIFIER.findall(code) if len(w) > 1)
    return ' '.join(seen)


class _Collector(html.parser.HTMLParser):
    """Collects (kind, anchor, heading, text, extra words) from the <main> element of a page:
    kind h (a heading), p (a paragraph, list item, cell...), c (a code block) or a (a code block of
    the apparatus: a test, a benchmark registration, a launcher)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.entries, self.in_main, self.skip, self.block = [], 0, 0, None
        self.anchor, self.heading, self.text, self.extra = '', '', [], []
        self.tex, self.code, self.code_anchor = None, None, ''
        self.details = []       # the <details> open around here: 'verdict', 'apparatus' or ''
        self.box = 0            # the depth of <div>s inside the dated box (0: outside it)
        self.meta = False
        self.em, self.terms = None, []   # an <em> in a paragraph (its text), and those of this block
        self.xref, self.refs = None, []  # a cross-reference being read, and those of this block
        self.formulas = []      # this block's formulas and exponents: [(place, display form)]

    def handle_starttag(self, tag, attrs):
        if tag == 'main':
            self.in_main += 1
        if not self.in_main:
            return
        a = dict(attrs)
        if tag == 'div' and (self.box or 'hwbox' in (a.get('class') or '').split()):
            self.box += 1       # the dated box: the same symbols in every chapter, and the run's numbers
            if self.box == 1:
                self.skip += 1
        if tag == 'details':
            classes = (a.get('class') or '').split()
            self.details.append('verdict' if 'claim-verdict' in classes else
                                'apparatus' if 'apparatus' in classes else '')
            if self.details[-1] == 'verdict':
                self.skip += 1
        if tag == 'annotation' and a.get('encoding') == 'application/x-tex':
            self.tex = []
        if tag == 'sup' and self.block and self.skip == 0:     # 7.02×10<sup>7</sup>: 10^7, not 107
            self.formulas.append((len(''.join(self.text)), '^'))
        if tag == 'div' and a.get('id') and ({'code', 'sourceCode'} & set((a.get('class') or '').split())):
            if 'code' in (a.get('class') or '').split() or not self.code_anchor:
                self.code_anchor = a['id']
        if tag == 'pre' and self.code is None:
            self.code = []
        if (tag == 'a' and self.block in TEXT_TAGS and self.skip == 0 and 'xref' in (a.get('class') or '').split()
                and XREF_TARGET.match(a.get('href') or '')):
            self.xref = [a['href'], len(''.join(self.text))]
        if tag == 'em' and self.block in TEXT_TAGS and self.skip == 0:
            self.em = []
        if tag in SKIP:
            self.skip += 1
        elif self.skip == 0 and self.block is None and (tag in HEADINGS or tag in TEXT_TAGS):
            self.block, self.text, self.extra, self.terms, self.refs = tag, [], [], [], []
            self.formulas = []
            # the date and download line, and the line that tells how many claims hold on this GPU
            self.meta = bool({'chapter-meta', 'told'} & set((a.get('class') or '').split()))
            if tag in HEADINGS:
                self.anchor = dict(attrs).get('id') or self.anchor

    def handle_endtag(self, tag):
        if tag == 'main':
            self.in_main -= 1
        if not self.in_main:
            return
        if tag == 'div' and self.box:
            self.box -= 1
            if self.box == 0:
                self.skip = max(0, self.skip - 1)
        if tag == 'details' and self.details:
            if self.details.pop() == 'verdict':
                self.skip = max(0, self.skip - 1)
        if tag == 'annotation' and self.tex is not None:
            words = tex_words(''.join(self.tex))
            if self.block and words:
                self.extra.append(words)
            if self.block and self.skip == 1:    # in the prose, only the <math> skipped
                self.formulas.append((len(''.join(self.text)), tex_display(''.join(self.tex))))
            self.tex = None
        if tag == 'a' and self.xref is not None:
            self.refs.append((self.xref[0], self.xref[1], len(''.join(self.text))))
            self.xref = None
        if tag == 'em' and self.em is not None:
            self.terms.append(' '.join(''.join(self.em).split()))
            self.em = None
        if tag == 'pre' and self.code is not None:
            code = ''.join(self.code)
            if code.strip():
                self.entries.append(('a' if 'apparatus' in self.details else 'c', self.code_anchor or self.anchor, self.heading,
                                     code, code_words(code), self.anchor))
            self.code, self.code_anchor = None, ''
        if tag in SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == self.block:
            text = ' '.join(with_formulas(''.join(self.text), self.formulas).split())
            self.formulas = []
            extra = ' '.join(self.extra)
            if tag in HEADINGS:
                self.heading = text
                self.entries.append(('h', self.anchor, text, text, extra, self.anchor))
            elif (text or extra) and not self.meta:
                self.entries.append(('p', self.anchor, self.heading, text, extra, self.anchor))
                if self.terms:      # the terms it sets in italics, where the prose defines them
                    self.entries.append(('d', self.anchor, self.heading, '\n'.join(self.terms), '', self.anchor))
                raw = ''.join(self.text)
                for href, start, end in self.refs:     # what the prose calls the sections it points to
                    words = referred_as(raw[:start], raw[end:])
                    if words:
                        self.entries.append(('r', self.anchor, self.heading, words, href, self.anchor))
            self.block = None

    def handle_data(self, data):
        if self.tex is not None:
            self.tex.append(data)
        elif self.code is not None:
            self.code.append(data)
        elif self.in_main and self.block and self.skip == 0:
            self.text.append(data)
            if self.em is not None:
                self.em.append(data)


def page_entries(page_path, href, chapter_label):
    """The page's sections, in order: one document each (a heading and what follows it up to the
    next heading; the chapter's opening is the section of its title, anchor ''):
      p, a, c: the page, the heading's anchor, the chapter ('1.2 Waves and the tail');
      h: the heading; f: the section's first paragraph (or list item, cell); t: the rest of its prose;
      x: the words of its formulas; d: the terms its prose sets in italics, one a line (<em>: where
      the book defines a term); k: its code blocks, [anchor, identifiers, 1 if apparatus]; o: the
      sections its cross-references point to, [page#anchor, what it calls each] (referred()).
    A paragraph, cell or code block of fewer than SHORT characters is left out unless it holds a
    formula."""
    collector = _Collector()
    with open(page_path, encoding='utf-8') as f:
        collector.feed(f.read())
    sections, by_anchor = [], {}
    for k, a, h, t, x, section in collector.entries:
        if k == 'r':                # a cross-reference: [the section it points to, what it is called]
            s = by_anchor.get(section)
            if s is not None:
                s.setdefault('o', []).append([x if '#' in x else x + '#', t])
            continue
        shown, t = t, without_formulas(t) if k == 'p' else t
        if k not in ('h', 'd') and len(t.strip()) < SHORT and not (k == 'p' and x):
            continue                # a short cell, unless it holds a formula (a symbol's own row)
        s = by_anchor.get(section)
        if s is None or k == 'h':
            s = by_anchor[section] = {'p': href, 'a': section, 'c': chapter_label, 'h': h if k != 'h' else t,
                                      'f': '', 't': '', 'x': '', 'k': []}
            sections.append(s)
        if k == 'p':
            if t:       # the prose with its formulas as FORMULA, their display forms in m
                s['m'] = s.get('m', []) + MARKED.findall(shown)
                shown = MARKED.sub(FORMULA, shown)
            if not s['f'] and t:
                s['f'] = shown
            elif t:
                s['t'] += ('\n' if s['t'] else '') + shown
            elif MARKED.search(shown) and (s['f'] or s['t']):   # a formula set apart ends the prose before it
                forms = MARKED.findall(shown)
                s['m'] = s.get('m', []) + forms
                key = 't' if s['t'] else 'f'
                s[key] += ' ' + ' '.join(FORMULA for _ in forms)
            if x:
                s['x'] += (' ' if s['x'] else '') + x
        elif k == 'd':
            s['d'] = (s.get('d', '') + '\n' + t).strip()
        elif k in ('c', 'a'):
            s['k'].append([a, x, 1] if k == 'a' else [a, x])
        elif x:
            s['x'] += (' ' if s['x'] else '') + x
    for s in sections:
        for key in ('f', 't', 'x', 'k'):
            if not s[key]:
                del s[key]
        if not s.get('m', True):
            del s['m']
    return sections


def write_fragment(out_dir, basename, entries):
    write_file(os.path.join(out_dir, FRAGMENTS, basename + '.json'), json.dumps(entries, ensure_ascii=False))


def engine_terms(engine):
    """{term: the ids of the fields that hold it, as strings} of a prebuilt engine: its index's rows
    are flat, [term, field, n, doc, count, ... (n pairs), field, n, ...] (BookSearch.compact), or
    MiniSearch's own [term, {field: {doc: count}}]."""
    terms = {}
    for row in engine['index']:
        if not engine.get('compact'):
            terms[row[0]] = set(row[1])
            continue
        fields, j = set(), 1
        while j < len(row):
            fields.add(str(row[j]))
            j += 2 + 2 * row[j + 1]
        terms[row[0]] = fields
    return terms


PREBUILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'search_prebuild.js')


def prebuilt_engine(out_dir, sections_json):
    """The engine built over the sections by search_prebuild.js under Node (JSON text), or None
    where Node is missing or fails: book.js then builds it in the browser."""
    node = shutil.which('node')
    if not node or not all(os.path.exists(os.path.join(out_dir, f)) for f in ('minisearch.js', 'search-core.js')):
        return None
    done = subprocess.run([node, PREBUILD, out_dir], input=sections_json, capture_output=True, text=True)
    if done.returncode != 0 or not done.stdout.startswith('{'):
        print('search index: not prebuilt (book.js will build it in the browser): %s' % done.stderr.strip()[-300:])
        return None
    return done.stdout


def referred(sections):
    """Each section's r: what the book's cross-references to it call it, one a line (anchor text,
    as a web search reads the links to a page: "Little's law (lesson 1.3)" tells what lesson 1.3
    is about), from the references each section makes (o, dropped here)."""
    by_target = {s['p'] + '#' + s['a']: s for s in sections}
    for s in sections:
        for target, words in s.pop('o', []):
            to = by_target.get(target)
            if to is not None:
                to['r'] = (to.get('r', '') + '\n' + words).strip()


def indexed(sections, chapters, folder):
    """Each section's i and j: the names of the book's index entries (book/index-terms/, one a
    line) it is the first place of (i: where the book teaches them) and a later place of (j), the
    author's word on what it holds under the names a reader may bring (index_terms.by_section); and
    q: the readers' questions it answers (the files' `?` lines, index_terms.questions)."""
    entries = index_terms.read(folder, chapters)
    names = index_terms.by_section(entries, chapters)
    asked = index_terms.questions(entries, chapters)
    for s in sections:
        first, later = names.get(s['p'] + '#' + s['a'], ([], []))
        if first:
            s['i'] = '\n'.join(first)
        if later:
            s['j'] = '\n'.join(later)
        if asked.get(s['p'] + '#' + s['a']):
            s['q'] = '\n'.join(asked[s['p'] + '#' + s['a']])


VOCABULARY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'search-vocabulary.txt')


def vocabulary():
    """The search's vocabulary (book/search-vocabulary.txt) as its lines, comments and blank lines out:
    book/search-core.js reads them (BookSearch.vocabulary)."""
    with open(VOCABULARY, encoding='utf-8') as f:
        lines = (line.split('#')[0].strip() for line in f)
        return [line for line in lines if line]


def write_index(out_dir, chapters, index_dir):
    """Joins the chapters' fragments into search-index.js (the only form book.js reads): the
    sections, and the engine built over them (prebuilt_engine), remade only when the sections or
    the search's code changed."""
    sections = []
    for chapter in chapters:
        path = os.path.join(out_dir, FRAGMENTS, chapter['basename'] + '.json')
        with open(path, encoding='utf-8') as f:
            sections += json.load(f)
    referred(sections)
    indexed(sections, chapters, index_dir)
    text = json.dumps(sections, ensure_ascii=False, separators=(',', ':'))
    stale = os.path.join(out_dir, 'search-index.json')      # written by earlier renders, read by nothing
    if os.path.exists(stale):
        os.remove(stale)
    key = digest(text, *(read_bytes(os.path.join(out_dir, f)) for f in ('minisearch.js', 'search-core.js')
                         if os.path.exists(os.path.join(out_dir, f))), read_bytes(PREBUILD))
    head = 'window.BOOK_SEARCH_INDEX = {"format":3,"key":"%s","vocabulary":%s,"sections":' % (
        key, json.dumps(vocabulary(), ensure_ascii=False, separators=(',', ':')))
    target = os.path.join(out_dir, 'search-index.js')
    if os.path.exists(target):
        with open(target, encoding='utf-8') as f:
            if f.read(len(head)) == head:
                return len(sections)
    engine = prebuilt_engine(out_dir, text)
    if engine:      # the code's identifiers and the links' words are in the engine
        text = json.dumps([{k: v for k, v in s.items() if k not in ('k', 'r')} for s in sections],
                          ensure_ascii=False, separators=(',', ':'))
    write_file(target, head + text + (',"engine":' + engine if engine else '') + '};\n')
    return len(sections)


def build(out_dir, chapters, page_name, state, index_dir):
    """Each chapter's fragment, made again if its page changed, and the index of them all (with the
    book's index entries of index_dir, book/index-terms/); returns the state records and the number
    of entries."""
    own = read_bytes(__file__)
    records = []
    for chapter in chapters:
        page = os.path.join(out_dir, page_name(chapter))
        label = chapter['id'] + ' ' + chapter['title']
        name, key = 'search:' + chapter['basename'], digest(read_bytes(page), page_name(chapter), label, own)
        if not state.unchanged(name, key, os.path.join(out_dir, FRAGMENTS, chapter['basename'] + '.json')):
            write_fragment(out_dir, chapter['basename'], page_entries(page, page_name(chapter), label))
        records.append((name, key))
    return records, write_index(out_dir, chapters, index_dir)


def main(argv):
    """search_index.py BOOK_DIR: the index made again from BOOK_DIR's pages as they stand (its
    chapters from BOOK_DIR/woven/book.json), every fragment remade, with this tree's
    book/search-core.js copied in first: a change to this file or to the search's code tried on a
    rendered book in seconds, without a render; then node tests/render/search_share.js BOOK_DIR."""
    import book_index
    if len(argv) != 2:
        print('usage: search_index.py BOOK_DIR (a rendered book, e.g. build/book)')
        return 2
    out = argv[1]
    core = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'search-core.js')
    write_file(os.path.join(out, 'search-core.js'), read_bytes(core))
    _, chapters = book_index.read(os.path.join(out, 'woven'), os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    for chapter in chapters:
        page = os.path.join(out, chapter['basename'] + '.html')
        write_fragment(out, chapter['basename'], page_entries(page, chapter['basename'] + '.html',
                                                             chapter['id'] + ' ' + chapter['title']))
    print('%s: %d entries' % (os.path.join(out, 'search-index.js'), write_index(out, chapters, index_terms.FOLDER)))
    return 0


if __name__ == '__main__':
    import sys
    sys.exit(main(sys.argv))
