"""Doxygen's pages (api/) made to read as part of the book: each page follows the book's theme
(the switch's choice, remembered in localStorage as book-theme, set before the first paint as
book/template.html does; the book's stylesheet and book/api.css after Doxygen's), fits a phone
(api.css), and has what axe-core asks of a page: one <h1> (the page's title, which Doxygen writes
as a <div>), a main landmark around the contents, a banner around the header and its menu, a
contentinfo around the footer, and a label on the search field (which Doxygen's menu.js writes).

    theme(api_dir)   rewrites every page of api_dir in place (a new file renamed over the old:
                     the previous book's hard links keep theirs), copies api.css, patches menu.js
    inputs()         what shapes the result, for apidocs's digest"""
import os
import re

from stamps import read_bytes, write_file

HERE = os.path.dirname(os.path.abspath(__file__))
CSS = os.path.join(os.path.dirname(HERE), 'api.css')
HEAD = ('<script>try{var t=localStorage.getItem(\'book-theme\');if(t===\'light\'||t===\'dark\')'
        'document.documentElement.dataset.theme=t}catch(e){}</script>\n'
        '<link href="../style.css" rel="stylesheet" type="text/css"/>\n'
        '<link href="api.css" rel="stylesheet" type="text/css"/>\n</head>')
TITLE = re.compile(r'<div class="title">(.*?)</div>', re.S)
SEARCH_FIELD = 'id="MSearchField"'


def page(text):
    """One Doxygen page, themed and given its landmarks."""
    if 'href="api.css"' in text:
        return text
    text = text.replace('</head>', HEAD, 1)
    text = text.replace('<div id="top">', '<div id="top" role="banner">', 1)
    if '</div><!-- top -->' in text and '<!-- start footer part -->' in text:
        text = text.replace('</div><!-- top -->', '</div><!-- top -->\n<main id="api-content">', 1)
        text = text.replace('<!-- start footer part -->', '</main>\n<!-- start footer part -->', 1)
    text = TITLE.sub(lambda m: '<h1 class="title">%s</h1>' % m.group(1).strip(), text, count=1)
    text = re.sub(r'<hr class="footer"/><address class="footer">(.*?)</address>',
                  r'<footer><hr class="footer"/><address class="footer">\1</address></footer>', text, count=1, flags=re.S)
    return text


def theme(api_dir):
    for folder, _, names in os.walk(api_dir):
        for name in names:
            path = os.path.join(folder, name)
            if name.endswith('.html') and folder == api_dir:
                text = read_bytes(path).decode('utf-8')
                themed = page(text)
                if themed != text:
                    write_file(path, themed)
    menu = os.path.join(api_dir, 'menu.js')
    if os.path.exists(menu):
        text = read_bytes(menu).decode('utf-8')
        write_file(menu, text.replace(SEARCH_FIELD, SEARCH_FIELD + ' aria-label="Search the API reference"'))
    write_file(os.path.join(api_dir, 'api.css'), read_bytes(CSS))


def inputs():
    return [read_bytes(CSS), read_bytes(__file__)]
