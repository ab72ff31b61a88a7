// The book's only script: copy buttons on code blocks, and search over an index built at render
// time (search-index.js, loaded on first use; a <script>, not fetch(), so file:// pages work too),
// and the chapter's contents folded on a narrow screen.
// No network, no library.
(function () {
  'use strict';

  // ---- Copy: the text of the block's <code> element, which is exactly what the reader sees.
  function codeText(button) {
    var box = button.closest('.code');
    var code = box && box.querySelector('pre code');
    return code ? code.textContent : '';
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {      // older browsers, plain http
      var area = document.createElement('textarea');
      area.value = text;
      area.setAttribute('readonly', '');
      area.style.position = 'fixed';
      area.style.opacity = '0';
      document.body.appendChild(area);
      area.select();
      var ok = document.execCommand('copy');
      document.body.removeChild(area);
      if (ok) { resolve(); } else { reject(new Error('copy refused')); }
    });
  }

  function onCopy(event) {
    var button = event.target.closest('button.copy');
    if (!button) return;
    copyText(codeText(button)).then(function () {
      flash(button, 'Copied');
    }, function () {
      flash(button, 'Select and copy');
    });
  }

  function flash(button, label) {
    button.textContent = label;
    button.classList.add('done');
    setTimeout(function () { button.textContent = 'Copy'; button.classList.remove('done'); }, 1500);
  }

  // ---- Search: every word must occur; headings rank above paragraphs, earlier chapters first.
  var input, list, loading = false;

  function loadIndex(then) {
    if (window.BOOK_SEARCH_INDEX) { then(); return; }
    if (loading) return;
    loading = true;
    var script = document.createElement('script');
    script.src = 'search-index.js';
    script.onload = function () { loading = false; then(); };
    script.onerror = function () { loading = false; show([], 'The search index is missing.'); };
    document.head.appendChild(script);
  }

  function search(query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length) return [];
    var hits = [];
    window.BOOK_SEARCH_INDEX.entries.forEach(function (entry, order) {
      var heading = entry.h.toLowerCase(), text = entry.t.toLowerCase();
      var score = 0;
      for (var i = 0; i < words.length; i++) {
        if (heading.indexOf(words[i]) >= 0) { score += 3; }
        else if (text.indexOf(words[i]) >= 0) { score += 1; }
        else { return; }
      }
      if (entry.k === 'h') score += 2;
      hits.push({ entry: entry, score: score, order: order });
    });
    hits.sort(function (a, b) { return b.score - a.score || a.order - b.order; });
    return hits.slice(0, 20).map(function (hit) { return { entry: hit.entry, words: words }; });
  }

  // A short excerpt around the first word found, the words marked; built as DOM, never as HTML.
  function excerpt(text, words) {
    var lower = text.toLowerCase(), at = -1;
    for (var i = 0; i < words.length && at < 0; i++) at = lower.indexOf(words[i]);
    var start = Math.max(0, at - 60), piece = text.slice(start, start + 180);
    var span = document.createElement('span');
    span.className = 'excerpt';
    var pattern = new RegExp('(' + words.map(function (w) {
      return w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }).join('|') + ')', 'ig');
    (start > 0 ? '… ' : '').concat(piece, start + 180 < text.length ? ' …' : '')
      .split(pattern).forEach(function (part, i) {
        var node = i % 2 ? document.createElement('mark') : document.createTextNode(part);
        if (i % 2) node.textContent = part;
        span.appendChild(node);
      });
    return span;
  }

  function show(results, message) {
    list.textContent = '';
    if (message || !results.length) {
      var none = document.createElement('li');
      none.className = 'none';
      none.textContent = message || 'Nothing found.';
      list.appendChild(none);
    }
    results.forEach(function (result) {
      var e = result.entry;
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = e.p + (e.a ? '#' + e.a : '');
      var where = document.createElement('span');
      where.className = 'where';
      where.textContent = e.c + (e.h && e.h !== e.c ? ' › ' + e.h : '');
      link.appendChild(where);
      if (e.k !== 'h') link.appendChild(excerpt(e.t, result.words));
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = false;
  }

  function onInput() {
    var query = input.value.trim();
    if (query.length < 2) { list.hidden = true; return; }
    loadIndex(function () { show(search(query)); });
  }

  function onKey(event) {
    if (event.key === 'Escape') { input.value = ''; list.hidden = true; input.blur(); }
    if (event.key === 'Enter') {
      var first = list.querySelector('a');
      if (first) window.location.href = first.href;
    }
  }

  // ---- Contents: a <details>, folded on a narrow screen; on a wide one the stylesheet shows it
  // beside the text (::details-content), and opening it here does the same where that is unknown.
  // A contents link followed on a narrow screen folds the contents again.
  function foldContents() {
    var fold = document.querySelector('.toc details');
    if (!fold) return;
    var wide = window.matchMedia('(min-width: 60.01rem)');
    if (wide.matches) fold.open = true;
    fold.addEventListener('click', function (event) {
      if (!wide.matches && event.target.closest('a')) fold.open = false;
    });
  }

  document.addEventListener('DOMContentLoaded', function () {
    foldContents();
    document.addEventListener('click', onCopy);
    input = document.getElementById('search');
    list = document.getElementById('search-results');
    if (!input || !list) return;
    input.addEventListener('input', onInput);
    input.addEventListener('keydown', onKey);
    input.addEventListener('focus', function () { loadIndex(function () {}); });
    document.addEventListener('keydown', function (event) {
      if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
    });
    document.addEventListener('click', function (event) {
      if (!event.target.closest('.search')) list.hidden = true;
    });
  });
})();
