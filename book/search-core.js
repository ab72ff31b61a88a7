// The book's search, apart from the page: how text becomes terms (the index's and the query's),
// how a query is asked, and how hits become one row per section. book/book.js loads it with
// minisearch.js on the first search; tests/render/search_share.js runs the same code under Node on
// a rendered book's search-index.js, with the learner queries of tests/render/search-queries.tsv.
//
// Terms: words (letters, digits, underscores), lowercased, apostrophes dropped ("Little's" =
// "Little’s"); a name with underscores is also its parts (B_dram: b, dram); a Greek letter is
// also its name (λ = lambda). An English word of prose is cut to its stem (STEM: divergence,
// divergent -> diverg; privatization, private -> privat), common words (STOP) are not indexed nor
// asked, and a query's word is also asked as its synonyms (SYNONYMS: HBM = DRAM, smem = shared
// memory). Code's identifiers are never stemmed (a word with a digit or an underscore, or one of a
// code block's names, stays whole), so `float4` and `__syncthreads` are found as typed.
(function (root) {
  'use strict';
  var GREEK = { 'α': 'alpha', 'β': 'beta', 'γ': 'gamma', 'δ': 'delta', 'ε': 'epsilon', 'ζ': 'zeta',
    'η': 'eta', 'θ': 'theta', 'κ': 'kappa', 'λ': 'lambda', 'μ': 'mu', 'ν': 'nu', 'ξ': 'xi',
    'π': 'pi', 'ρ': 'rho', 'σ': 'sigma', 'τ': 'tau', 'φ': 'phi', 'χ': 'chi', 'ψ': 'psi', 'ω': 'omega' };
  var WORD = /[\p{L}\p{N}_]+/gu;

  var STOP = {};
  ('a an and are as at be been but by can do does for from has have how i if in into is it its of on ' +
   'or so than that the their them then there these they this those to was we what when where which ' +
   'while who why will with you your')
    .split(' ').forEach(function (w) { STOP[w] = true; });

  // A query's word, and what else it may be written as in the book (each side of a pair finds the
  // other). Several words in one entry are asked together ("shared memory").
  var SYNONYMS = [
    ['hbm', 'dram'], ['dram', 'global memory'], ['smem', 'shared memory'], ['shmem', 'shared memory'],
    ['divergence', 'divergent'], ['privatization', 'privatisation', 'private'],
    ['syncthreads', '__syncthreads'], ['barrier', '__syncthreads'], ['sync', '__syncthreads'],
    ['bandwidth', 'b_dram'], ['l2', 'l2 cache'], ['gemm', 'matmul'], ['matrix multiply', 'matmul'],
    ['sgemm', 'matmul'], ['tensor core', 'wgmma'], ['tensor cores', 'mma'], ['latency', 'lambda'],
    ['coalesce', 'coalesced'], ['coalescing', 'coalesced'],
    ['occupancy', 'resident warps'], ['tail effect', 'tail'], ['waves', 'wave quantization'],
    ['cuda graph', 'cudagraph'], ['cuda graphs', 'graph'], ['atomic', 'atomicadd'], ['atomics', 'atomicadd'],
    ['histogram', 'histograms'], ['profiler', 'ncu'], ['nsight compute', 'ncu'], ['nsight', 'ncu'],
    ['roofline model', 'roofline'], ['arithmetic intensity', 'intensity'], ['flash attention', 'flash'],
    ['speed of light', 'roofline'], ['vectorized', 'float4'], ['vectorised', 'vectorized'],
    ['launch overhead', 'launch'], ['register pressure', 'registers'], ['spill', 'spills']
  ];
  var SYNONYM = {};
  SYNONYMS.forEach(function (group) {
    group.forEach(function (w) {
      SYNONYM[w] = (SYNONYM[w] || []).concat(group.filter(function (o) { return o !== w; }));
    });
  });

  function normal(text) {
    return text.normalize('NFKC').replace(/['’‘ʼ`´]/g, '').toLowerCase();
  }

  function tokenize(text) {
    return normal(text).match(WORD) || [];
  }

  // A light English stemmer (a few of Porter's steps): the longest suffix of SUFFIXES that leaves
  // a stem of at least 4 letters goes, then a final e or a doubled consonant. Letters only: a
  // word with a digit or an underscore is a name and stays whole.
  var SUFFIXES = ['izations', 'isations', 'ization', 'isation', 'ational', 'ations', 'ation', 'nesses',
    'ness', 'ments', 'ment', 'ences', 'ence', 'ances', 'ance', 'encies', 'ency', 'ents', 'ent', 'ants',
    'ant', 'ities', 'ity', 'ings', 'ing', 'izes', 'ized', 'ize', 'ises', 'ised', 'ise', 'ables',
    'able', 'ibles', 'ible', 'ically', 'ical', 'ally', 'als', 'al', 'ers', 'er', 'ives', 'ive', 'ies',
    'ied', 'ed', 'ly', 'es', 's'];
  function stem(word) {
    if (word.length <= 4 || !/^[a-z]+$/.test(word)) return word;
    for (var i = 0; i < SUFFIXES.length; i++) {
      var s = SUFFIXES[i];
      if (word.length - s.length >= 4 && word.slice(-s.length) === s) {
        word = word.slice(0, -s.length);
        if (s === 'ies' || s === 'ied') word += 'y';
        break;
      }
    }
    if (word.length > 4 && word.slice(-1) === 'e') word = word.slice(0, -1);
    if (word.length > 4 && /([b-df-hj-np-tv-z])\1$/.test(word)) word = word.slice(0, -1);
    return word;
  }

  // A term as indexed: itself, its parts if it has underscores, a Greek letter's name, its stem.
  function terms(term) {
    var out = [term];
    if (term.indexOf('_') > 0) term.split('_').forEach(function (p) { if (p) out.push(p); });
    var spelled = term.replace(/[α-ω]/g, function (c) { return GREEK[c] || c; });
    if (spelled !== term) out.push(spelled);
    var stemmed = stem(term);
    if (stemmed !== term) out.push(stemmed);
    return out;
  }

  function indexTerm(term) {
    if (!term || STOP[term]) return null;
    return terms(term);
  }

  // A query's word as asked: its stem (a prefix of every form of the word), or the word itself
  // where it is a name; null for a stop word.
  function queryTerm(term) {
    if (!term || STOP[term]) return null;
    return stem(term);
  }

  // Each kind of entry's weight: a heading, prose (a paragraph, a list item, a cell), the chapter's
  // own code, and its apparatus (tests, benchmark registrations, launchers: folded on the page).
  // The GPUs page (gpus.html: tables under the chapters' own titles) counts a third.
  var KIND_BOOST = { h: 1.6, p: 1, c: 0.3, a: 0.05 };

  function options(entries) {
    return {
      fields: ['h', 't', 'x', 'c'],
      tokenize: tokenize,
      processTerm: indexTerm,
      searchOptions: {
        tokenize: tokenize,
        processTerm: queryTerm,
        prefix: function (term) { return term.length >= 3; },
        fuzzy: function (term) { return term.length >= 5 ? 1 : 0; },
        // a typo's match counts a tenth of an exact one (MiniSearch's default is 0.45), so that
        // `mbarrier` ranks the pages about mbarriers above those about `barrier`, one edit away
        weights: { fuzzy: 0.1, prefix: 0.3 },
        combineWith: 'AND',
        // the chapter's title counts a little: "coalescing" is what all of 2.1 is about
        boost: { h: 5, x: 1.5, c: 0.7 },
        boostDocument: function (id) {
          var e = entries[id];
          return (KIND_BOOST[e.k] || 1) * (e.p === 'gpus.html' ? 0.3 : 1);
        }
      }
    };
  }

  function build(MiniSearch, entries) {
    return new MiniSearch(options(entries));
  }

  function documents(entries) {
    return entries.map(function (e, i) { return { id: i, k: e.k, h: e.h, t: e.t, x: e.x || '', c: e.c }; });
  }

  // The query as a tree: every word (AND), each word or any of its synonyms (OR); a synonym of
  // several words asks for all of them. Two words that together make a synonym's key ("shared
  // memory", "tail effect") are asked as one entry with its synonyms.
  function queryTree(query) {
    var words = tokenize(query).filter(function (w) { return !STOP[w]; });
    var parts = [];
    for (var i = 0; i < words.length; i++) {
      var pair = i + 1 < words.length ? words[i] + ' ' + words[i + 1] : null;
      var key = pair && SYNONYM[pair] ? pair : words[i];
      if (key === pair) i++;
      var alternatives = [key].concat(SYNONYM[key] || []).map(function (alt) {
        var ws = tokenize(alt);
        return ws.length > 1 ? { combineWith: 'AND', queries: ws } : ws[0];
      });
      parts.push(alternatives.length > 1 ? { combineWith: 'OR', queries: alternatives } : alternatives[0]);
    }
    if (!parts.length) return null;
    return parts.length > 1 ? { combineWith: 'AND', queries: parts } : parts[0];
  }

  // The section an entry belongs to: its page and its heading (a code block has its own anchor,
  // its section is the heading above it).
  function sectionOf(e) {
    return e.p + '\u0000' + (e.h || '');
  }

  // Hits, one row per section (its best hit, whose score counts the section's other hits a little),
  // best first; where no entry holds every word, any of them.
  function search(engine, entries, query, limit) {
    var tree = queryTree(query);
    if (!tree) return [];
    var hits = engine.search(tree);
    if (!hits.length && tokenize(query).length > 1) {
      hits = engine.search(query, { combineWith: 'OR' });
    }
    var rows = [], bySection = {};
    hits.forEach(function (hit) {
      var entry = entries[hit.id], key = sectionOf(entry);
      var row = bySection[key];
      if (!row) {
        row = bySection[key] = { entry: entry, terms: hit.terms, score: hit.score, best: hit.score };
        rows.push(row);
      } else {
        row.score += 0.1 * hit.score;
        if (entry.k === 'h' && row.entry.k !== 'h') row.heading = entry;
      }
    });
    rows.sort(function (a, b) { return b.score - a.score; });
    return rows.slice(0, limit || 30);
  }

  var api = { normal: normal, tokenize: tokenize, terms: terms, stem: stem, GREEK: GREEK, STOP: STOP,
              SYNONYM: SYNONYM, build: build, documents: documents, queryTree: queryTree, search: search };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BookSearch = api;
})(typeof window !== 'undefined' ? window : this);
