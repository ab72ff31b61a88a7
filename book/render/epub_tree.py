"""The EPUB's own passes over the joined tree (Pandoc's JSON), for readers that have no <details>
and no room: a claim's verdict as a plain paragraph and list, and each cell of the dated box's
tables labelled by its column, so that book/epub.css can stack a row's cells on a narrow screen
(each under its label) instead of cutting the table at the screen's edge.

  verdicts_plain(blocks)   <details class="claim-verdict"><summary>Holds ...</summary> ... </details>
                           becomes <div class="claim-verdict"><p><strong>Holds ...</strong></p> ... </div>
                           (Kindle-family readers show neither <details> nor what it folds)
  label_box_cells(blocks)  every body cell of a table inside a .hwbox div gets data-label="<its
                           column's header>" (epub.css: td::before { content: attr(data-label) })"""
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
