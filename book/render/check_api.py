"""The API pages' checks (api/, Doxygen's pages themed by book/render/apidocs.py), for
book/render/check_rendered.py: a sample of them (the main page, a file's page, a source listing, a
namespace's page, the widest kind) laid out in headless Chromium at a 390 px phone width, in the light
and the dark theme (the book's switch: data-theme on <html>), must
  - fit the phone (the document no wider than the screen: what is wider scrolls in a frame), and
  - give no axe-core violation of its WCAG 2.0-2.2 A and AA rules and best practices (where axe-core
    is installed: make deps, npm ci in book/).
    check_api(browser, root, errors) -> {'pages': n, 'widest': (page, px), 'violations': {rule: count}}"""
import glob
import html
import json
import os
import re
import subprocess
import tempfile

import chromium

AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']
PHONE_WIDTH = 390

SCRIPT = r"""
function runAll(pages, axeUrl, tags, widths) {
  var found = [], jobs = [];
  pages.forEach(function (p) { widths.forEach(function (w) { ['light', 'dark'].forEach(function (t) {
    jobs.push([p[0], p[1], w, t]); }); }); });
  var i = 0;
  function next() {
    if (i >= jobs.length) {
      var out = document.createElement('pre'); out.id = 'api-found';
      out.textContent = JSON.stringify(found); document.body.appendChild(out); return;
    }
    var job = jobs[i], frame = document.createElement('iframe');
    frame.style.cssText = 'width:' + job[2] + 'px;height:844px;border:0';
    frame.onload = function () {
      var doc = frame.contentDocument, result = { page: job[0], width: job[2], theme: job[3] };
      function done() { found.push(result); i += 1; frame.remove(); next(); }
      if (!doc) { result.error = 'not readable'; done(); return; }
      doc.documentElement.dataset.theme = job[3];
      result.scrollWidth = doc.documentElement.scrollWidth;
      if (!axeUrl) { done(); return; }
      var script = doc.createElement('script');
      script.src = axeUrl;
      script.onerror = function () { result.error = 'axe-core did not load'; done(); };
      script.onload = function () {
        frame.contentWindow.axe.run(doc, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
          .then(function (r) {
            result.violations = r.violations.map(function (v) {
              return [v.id, v.nodes.length, v.nodes.slice(0, 2).map(function (n) {
                return n.target.join(' ') + ' (' + ((n.any[0] || n.all[0] || n.none[0] || {}).message || '').slice(0, 120) + ')'; }).join('; ')]; });
          }, function (e) { result.error = String(e); }).then(done);
      };
      doc.head.appendChild(script);
    };
    frame.src = job[1];
    document.body.appendChild(frame);
  }
  next();
}
"""


def sample_pages(root):
    """The API pages checked: the main page and one of each kind Doxygen writes for the book."""
    api = os.path.join(root, 'api')
    picks = ['index.html']
    for pattern in ('*_8cuh.html', '*_8cuh_source.html', 'namespace*.html'):
        found = sorted(os.path.basename(p) for p in glob.glob(os.path.join(api, pattern)))
        if found:
            picks.append(found[0])
    return ['api/' + p for p in picks if os.path.exists(os.path.join(api, p))]


def check_api(browser, root, errors, axe=None, widths=(PHONE_WIDTH,), pages=None):
    pages = pages or sample_pages(root)
    if not pages:
        return None
    listed = json.dumps([[p, 'file://' + os.path.abspath(os.path.join(root, p))] for p in pages])
    with tempfile.TemporaryDirectory() as work:
        page = os.path.join(work, 'api.html')
        with open(page, 'w', encoding='utf-8') as f:
            f.write('<!DOCTYPE html>\n<html><head><meta charset="utf-8"></head><body>\n<script>%s\n'
                    'runAll(%s, %s, %s, %s);</script></body></html>\n'
                    % (SCRIPT, listed, json.dumps('file://' + axe if axe else ''), json.dumps(AXE_TAGS),
                       json.dumps(list(widths))))
        command = chromium.dump_dom(browser, work, (1380, 1000), 600000, 'file://' + page)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        except subprocess.TimeoutExpired:
            errors.append('the API pages\' check ran past 900 s')
            return None
    found = re.search(r'<pre id="api-found">(.*?)</pre>', done.stdout, re.S)
    if not found:
        errors.append('the API pages\' check reported nothing (exit %d): %s' % (done.returncode, done.stderr.strip()[-300:]))
        return None
    summary = {'pages': len(pages), 'widest': ('', 0), 'violations': {}}
    for r in json.loads(html.unescape(found.group(1))):
        where = '%s at %d px, %s theme' % (r['page'], r['width'], r['theme'])
        if r.get('error'):
            errors.append('%s: %s' % (where, r['error']))
            continue
        if r['width'] == PHONE_WIDTH:
            if r['scrollWidth'] > summary['widest'][1]:
                summary['widest'] = (r['page'], r['scrollWidth'])
            if r['scrollWidth'] > PHONE_WIDTH:
                errors.append('%s: %d px wide, wider than the phone\'s screen (book/render/apidocs.py, book/api.css)'
                              % (where, r['scrollWidth']))
        for rule, nodes, examples in r.get('violations') or []:
            summary['violations'][rule] = summary['violations'].get(rule, 0) + nodes
            errors.append('%s: axe-core %s on %d element(s), e.g. %s' % (where, rule, nodes, examples))
    return summary


if __name__ == '__main__':   # python3 book/render/check_api.py BOOK_DIR: this check alone
    import sys
    import check_rendered
    errs = []
    print(check_api(check_rendered.find_browser(), sys.argv[1], errs, check_rendered.axe_path()))
    print('\n'.join(errs))
