// The book's script: copy buttons on code blocks; search (MiniSearch, vendored, over an index built
// at render time: search-index.js, loaded on first use; <script>s, not fetch(), so file:// pages
// work too) and the words searched marked on the page a hit leads to; the theme switch (light,
// dark, system: remembered in localStorage); the chapter's contents folded on a narrow screen;
// a link to a place inside folded code opens the fold. No network.
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

  // ---- Search: MiniSearch (vendored from npm as minisearch.js) over the documents of
  // search-index.js: one a section (its heading, prose, formulas and code's names). Both load on first use, as
  // <script>s (not fetch()), so pages opened from file:// search too. Words are matched by prefix
  // (and, from four letters on, with one typo); all the words typed must occur. Apostrophes are
  // dropped ("Little's" = "Little’s"), a name with underscores is also its parts (B_dram: b, dram),
  // and a Greek letter is also its name (λ = lambda).
  var input, list, loading = false, engine = null;
  // the terms, the query and the rows: book/search-core.js (window.BookSearch), loaded with the index
  var GREEK = { 'α': 'alpha', 'β': 'beta', 'γ': 'gamma', 'δ': 'delta', 'ε': 'epsilon', 'ζ': 'zeta',
    'η': 'eta', 'θ': 'theta', 'κ': 'kappa', 'λ': 'lambda', 'μ': 'mu', 'ν': 'nu', 'ξ': 'xi',
    'π': 'pi', 'ρ': 'rho', 'σ': 'sigma', 'τ': 'tau', 'φ': 'phi', 'χ': 'chi', 'ψ': 'psi', 'ω': 'omega' };
  var WORD = /[\p{L}\p{N}_]+/gu;

  function normal(text) {
    return text.normalize('NFKC').replace(/['’‘ʼ`´]/g, '').toLowerCase();
  }

  function tokenize(text) {
    return normal(text).match(WORD) || [];
  }

  // A term: itself, its parts if it has underscores, a Greek letter's name (for marking words).
  function terms(term) {
    var out = [term];
    if (term.indexOf('_') > 0) term.split('_').forEach(function (p) { if (p) out.push(p); });
    var spelled = term.replace(/[α-ω]/g, function (c) { return GREEK[c] || c; });
    if (spelled !== term) out.push(spelled);
    return out;
  }

  // A script added to the page; async = false: those added together are fetched side by side and
  // run in the order added (the library, the search's code, then the index that uses both).
  function loadScript(src, then) {
    var script = document.createElement('script');
    script.src = src;
    script.async = false;
    script.onload = then;
    script.onerror = function () {
      loading = false;
      waiting = [];
      show([], [], 'The search (' + src + ') is missing.');
    };
    document.head.appendChild(script);
  }

  // The documents are indexed a slice at a time, SLICE_MS of work each, with a yield to the event
  // loop between slices (a MessageChannel message: not clamped to 4 ms as a nested setTimeout is),
  // so the page keeps scrolling and taking keys while the index builds: built in one go it froze
  // the page for 0.7 s (3.3 s at Chromium's 4x CPU throttle, a phone's speed).
  var SLICE_MS = 8;
  function addInSlices(built, docs, done) {
    var next = 0, channel = new MessageChannel();
    channel.port1.onmessage = slice;
    function slice() {
      var end = performance.now() + SLICE_MS;
      while (next < docs.length && performance.now() < end) built.add(docs[next++]);
      if (next < docs.length) channel.port2.postMessage(0);
      else { channel.port1.onmessage = null; done(); }
    }
    slice();
  }

  // The index loads once; whatever asks for it meanwhile (a query typed or pasted while it loads)
  // waits in `waiting` and is answered when the engine is built, so no query is ever dropped.
  var waiting = [], LOADING = 'Loading search…';
  function loadIndex(then) {
    if (engine) { then(); return; }
    if (waiting.indexOf(then) < 0) waiting.push(then);
    if (loading) return;
    loading = true;
    loadScript('minisearch.js', function () {});
    loadScript('search-core.js', function () {});
    loadScript('search-index.js', function () {
      var index = window.BOOK_SEARCH_INDEX, sections = index.sections;
      window.BookSearch.vocabulary(index.vocabulary);   // book/search-vocabulary.txt
      var ready = function (built) {
        engine = built;
        loading = false;
        document.documentElement.dataset.search = 'ready';
        var answers = waiting;
        waiting = [];
        answers.forEach(function (f) { f(); });
      };
      // built at render time (make book with Node): loaded; else built here, a slice at a time
      if (index.engine) {
        window.BookSearch.load(window.MiniSearch, sections, index.engine).then(ready);
        return;
      }
      var built = window.BookSearch.build(window.MiniSearch, sections);
      var docs = window.BookSearch.documents(sections);
      addInSlices(built, docs, function () { ready(built); });
    });
  }

  // All the words typed (or their synonyms) must occur; where no entry holds them all ("tail
  // effect"), any of them; one row per section (book/search-core.js).
  function search(query) {
    return window.BookSearch.search(engine, window.BOOK_SEARCH_INDEX.sections, query, 30);
  }

  // The words of `text` that a term matched (by prefix), found as the index found them.
  // A Greek letter typed (λ) also matches its name, as a formula's TeX holds it (\lambda).
  function matcher(words) {
    var set = [];
    words.map(normal).filter(Boolean).forEach(function (t) {
      set.push(t);
      var spelled = t.replace(/[α-ω]/g, function (c) { return GREEK[c] || c; });
      if (spelled !== t) set.push(spelled);
    });
    return function (word) {
      var w = normal(word);
      return set.some(function (t) {
        // a word of three letters or more marks every word it starts, as the search completes it;
        // a shorter one (SM, L2, λ) only itself and its plural, as the search asks it whole
        var starts = t.length >= 3 ? function (p) { return p.indexOf(t) === 0; }
                                   : function (p) { return p === t || p === t + 's'; };
        return starts(w) || terms(w).some(starts);
      });
    };
  }

  // The text cut into [piece, is-a-hit] parts, a word at a time.
  function parts(text, isHit) {
    var out = [], last = 0, m;
    var word = /[\p{L}\p{N}_'’]+/gu;
    while ((m = word.exec(text))) {
      if (isHit(m[0])) {
        if (m.index > last) out.push([text.slice(last, m.index), false]);
        out.push([m[0], true]);
        last = m.index + m[0].length;
      }
    }
    if (last < text.length) out.push([text.slice(last), false]);
    return out;
  }

  // A short excerpt around the first hit, the hits marked; built as DOM, never as HTML.
  function excerpt(text, words) {
    var isHit = matcher(words), at = 0, m, word = /[\p{L}\p{N}_'’]+/gu;
    while ((m = word.exec(text))) { if (isHit(m[0])) { at = m.index; break; } }
    var start = Math.max(0, at - 60), piece = text.slice(start, start + 180).replace(/\s+/g, ' ');
    var span = document.createElement('span');
    span.className = 'excerpt';
    parts((start > 0 ? '… ' : '') + piece + (start + 180 < text.length ? ' …' : ''), isHit)
      .forEach(function (p) {
        var node = p[1] ? document.createElement('mark') : document.createTextNode(p[0]);
        if (p[1]) node.textContent = p[0];
        span.appendChild(node);
      });
    return span;
  }

  // The words to mark for a hit: those typed, a typed word's stem where the index matched it by its
  // stem (computes: comput, so that compute and computed are marked), and where a typed word
  // matched only with a typo ("occupncy"), the index's words it matched instead ("occupancy").
  function markedWords(words, matched) {
    var out = words.slice();
    words.forEach(function (w) {
      var t = window.BookSearch ? window.BookSearch.stem(normal(w)) : normal(w);
      if ((matched || []).some(function (m) { return m.indexOf(t) === 0; })) {
        // matched by its stem: the page marks every form of the word (computes: compute, computed)
        if (t !== normal(w) && out.indexOf(t) < 0) out.push(t);
        return;
      }
      (matched || []).forEach(function (m) { if (out.indexOf(m) < 0) out.push(m); });
    });
    return out;
  }

  function show(results, words, message) {
    list.textContent = '';
    if (message || !results.length) {
      var none = document.createElement('li');
      none.className = message === LOADING ? 'none loading' : 'none';
      none.textContent = message || 'Nothing found.';
      list.appendChild(none);
    }
    results.forEach(function (result) {
      var e = result.entry;
      var item = document.createElement('li');
      var link = document.createElement('a');
      // the words travel in the address (?hl=), so the page can mark them on arrival
      var marked = markedWords(words, result.terms);
      link.href = e.p + '?hl=' + encodeURIComponent(marked.join(' ')) + (e.a ? '#' + e.a : '');
      var where = document.createElement('span');
      where.className = 'where';
      where.textContent = e.c + (e.h && e.h !== e.c ? ' › ' + e.h : '') + (e.k === 'c' || e.k === 'a' ? ' (code)' : '');
      link.appendChild(where);
      if (e.k !== 'h') link.appendChild(excerpt(e.t, marked));
      item.appendChild(link);
      list.appendChild(item);
    });
    list.hidden = false;
  }

  // A query of one character is too common to search unless it is not ASCII (λ, φ, η: a symbol).
  function searchable(query) {
    return query.length >= 2 || (query.length === 1 && query.charCodeAt(0) > 127);
  }

  function onInput() {
    var query = input.value.trim();
    if (!searchable(query)) { list.hidden = true; return; }
    if (!engine) show([], [], LOADING);
    loadIndex(answer);
  }

  // The query as it is now (typed on while the index loaded): one answer, however many keys waited.
  function answer() {
    var query = input.value.trim();
    if (!searchable(query)) { list.hidden = true; return; }
    show(search(query), askedWords(query));
  }

  // The query's words that the search asks, to mark: the stop words ("how", "I", "per") are neither
  // indexed nor asked, and marked they would light every "is" and "it" of the excerpts and the page.
  function askedWords(query) {
    var stop = window.BookSearch.STOP;
    return tokenize(query).filter(function (w) { return !stop[w]; });
  }

  function onKey(event) {
    if (event.key === 'Escape') { input.value = ''; list.hidden = true; input.blur(); }
    if (event.key === 'Enter') {
      var first = list.querySelector('a');
      if (first) window.location.href = first.href;
    }
    if (event.key === 'ArrowDown' && !list.hidden) {
      var top = list.querySelector('a');
      if (top) { event.preventDefault(); top.focus(); }
    }
  }

  // ↑ and ↓ move through the results (↑ from the first goes back to the field); Enter follows
  // the one focused (a link's own behaviour); Escape goes back to the field.
  function onListKey(event) {
    var links = Array.prototype.slice.call(list.querySelectorAll('a'));
    var at = links.indexOf(document.activeElement);
    if (at < 0) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      var next = at + (event.key === 'ArrowDown' ? 1 : -1);
      if (next < 0) input.focus();
      else if (next < links.length) links[next].focus();
    } else if (event.key === 'Escape') {
      input.focus();
    }
  }

  // A formula as the words the index holds for it (book/render/search_index.py's tex_words):
  // B_{\text{dram}} -> B_dram, \lambda -> lambda.
  function texWords(tex) {
    return tex.replace(/\\(?:text|mathrm|mathit|mathbf|mathsf|mathtt|textrm|textit|operatorname)\s*\{([^{}]*)\}/g, '$1')
      .replace(/\\([A-Za-z]+)/g, ' $1 ')
      .replace(/_\s*\{([^{}]*)\}/g, function (m, inner) { return '_' + inner.replace(/\s+/g, ''); })
      .replace(/[{}]/g, ' ');
  }

  // ---- On arrival from a search (?hl=words): open what folds the target, mark the words in
  // the text from the target on, and bring the first mark into view.
  function markArrival() {
    var words = new URLSearchParams(window.location.search).get('hl');
    var main = document.getElementById('content');
    if (!words || !main) return;
    var isHit = matcher(tokenize(words));
    var target = window.location.hash ? document.getElementById(decodeURIComponent(window.location.hash.slice(1))) : null;
    for (var up = target; up; up = up.parentElement) if (up.tagName === 'DETAILS') up.open = true;
    var walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT), nodes = [], node;
    while ((node = walker.nextNode())) {
      if (node.parentElement.closest('script, style, button, .code-head, summary, math, mark')) continue;
      nodes.push(node);
    }
    var first = null, count = 0;
    // at or after the target: asked of the text node while it is still in the page (a mark in
    // a fragment not yet inserted has no place to compare, so any answer came back before)
    function afterTarget(node) {
      return !target || target === node || target.contains(node) ||
        !!(target.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
    }
    nodes.forEach(function (text) {
      if (count >= 200 && first) return;   // enough marks, but never before the first after the target
      var pieces = parts(text.nodeValue, isHit);
      if (!pieces.some(function (p) { return p[1]; })) return;
      var after = afterTarget(text);
      var frag = document.createDocumentFragment();
      pieces.forEach(function (p) {
        if (!p[1]) { frag.appendChild(document.createTextNode(p[0])); return; }
        var mark = document.createElement('mark');
        mark.className = 'hit';
        mark.textContent = p[0];
        frag.appendChild(mark);
        count += 1;
        if (!first && after) first = mark;
      });
      text.parentNode.replaceChild(frag, text);
    });
    // formulas: a <math> whose TeX (Pandoc keeps it as an annotation) holds a word is marked whole
    main.querySelectorAll('math').forEach(function (math) {
      var tex = math.querySelector('annotation');
      if (!tex || !tokenize(texWords(tex.textContent)).some(isHit)) return;
      math.classList.add('hit');
      count += 1;
      if (afterTarget(math) && (!first || (first.compareDocumentPosition(math) & Node.DOCUMENT_POSITION_PRECEDING))) first = math;
    });
    if (first) {
      for (var d = first.parentElement; d; d = d.parentElement) if (d.tagName === 'DETAILS') d.open = true;
      first.classList.add('first');
      var mark = first;
      var bring = function () { mark.scrollIntoView({ block: 'center' }); };
      bring();
      // the browser scrolls to the #fragment itself, and figures without a size move the text as
      // they load: bring the mark back once the page has loaded, after that scroll
      // (a timer as well as a frame: a page drawn in no frame, hidden or headless, still gets it)
      var after = function () { window.requestAnimationFrame(bring); window.setTimeout(bring, 0); };
      if (document.readyState === 'complete') after();
      else window.addEventListener('load', after, { once: true });
    }
    document.documentElement.dataset.hits = String(count);
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

  // ---- The results at a glance (code_blocks.lua): folded on a phone; on a wider screen the
  // stylesheet shows them (::details-content), and opening them here does the same where that is
  // unknown.
  function openGlance() {
    if (window.CSS && CSS.supports && CSS.supports('selector(::details-content)')) return;
    if (!window.matchMedia('(min-width: 40.01rem)').matches) return;
    document.querySelectorAll('details.glance').forEach(function (d) { d.open = true; });
  }

  // ---- The contents from anywhere (a narrow screen): the bar's button opens the contents over the
  // text; a link followed, the button again, Escape or a tap outside closes them.
  function contentsButton() {
    var button = document.getElementById('toc-button'), nav = document.getElementById('toc');
    var fold = nav && nav.querySelector('details');
    if (!button || !fold) return;
    function set(open) {
      nav.classList.toggle('over', open);
      fold.open = open;
      button.setAttribute('aria-expanded', String(open));
      if (open) { var here = nav.querySelector('a.current') || nav.querySelector('a'); if (here) here.focus(); }
    }
    button.addEventListener('click', function () { set(!nav.classList.contains('over')); });
    fold.addEventListener('toggle', function () { if (!fold.open && nav.classList.contains('over')) set(false); });
    nav.addEventListener('click', function (event) { if (event.target.closest('a')) set(false); });
    document.addEventListener('keydown', function (event) {
      if (event.key === 'Escape' && nav.classList.contains('over')) { set(false); button.focus(); }
    });
    document.addEventListener('click', function (event) {
      if (nav.classList.contains('over') && !event.target.closest('#toc, #toc-button')) set(false);
    });
  }

  // ---- The dated box's symbols on a phone: the stylesheet shows the first rows of a long table;
  // its button shows them all.
  function symbolsButtons() {
    document.querySelectorAll('.symbols-more').forEach(function (button) {
      button.addEventListener('click', function () {
        var table = button.previousElementSibling;
        if (table) table.classList.add('all');
        button.setAttribute('aria-expanded', 'true');
      });
    });
  }

  // ---- Theme: system (the default), light or dark; the template's head applies the remembered
  // choice before the first paint, so a dark page never flashes white.
  var THEMES = ['system', 'light', 'dark'];
  var THEME_LABEL = { system: '◐ System', light: '☀ Light', dark: '☾ Dark' };

  function currentTheme() {
    var t = null;
    try { t = window.localStorage.getItem('book-theme'); } catch (e) { /* storage refused */ }
    return THEMES.indexOf(t) >= 0 ? t : 'system';
  }

  function applyTheme(theme, button) {
    if (theme === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = theme;
    if (button) {
      button.textContent = THEME_LABEL[theme];
      button.setAttribute('aria-label', 'Theme: ' + theme + ' (change)');
    }
  }

  function themeSwitch() {
    var button = document.getElementById('theme');
    if (!button) return;
    applyTheme(currentTheme(), button);
    button.addEventListener('click', function () {
      var next = THEMES[(THEMES.indexOf(currentTheme()) + 1) % THEMES.length];
      try { window.localStorage.setItem('book-theme', next); } catch (e) { /* not remembered */ }
      applyTheme(next, button);
    });
  }

  // A link to a place inside a folded block (a chunk's use, a search hit) opens the fold.
  function openTarget() {
    var id = window.location.hash ? decodeURIComponent(window.location.hash.slice(1)) : '';
    var target = id && document.getElementById(id);
    for (var up = target; up; up = up.parentElement) if (up.tagName === 'DETAILS') up.open = true;
    if (target && target.closest('details')) target.scrollIntoView();
  }

  document.addEventListener('DOMContentLoaded', function () {
    foldContents();
    openGlance();
    contentsButton();
    symbolsButtons();
    themeSwitch();
    openTarget();
    window.addEventListener('hashchange', openTarget);
    markArrival();
    document.addEventListener('click', onCopy);
    input = document.getElementById('search');
    list = document.getElementById('search-results');
    if (!input || !list) return;
    var asked = new URLSearchParams(window.location.search).get('q');
    if (asked) { input.value = asked; onInput(); }
    input.addEventListener('input', onInput);
    input.addEventListener('keydown', onKey);
    list.addEventListener('keydown', onListKey);
    input.addEventListener('focus', function () { loadIndex(function () {}); });
    document.addEventListener('keydown', function (event) {
      if (event.key === '/' && document.activeElement !== input) { event.preventDefault(); input.focus(); }
    });
    document.addEventListener('click', function (event) {
      if (!event.target.closest('.search')) list.hidden = true;
    });
  });
})();

// ---- Keys between chapters: ← and → open the previous and the next chapter (the template's
// <link rel="prev"/"next">), unless the reader is typing (an input, a text area, an editable
// element) or holds a modifier (Alt+← is the browser's Back). Kept apart from the search above.
(function () {
  'use strict';

  function typing(el) {
    if (!el) return false;
    var tag = el.tagName;
    return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || el.isContentEditable;
  }

  function chapterKeys(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (typing(event.target) || typing(document.activeElement)) return;
    var at = document.activeElement;   // a frame that scrolls sideways keeps its arrows
    if (at && at.closest && at.closest('pre, .table-scroll, .roofline-key, .search-results')) return;
    var rel = event.key === 'ArrowLeft' ? 'prev' : event.key === 'ArrowRight' ? 'next' : '';
    var link = rel && document.querySelector('link[rel="' + rel + '"]');
    if (!link) return;
    event.preventDefault();
    window.location.href = link.href;
  }

  document.addEventListener('keydown', chapterKeys);
})();

// ---- Where the reader is: the contents link of the section on screen (the last heading above
// the first quarter of the screen) is marked current (class current, aria-current), and on a
// wide screen, where the contents stand beside the text and scroll on their own, kept in view.
(function () {
  'use strict';

  function track() {
    var links = Array.prototype.slice.call(document.querySelectorAll('.toc a[href^="#"]'));
    var entries = links.map(function (a) {
      return { link: a, heading: document.getElementById(decodeURIComponent(a.getAttribute('href').slice(1))) };
    }).filter(function (e) { return e.heading; });
    if (!entries.length) return;
    // (the column that scrolls: the side column on a wide screen, holding the book's chapters too)
    var toc = document.querySelector('.side') || document.querySelector('.toc'), current = null, pending = false;

    function update() {
      pending = false;
      var line = window.innerHeight / 4, here = null;
      for (var i = 0; i < entries.length; i++) {
        if (entries[i].heading.getBoundingClientRect().top <= line) here = entries[i];
        else break;
      }
      if (here === current) return;
      if (current) { current.link.classList.remove('current'); current.link.removeAttribute('aria-current'); }
      current = here;
      if (!current) return;
      current.link.classList.add('current');
      current.link.setAttribute('aria-current', 'location');
      if (toc && toc.scrollHeight > toc.clientHeight) {
        var box = current.link.getBoundingClientRect(), frame = toc.getBoundingClientRect();
        if (box.top < frame.top || box.bottom > frame.bottom) toc.scrollTop += box.top - frame.top - frame.height / 3;
      }
    }

    function later() {
      if (!pending) { pending = true; window.requestAnimationFrame(update); }
    }
    window.addEventListener('scroll', later, { passive: true });
    window.addEventListener('resize', later);
    update();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', track);
  else track();
})();
