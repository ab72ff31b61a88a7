"""The EPUB's own passes over the joined tree (Pandoc's JSON), for readers that have no <details>
and no room: a claim's verdict as a plain paragraph and list, and each cell of the dated box's
tables labelled by its column, so that book/epub.css can stack a row's cells on a narrow screen
(each under its label) instead of cutting the table at the screen's edge.

  verdicts_plain(blocks)   <details class="claim-verdict"><summary>Holds ...</summary> ... </details>
                           becomes <div class="claim-verdict"><p><strong>Holds ...</strong></p> ... </div>
                           (Kindle-family readers show neither <details> nor what it folds)
  label_box_cells(blocks)  every body cell of a table inside a .hwbox div gets data-label="<its
                           column's header>" (epub.css: td::before { content: attr(data-label) })
  code_lines(blocks)       every code block becomes the same <pre> with each line a <span class="cl">
                           indented as its code is: a line the reader's screen wraps goes on under
                           its own indentation, two columns further, not at the left edge"""
import html
import re

DETAILS_OPEN = re.compile(r'^\s*<details(\s[^>]*)?>\s*$')

# Pandoc reads <summary> and </summary> on a line of their own, or opening and closing one, as raw blocks
RAW_TAGS = {'<summary>': '<p class="verdict-summary"><strong>', '</summary>': '</strong></p>', '</details>': '</div>'}


def verdicts_plain(node):
    """Rewrites, in place, every <details> of the tree as a <div> of the same attributes and its
    <summary> as a bold paragraph: what a reader without <details> sees is the whole verdict."""
    if isinstance(node, list):
        for item in node:
            verdicts_plain(item)
    elif isinstance(node, dict):
        if node.get('t') == 'RawBlock' and node['c'][0] == 'html':
            tag = node['c'][1].strip()
            if DETAILS_OPEN.match(tag):
                node['c'][1] = tag.replace('<details', '<div', 1)
            elif tag in RAW_TAGS:
                node['c'][1] = RAW_TAGS[tag]
        else:
            verdicts_plain(node.get('c'))


def text_of(node):
    """The words of a tree's inlines (Str, Code, Math as its TeX), spaces between."""
    if isinstance(node, list):
        return ''.join(text_of(n) for n in node)
    if not isinstance(node, dict):
        return ''
    kind, content = node.get('t'), node.get('c')
    if kind == 'Str':
        return content
    if kind in ('Space', 'SoftBreak', 'LineBreak'):
        return ' '
    if kind == 'Code':
        return content[1]
    if kind == 'Math':
        return content[1]
    return text_of(content)


def label_table(table):
    """Table c = [attr, caption, colspecs, head, bodies, foot]; a cell = [attr, align, rowspan, colspan, blocks]."""
    head_rows = table['c'][3][1]
    if not head_rows:
        return
    labels = [' '.join(text_of(cell[4]).split()) for cell in head_rows[0][1]]
    for body in table['c'][4]:
        for row in body[3]:
            for column, cell in enumerate(row[1]):
                if column < len(labels) and labels[column]:
                    pairs = [kv for kv in cell[0][2] if kv[0] != 'data-label']
                    cell[0][2] = pairs + [['data-label', labels[column]]]


def label_box_cells(node, in_box=False):
    """Labels, in place, the body cells of every table inside a div of class hwbox."""
    if isinstance(node, list):
        for item in node:
            label_box_cells(item, in_box)
    elif isinstance(node, dict):
        kind = node.get('t')
        if kind == 'Div':
            box = in_box or 'hwbox' in node['c'][0][1]
            label_box_cells(node['c'][1], box)
        elif kind == 'Table':
            if in_box:
                label_table(node)
        else:
            label_box_cells(node.get('c'), in_box)


CONTINUATION = 2        # columns: a wrapped line's rest stands this much right of the line's code
TAB = 8


def line_html(line, last=False):
    """One line of code as a block whose wrapped rest hangs under its code: padding-left of the
    line's indentation plus CONTINUATION, the first line pulled back by as much (text-indent), so
    the line itself starts at the left edge with its own spaces. ch, with em for a reader without it
    (a monospace character is about half an em wide). The newline stays inside the span (the last
    line has none), so the text copied, or read by a reader that ignores the stylesheet, is the code
    as written."""
    indent = len(line.expandtabs(TAB)) - len(line.expandtabs(TAB).lstrip(' '))
    hang = indent + CONTINUATION if line.strip() else 0
    style = (' style="padding-left:%gem;padding-left:%dch;text-indent:-%gem;text-indent:-%dch"'
             % (hang / 2, hang, hang / 2, hang)) if hang else ''
    return '<span class="cl"%s>%s%s</span>' % (style, html.escape(line, quote=False), '' if last else '\n')


def code_html(attr, text):
    """A CodeBlock's <pre> as Pandoc's EPUB writer makes it (id, classes, data- attributes; no
    highlighting: epub.py passes --no-highlight), its lines each a span (line_html)."""
    ident, classes, pairs = attr
    attrs = ''
    if ident:
        attrs += ' id="%s"' % html.escape(ident)
    if classes:
        attrs += ' class="%s"' % html.escape(' '.join(classes))
    for key, value in pairs:
        attrs += ' %s="%s"' % (key if key.startswith('data-') else 'data-' + key, html.escape(value))
    lines = text.split('\n')
    return '<pre%s><code>%s</code></pre>' % (attrs, ''.join(line_html(l, i == len(lines) - 1)
                                                             for i, l in enumerate(lines)))


def code_lines(node):
    """Rewrites, in place, every CodeBlock of the tree as a raw <pre> of its lines (code_html)."""
    if isinstance(node, list):
        for item in node:
            code_lines(item)
    elif isinstance(node, dict):
        if node.get('t') == 'CodeBlock':
            attr, text = node['c']
            node['t'], node['c'] = 'RawBlock', ['html', code_html(attr, text)]
        else:
            code_lines(node.get('c'))
