#!/usr/bin/python3
"""check-rendered reads pages through lxml (book/render/check_rendered.py, feed): what its checks see,
ids, links, classes, text outside code, code blocks and their copy buttons, headings, the box's
tables, is what Python's html.parser gave them, on every page of the rendered fixture book and on a
page of the constructs a parser could disagree on."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), 'book', 'render'))
import check_rendered  # noqa: E402

# unclosed <p> and <li>, void elements with and without a slash, MathML, inline SVG, <details>, a
# comment, character references, a script with markup in a string, a code block with a copy button
AWKWARD = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>t</title>
<style>p > a { color: red }</style><script>var s = '<p id="not-an-id">';</script></head>
<body><h1>One</h1><h2 id="s1">Section <a class="self-link" href="#s1">¶</a></h2>
<p>first &amp; second &lt;tag&gt; &#8212; <a href="2.html#x" class="xref">link</a><br>broken<br/>line
<p>next paragraph<img src="f.svg" alt="a"><ul><li>one<li>two</ul>
<math><mi>T</mi><mo>=</mo><mn>2</mn></math> after maths
<svg viewBox="0 0 1 1"><text x="0" y="1">svg text</text></svg>
<details class="box-results"><summary>Results</summary><div class="hwbox"><table><tr><th>result</th></tr></table></div></details>
<div class="hwbox"><table><tr><th>symbol</th></tr></table></div>
<!-- a comment <p id="no"> -->
<div class="code" id="c1"><div class="code-head">file.cu</div><button class="copy">Copy</button>
<pre><code>int x = a &lt; b;</code></pre></div>
<h3 id="s2">Deeper</h3><p>end</body></html>
"""


def same(test, path):
    fast, slow = check_rendered.feed(check_rendered.Page(), path), check_rendered.feed_slowly(check_rendered.Page(), path)
    for field in ('ids', 'links', 'classes', 'pres', 'with_button', 'h1', 'headings'):
        test.assertEqual(getattr(fast, field), getattr(slow, field), '%s: %s' % (os.path.basename(path), field))
    test.assertEqual(' '.join(''.join(fast.text).split()), ' '.join(''.join(slow.text).split()), path)
    boxes = check_rendered.feed(check_rendered.BoxTables(), path)
    test.assertEqual(boxes.tables, check_rendered.feed_slowly(check_rendered.BoxTables(), path).tables, path)
    return fast, boxes


class ParseTest(unittest.TestCase):
    def test_awkward_constructs_read_alike(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, 'awkward.html')
            with open(path, 'w', encoding='utf-8') as f:
                f.write(AWKWARD)
            page, boxes = same(self, path)
        self.assertEqual(page.ids, {'s1', 's2', 'c1'})
        self.assertEqual(page.headings, [['s1', True], ['s2', False]])
        self.assertEqual(len(page.pres), 1)
        self.assertEqual(page.with_button, set(page.pres))
        text = ' '.join(''.join(page.text).split())
        self.assertIn('first & second <tag>', text)
        self.assertNotIn('int x', text)
        self.assertNotIn('not-an-id', text)
        self.assertEqual(boxes.tables, [['result', False], ['symbol', False]])

    def test_a_table_read_as_a_paragraph_is_an_error(self):
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, 'folded.html')
            for body, found in (('<p>degrees move. | k | I | |\u2013:|\u2013:| | 1 | 0.25 |</p>', 1),
                                ('<table><tr><th>k</th></tr><tr><td>1</td></tr></table><p>a | b, -- and |</p>', 0)):
                with open(path, 'w', encoding='utf-8') as f:
                    f.write('<!DOCTYPE html><html><body><h1>t</h1>%s</body></html>' % body)
                errors = []
                check_rendered.check_text('folded.html', check_rendered.feed(check_rendered.Page(), path), errors, [])
                self.assertEqual(len(errors), found, (body, errors))
                self.assertTrue(all('a Markdown table was read as a paragraph' in e for e in errors))

    def test_every_page_of_the_fixture_book_reads_alike(self):
        book = os.path.join(os.environ['RENDERED_FIXTURE'], 'book')
        pages = sorted(p for p in os.listdir(book) if p.endswith('.html'))
        self.assertGreater(len(pages), 3)
        for name in pages:
            same(self, os.path.join(book, name))


if __name__ == '__main__':
    unittest.main()
