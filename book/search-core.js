// The book's search, apart from the page: how text becomes terms (the index's and the query's),
// how a query is asked, and how a section is ranked. book/book.js loads it with minisearch.js on
// the first search; book/render/search_prebuild.js builds the engine with it at render time;
// tests/render/search_share.js runs it under Node on a rendered book's search-index.js, with the
// learner queries of tests/render/search-queries.tsv.
//
// Documents: one a section (book/render/search_index.py), so a result is a section, never twice.
// Terms: words (letters, digits, underscores), lowercased, apostrophes dropped ("Little's" =
// "Little’s"); a name with underscores is also its parts (B_dram: b, dram); a Greek letter is
// also its name (λ = lambda). A word of letters is indexed and asked as its stem (stem: divergence,
// divergent -> diverg; tiled, tiling -> til), common words (STOP) are neither indexed nor asked,
// and a query's term is also asked as the book's words for it (the vocabulary, from the field's
// standard texts: book/search-vocabulary.txt; latency hiding -> bytes in flight, HBM = DRAM);
// a typed word the index does not hold, with two neighbouring letters swapped, is asked as the
// word the swap makes (corrected()). A word with a digit or an underscore is a name and stays
// whole: `float4` and `__syncthreads` are found as typed.
// Ranking (search()): a section's score sums, for each part of the query, the best score of the
// ways it may be written (itself or a synonym), saturated and weighted by the part's rarity (as
// BM25F scores a term once across fields); it is multiplied by the share of the
// query's weight it holds, by how much of that its heading and the terms
// it first defines in italics hold, by a phrase's bonus where the words stand side by side, by
// its page's weight (PAGE_BOOST) and by its own (SECTION_BOOST: exercises, answers and the
// apparatus's sections below the sections that teach). The book's index (book/index-terms/) names
// the section that teaches each thing under the names a reader brings: a name of it that fits the
// query lifts its section as the section's heading would. tests/render/search_share.js measures it
// on learner queries, those it was tuned to and those held out.
(function (root) {
  'use strict';
  var GREEK = { 'α': 'alpha', 'β': 'beta', 'γ': 'gamma', 'δ': 'delta', 'ε': 'epsilon', 'ζ': 'zeta',
    'η': 'eta', 'θ': 'theta', 'κ': 'kappa', 'λ': 'lambda', 'μ': 'mu', 'ν': 'nu', 'ξ': 'xi',
    'π': 'pi', 'ρ': 'rho', 'σ': 'sigma', 'τ': 'tau', 'φ': 'phi', 'χ': 'chi', 'ψ': 'psi', 'ω': 'omega' };
  var WORD = /[\p{L}\p{N}_]+/gu;

  var STOP = {};
  ('a am an and are as at be been between but by can could did do does for from has have how i if in into is ' +
   'it its me my of on or our per should so than that the their them then there these they this those to us ' +
   'was we were what when where which while who why will with would you your')
    .split(' ').forEach(function (w) { STOP[w] = true; });

  // The search's vocabulary (book/search-vocabulary.txt, shipped in search-index.js): a reader's term,
  // as the stems of its words ("memory bound"), and what else to ask it as, the book's own words
  // (SYNONYM: stems -> texts). vocabulary(lines) sets it from the file's lines, comments out:
  // "TERM -> WORDS, WORDS" asks TERM also as each WORDS; "A = B = C" asks each as the others.
  var SYNONYM = {};
  var VOCABULARY_STEMS = {};  // every stem of a term the vocabulary knows (no typo: oneEdit)
  var LONGEST_TERM = 3;     // words in a term at most
  function vocabulary(lines) {
    SYNONYM = {};
    VOCABULARY_STEMS = {};
    var add = function (term, alternatives) {
      var key = stems(term).join(' ');
      if (!key) return;
      key.split(' ').forEach(function (k) { VOCABULARY_STEMS[k] = true; });
      var known = SYNONYM[key] || [];
      SYNONYM[key] = known.concat(alternatives.filter(function (a) {
        return stems(a).join(' ') !== key && known.indexOf(a) < 0;
      }));
    };
    (lines || []).forEach(function (line) {
      line = line.replace(/#.*/, '').trim();
      if (!line) return;
      var arrow = line.split('->');
      if (arrow.length === 2) {
        add(arrow[0].trim(), arrow[1].split(',').map(function (w) { return w.trim(); }).filter(Boolean));
        return;
      }
      var same = line.split('=').map(function (w) { return w.trim(); }).filter(Boolean);
      same.forEach(function (w) { add(w, same.filter(function (o) { return o !== w; })); });
    });
    return api;
  }

  var ASCII = /^[\x00-\x7f]*$/;
  function normal(text) {
    // NFKC changes no ASCII text (and costs most of a search's first tokenizing)
    return (ASCII.test(text) ? text : text.normalize('NFKC')).replace(/['’‘ʼ`´]/g, '').toLowerCase();
  }

  function tokenize(text) {
    return normal(text).match(WORD) || [];
  }

  // A light English stemmer (a few of Porter's steps): the first suffix of SUFFIXES that leaves a
  // stem of at least 4 letters (3 for an inflection, INFLECTIONS: tiled, tiling, tiles -> til) goes,
  // then a final e (tile -> til) or a doubled consonant. Letters only: a word with a digit or an
  // underscore is a name and stays whole.
  var SUFFIXES = ['izations', 'isations', 'ization', 'isation', 'ational', 'ations', 'ation', 'nesses',
    'ness', 'ments', 'ment', 'ences', 'ence', 'ances', 'ance', 'encies', 'ency', 'ents', 'ent', 'ants',
    'ant', 'ities', 'ity', 'ings', 'ing', 'izes', 'ized', 'ize', 'ises', 'ised', 'ise', 'ables',
    'able', 'ibles', 'ible', 'ically', 'ical', 'ally', 'als', 'al', 'ers', 'er', 'ives', 'ive', 'ies',
    'ied', 'ate', 'ion', 'ed', 'ly', 'es', 's'];
  var INFLECTIONS = { ings: 1, ing: 1, ers: 1, er: 1, ed: 1, es: 1, s: 1 };
  var AGENT = { er: 1, ers: 1, ate: 1, ion: 1 };   // off only where Porter's measure is over 1 (timer, private stay)
  // Porter's measure: the number of vowel-consonant sequences (tim 1, count 1, regist 2)
  function measure(w) {
    var m = w.replace(/[^aeiouy]+/g, 'C').replace(/[aeiouy]+/g, 'V').replace(/^C/, '').match(/VC/g);
    return m ? m.length : 0;
  }
  // each word's stem once (a query stems the index's names of every section it hits)
  var STEMMED = Object.create(null);
  function stem(word) {
    var known = STEMMED[word];
    return known !== undefined ? known : (STEMMED[word] = stemOf(word));
  }

  function stemOf(word) {
    if (word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
    var cut = false;
    // an inflection, then what it was made of (buffering, buffer -> buf); a second suffix only after an
    // inflection (general, generalization -> gener, general: not gen)
    for (var pass = 0; pass < 2; pass++) {
      var last = null;
      for (var i = 0; i < SUFFIXES.length; i++) {
        var s = SUFFIXES[i];
        if (word.length - s.length >= (INFLECTIONS[s] ? 3 : 4) && word.slice(-s.length) === s &&
            (!AGENT[s] || measure(word.slice(0, -s.length)) > 1) &&
            // a final s that is no plural: access, class, status, analysis
            !(s === 's' && /[su]s$|is$/.test(word)) &&
            // -ion only after s or t (execution -> execut, precision -> precis; not region, union)
            !(s === 'ion' && !/[st]ion$/.test(word))) {
          word = word.slice(0, -s.length);
          if (s === 'ies' || s === 'ied') word += 'y';
          // Porter's step 1b: an inflection off -at, -bl, -iz gives back its e, so that the base's
          // suffix comes off next (specialized, specialization -> special; vectorized -> vector)
          else if (INFLECTIONS[s] && /(at|bl|iz)$/.test(word)) word += 'e';
          cut = true;
          last = s;
          break;
        }
      }
      if (!last || !INFLECTIONS[last]) break;
    }
    if (word.length > 3 && word.slice(-1) === 'e') word = word.slice(0, -1);
    // a consonant doubled before a cut suffix (stopped, stopping -> stop), as Porter's step 1b: not l,
    // s or z, which a word may end with (stall, access: stall is not stale)
    if (cut && word.length > 3 && /([b-df-hj-kmnp-rtv-y])\1$/.test(word)) word = word.slice(0, -1);
    return word;
  }

  // A term as written: itself, its parts if it has underscores, a Greek letter's name.
  function terms(term) {
    var out = [term];
    if (term.indexOf('_') > 0) term.split('_').forEach(function (p) { if (p) out.push(p); });
    var spelled = term.replace(/[α-ω]/g, function (c) { return GREEK[c] || c; });
    if (spelled !== term) out.push(spelled);
    return out;
  }

  // A term as indexed: as written, a word cut to its stem (as a query's word is: each form of a
  // word is one term, counted once, not a stem and a whole word that both match).
  function indexTerm(term) {
    if (!term || STOP[term]) return null;
    return terms(term).map(stem);
  }

  // A query's word as asked: its stem (a prefix of every form of the word), or the word itself
  // where it is a name; null for a stop word.
  function queryTerm(term) {
    if (!term || STOP[term]) return null;
    return stem(term);
  }

  // A section is one document (book/render/search_index.py): its heading (h), first paragraph
  // (f), the rest of its prose (t), the terms it first sets in italics (d: firstDefinitions), its
  // formulas' words (x), the identifiers of the chapter's own
  // code (c) and of its apparatus (a: tests, benchmark registrations, launchers, folded on the
  // page), the chapter's title (l), and what the book's cross-references to it call it (r: anchor
  // text, "Little's law (lesson 1.3)"). A heading and a first paragraph say what a section is
  // about; code names what it does, and the apparatus repeats the chapter's names in every test:
  // their weights, in FIELD_BOOST, put the prose far above them.
  // What the cross-references call a section (r) is the book's own title for it, chosen by its
  // author where they point to it, and weighs nearly as a heading does. The book's index (i: the
  // names of the index's entries that point to the section, book/index-terms/) is its author's
  // word on what the section teaches, under the names a reader brings: it finds the section by a
  // name its prose never uses, as a chapter's title does (its authority is in search(): a name that
  // fits the query lifts the section as its heading would); the names of which the section is a
  // later place (j: a later chapter applies them) at half that. The readers' questions the section
  // answers (q: the index files' `?` lines, in a learner's words) find it as its prose would.
  var FIELD_BOOST = { h: 4, d: 3, f: 2, t: 0.7, x: 0.7, c: 0.1, a: 0.05, l: 1, r: 3, i: 1, j: 0.5, q: 1 };

  function options(sections) {
    return {
      fields: ['h', 'd', 'f', 't', 'x', 'c', 'a', 'l', 'r', 'i', 'j', 'q'],
      tokenize: tokenize,
      processTerm: indexTerm,
      searchOptions: {
        tokenize: tokenize,
        processTerm: queryTerm,
        prefix: function (term) { return term.length >= 3; },
        fuzzy: function (term) { return term.length >= 5 ? 1 : 0; },
        // a typo's match counts a tenth of an exact one (MiniSearch's default is 0.45), so that
        // `mbarrier` ranks the pages about mbarriers above those about `barrier`, one edit away
        weights: { fuzzy: 0.1, prefix: 0.1 },
        combineWith: 'AND',
        boost: FIELD_BOOST
      }
    };
  }

  function build(MiniSearch, sections) {
    return new MiniSearch(options(sections));
  }

  // The engine as search-index.js ships it: MiniSearch's toJSON with its index as flat rows,
  // [term, field, n, doc, count, ... n pairs, field, n, ...], not [term, {field: {doc: count}}]:
  // numbers in arrays, not objects keyed by strings, so the browser parses the script and makes the
  // engine in about half the time (book/render/search_prebuild.js writes it).
  function compact(js) {
    var out = {};
    Object.keys(js).forEach(function (k) { out[k] = js[k]; });
    out.index = js.index.map(function (entry) {
      var row = [entry[0]];
      Object.keys(entry[1]).forEach(function (field) {
        var docs = entry[1][field], ids = Object.keys(docs);
        row.push(+field, ids.length);
        ids.forEach(function (id) { row.push(+id, docs[id]); });
      });
      return row;
    });
    out.compact = 1;
    return out;
  }

  // Rows from..to of a compact index into the engine's term tree (MiniSearch's _index: term ->
  // field -> doc -> count, as its own loadJS makes it).
  function fill(engine, rows, from, to) {
    for (var i = from; i < to; i++) {
      var row = rows[i], fields = new Map();
      for (var j = 1; j < row.length;) {
        var docs = new Map(), n = row[j + 1];
        for (var k = 0; k < n; k++) docs.set(row[j + 2 + 2 * k], row[j + 3 + 2 * k]);
        fields.set(row[j], docs);
        j += 2 + 2 * n;
      }
      engine._index.set(row[0], fields);
    }
  }

  function shell(MiniSearch, sections, js) {
    var empty = {};
    Object.keys(js).forEach(function (k) { empty[k] = k === 'index' ? [] : js[k]; });
    return MiniSearch.loadJS(empty, options(sections));
  }

  // The engine search-index.js holds, at once (Node: tests/render/search_share.js).
  function loadNow(MiniSearch, sections, js) {
    if (!js.compact) return MiniSearch.loadJS(js, options(sections));
    var engine = shell(MiniSearch, sections, js);
    fill(engine, js.index, 0, js.index.length);
    return engine;
  }

  // The engine search-index.js holds, built at render time (book/render/search_prebuild.js), made
  // a slice of SLICE_MS at a time, with a yield to the page between slices (a MessageChannel
  // message, not clamped as a nested setTimeout is): a promise of the engine.
  var SLICE_MS = 8;
  function load(MiniSearch, sections, js) {
    if (!js.compact || typeof MessageChannel === 'undefined') {
      return js.compact ? Promise.resolve(loadNow(MiniSearch, sections, js))
        : MiniSearch.loadJSAsync(js, options(sections));
    }
    return new Promise(function (resolve) {
      var engine = shell(MiniSearch, sections, js), next = 0, rows = js.index, channel = new MessageChannel();
      channel.port1.onmessage = function slice() {
        var end = performance.now() + SLICE_MS;
        while (next < rows.length && performance.now() < end) {
          var to = Math.min(rows.length, next + 64);
          fill(engine, rows, next, to);
          next = to;
        }
        if (next < rows.length) channel.port2.postMessage(0);
        else { channel.port1.onmessage = null; resolve(engine); }
      };
      channel.port2.postMessage(0);
    });
  }

  function codeWords(s, apparatus) {
    return (s.k || []).filter(function (b) { return !!b[2] === apparatus; })
      .map(function (b) { return b[1]; }).join(' ');
  }

  // Each section's d (the terms its prose sets in italics, one a line) without those an earlier
  // section of the book set so, word for word as stems: a term is defined where it first appears in
  // italics (swizzling in 2.2), a later chapter's italics (4.3's swizzled) only remind. Kept on the
  // sections' array, made once.
  function firstDefinitions(sections) {
    if (sections.firstDefinitions) return sections.firstDefinitions;
    var seen = {};
    var out = sections.map(function (s) {
      return (s.d || '').split('\n').filter(function (term) {
        var key = stems(term).join(' ');
        if (!key || seen[key]) return false;
        seen[key] = true;
        return true;
      }).join('\n');
    });
    Object.defineProperty(sections, 'firstDefinitions', { value: out });
    return out;
  }

  function documents(sections) {
    var defined = firstDefinitions(sections);
    return sections.map(function (s, i) {
      return { id: i, h: s.h, d: defined[i], f: s.f || '', t: s.t || '', x: s.x || '', c: codeWords(s, false),
               a: codeWords(s, true), l: s.c, r: s.r || '', i: s.i || '', j: s.j || '', q: s.q || '' };
    });
  }

  // The query's parts: each word typed (a stop word is not), or up to LONGEST_TERM words that together
  // make a term of the vocabulary ("shared memory", "tail effect"); each part is asked as itself or any of its
  // synonyms (OR; a synonym of several words asks for all of them), a synonym at SYNONYM_WEIGHT.
  // `stems`: the terms that count as the part found; `ways`: each way's terms.
  var SYNONYM_WEIGHT = 0.5;
  function queryParts(query) {
    var words = tokenize(query).filter(function (w) { return !STOP[w]; });
    var parts = [];
    for (var i = 0; i < words.length;) {
      // the longest term of the vocabulary starting here, else the word alone
      var n = Math.min(LONGEST_TERM, words.length - i);
      while (n > 1 && !SYNONYM[words.slice(i, i + n).map(stem).join(' ')]) n--;
      var typed = words.slice(i, i + n), key = typed.map(stem).join(' ');
      i += n;
      var stems = {}, ways = [];
      var alternatives = [typed.join(' ')].concat(SYNONYM[key] || []).map(function (alt, k) {
        var ws = tokenize(alt).filter(function (w) { return !STOP[w]; });   // per block: block
        if (!ws.length) return null;
        ws.forEach(function (w) { var t = queryTerm(w); if (t) stems[t] = true; });
        ways.push(ws.map(queryTerm));
        var q = { combineWith: 'AND', queries: ws };
        if (k > 0) q.boostTerm = function () { return SYNONYM_WEIGHT; };
        return q;
      }).filter(Boolean);
      parts.push({ tree: { combineWith: 'OR', queries: alternatives }, stems: stems, ways: ways });
    }
    return parts;
  }

  // The query as MiniSearch asks it: any part (OR); search() ranks by how many parts a section holds.
  function queryTree(query) {
    var parts = queryParts(query);
    if (!parts.length) return null;
    return { combineWith: 'OR', queries: parts.map(function (p) { return p.tree; }) };
  }

  // Whether an index term (as MiniSearch reports it matched) is one of a text's terms.
  function holds(text, term) {
    return tokenize(text).some(function (w) {
      return terms(w).some(function (t) { return t === term; });
    });
  }

  // A section's prose as a reader reads it: each inline formula (\x01 in the index's text, which no
  // word holds) as its display form, the next of the section's m (book/render/search_index.py).
  function shown(text, formulas) {
    var i = 0;
    return text.replace(/\x01/g, function () { return (formulas || [])[i++] || '…'; });
  }

  // A hit as its row shows it: the section (p, s: its anchor; c: the chapter; h: its heading),
  // where the row leads (a: the section's anchor, or the first code block holding a word where
  // only code matched and the index lists the blocks), what kind of text matched (k: h a heading,
  // p prose, c code, a apparatus) and the text to cut an excerpt from (t).
  function row(section, hit) {
    var fields = {};
    Object.keys(hit.match).forEach(function (term) {
      hit.match[term].forEach(function (f) { fields[f] = true; });
    });
    var r = { p: section.p, s: section.a, a: section.a, c: section.c, h: section.h, k: 'h', t: '' };
    var text = shown((section.f || '') + (section.t ? '\n' + section.t : ''), section.m);
    if (fields.f || fields.t || fields.x) {
      r.k = 'p';
      r.t = text;
    } else if (!fields.h && !fields.l && (fields.c || fields.a)) {
      // code alone: its names matched (the page marks the first and opens its fold on arrival); where
      // the index ships the blocks (an engine built in the browser), the first block holding one
      r.k = fields.c ? 'c' : 'a';
      r.t = hit.terms.join(' ');
      var block = (section.k || []).filter(function (b) {
        return hit.terms.some(function (term) { return holds(b[1], term); });
      })[0];
      if (block) {
        r.a = block[0];
        r.k = block[2] ? 'a' : 'c';
        r.t = block[1];
      }
    }
    return r;
  }

  // A word the index holds as typed is asked as typed; only a word it does not hold is completed
  // (a prefix: `cudaGraph` finds cudaGraphLaunch) or corrected (one typo: occupncy). Completed, a
  // whole word would also match every longer name that starts with it (warp: warpid, warp_count,
  // warpStamp...), and the apparatus holds hundreds. (MiniSearch has no public test for a term;
  // _index is its term tree, a SearchableMap, in 7.x.)
  function expansions(engine) {
    function held(term) { return engine._index && engine._index.has(term); }
    return {
      prefix: function (term) { return term.length >= 3 && !held(term); },
      fuzzy: function (term) { return term.length >= 5 && !held(term) ? 1 : 0; }
    };
  }

  // Hits, one row per section, best first: a section's score (for each part, MiniSearch's sum over
  // the fields holding it, saturated and weighted by the part's rarity: sat below; without
  // MiniSearch's factor of how many terms matched, which counts a word's synonyms as more words)
  // times the share of the query's parts it holds, so that a section holding every word typed
  // ranks first unless one holding fewer holds them far more strongly.
  // Ranking's constants (TUNE, so tests/render/search_share.js may try others): the exponent of the
  // share of the query's weight a section holds, whether a part's weight is its rarity, the bonus
  // for the typed words side by side (a phrase) in the heading and in the prose, how many of the
  // best rows are looked at for phrases (each costs its prose's stems, once), the heading's and the
  // first definitions' weight (head, defined), and a page's weight (PAGE_BOOST).
  // sat: a part's score (MiniSearch's BM25 summed over the fields holding it) saturates as BM25F
  // saturates a term's frequency once across its fields, s / (s + sat m), m its mean over the
  // sections holding it (so that the scale is the book's, whatever its size), then weighs its rarity:
  // a word in the heading, the first paragraph, the prose and the chapter's title is not four words,
  // and one word found everywhere no longer outweighs the rest of the query missing.
  // explain: each row also says how its score was made (search_share.js --why).
  var TUNE = { shareExp: 1, sat: 3, idf: true, phraseHead: 1, phraseText: 0.5, rerank: 10, head: 4, defined: 1, later: 0.5,
               asked: 1, explain: false };
  // the GPUs page (tables under the chapters' own titles) and appendix B (a row a symbol, each
  // pointing to the chapter that uses it) rank below the chapters' own sections
  var PAGE_BOOST = { 'gpus.html': 0.3, 'B-symbols.html': 0.5 };
  // Sections that use a chapter's words without teaching them, at SECTION_BOOST where the query's
  // words are not in their heading (a reader typing "tests" asks for them): a chapter's exercises
  // and answers, which restate its terms to ask about them, and the sections of its apparatus (the
  // book's skeleton, book/CONVENTIONS.md: tests, benchmarks, launchers, the CPU references).
  var SECTION_BOOST = { exercises: 0.5, answers: 0.5, apparatus: 0.5 };
  var APPARATUS = /^(the )?(gpu |cpu )?(tests?|testing|benchmarks?|measuring|launchers|references?)\b/;
  function sectionBoost(s, asked) {
    if (asked) return 1;
    var h = normal(s.h || '');
    return SECTION_BOOST[h] || (APPARATUS.test(h) ? SECTION_BOOST.apparatus : 1);
  }

  // The query's words (stop words out) as stems, in order; a text's words likewise.
  function stems(text) {
    return tokenize(text).filter(function (w) { return !STOP[w]; }).map(stem);
  }

  // Whether a text's stem is a query's stem, or starts with one of four letters or more.
  function same(a, q) { return a === q || (q.length >= 4 && a.indexOf(q) === 0); }

  // The share of the query's neighbouring word pairs that stand side by side in a text (stop words
  // between them skipped): "online softmax", "misaligned access" as written, not apart.
  function phrase(words, ws) {
    if (words.length < 2 || !ws.length) return 0;
    var found = 0;
    for (var j = 0; j + 1 < words.length; j++) {
      for (var i = 0; i + 1 < ws.length; i++) {
        if (same(ws[i], words[j]) && same(ws[i + 1], words[j + 1])) { found++; break; }
      }
    }
    return found / (words.length - 1);
  }

  // The sections' headings and first definitions as stems, made once (on the first query); their
  // prose's, made for a section when a query first needs it.
  function stemsOf(sections) {
    if (!sections.stems) {
      var defined = firstDefinitions(sections);
      Object.defineProperty(sections, 'stems', { value: {
        head: sections.map(function (s) { return stems(s.h || ''); }),
        defined: defined.map(stems),
        // the names of the index's entries a section is the first place of (i) and a later place
        // of (j), each as its stems (one name covers a query), made for a section when a query
        // first hits it (names()): all of them at once froze the page's first search for 70 ms
        indexed: {},
        later: {},
        asked: {},       // the readers' questions (q), likewise
        prose: {}
      } });
    }
    return sections.stems;
  }

  // The query with each word of letters the index does not hold, where two neighbouring letters
  // swapped make one it holds, so written (occupnacy: occupancy; conflcits: conflicts): the commonest
  // typo, two edits for the engine's fuzzy match, which allows one.
  // A word cut short as it is typed ("reductio"), which no term of the index starts with since the
  // index holds its stem (reduct), is completed by the rest of a suffix it ends with the start of
  // (reduction), where that makes a word the index holds.
  function corrected(engine, query) {
    var held = function (w) { var t = queryTerm(w); return !t || (engine._index && engine._index.has(t)); };
    var begun = function (w) { return engine._index && engine._index.atPrefix(queryTerm(w)).size > 0; };
    return tokenize(query).map(function (w) {
      if (w.length < 4 || STOP[w] || !/^[a-z]+$/.test(w) || held(w)) return w;
      if (!begun(w)) {
        for (var j = 0; j < SUFFIXES.length; j++) {
          for (var k = SUFFIXES[j].length - 1; k > 0; k--) {
            var whole = w + SUFFIXES[j].slice(k);
            if (w.slice(-k) === SUFFIXES[j].slice(0, k) && held(whole)) return whole;
          }
        }
      }
      for (var i = 0; i + 1 < w.length; i++) {
        // a word whose stem is a word's, not a syllable's (shaered's stem sha is not sheared's)
        var swapped = w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2);
        if (swapped !== w && queryTerm(swapped).length >= 4 && held(swapped)) return swapped;
      }
      return oneEdit(engine, w) || w;
    }).join(' ');
  }

  // oneEdit(engine, word): a word of 5 letters or more that neither the index nor the vocabulary
  // holds, read as the word one letter away (one left out: divergnce, hoper; one too many; one
  // mistyped, from 7 letters: occupency) that the index holds, the one in most sections where several are; null
  // where none is. A vocabulary word is left as typed: the synonyms ask it.
  var LETTERS = 'abcdefghijklmnopqrstuvwxyz';
  function oneEdit(engine, w) {
    if (w.length < 5 || VOCABULARY_STEMS[stem(w)] || !engine._index) return null;
    var best = null, most = 0;
    var consider = function (candidate) {
      var t = queryTerm(candidate);
      if (!t || t.length < 4) return;
      var fields = engine._index.get(t);
      if (!fields) return;
      var n = 0;
      fields.forEach(function (docs) { n += docs.size; });
      if (n > most) { most = n; best = candidate; }
    };
    for (var i = 0; i <= w.length; i++) {
      if (i < w.length) consider(w.slice(0, i) + w.slice(i + 1));            // one too many
      for (var k = 0; k < LETTERS.length; k++) {
        consider(w.slice(0, i) + LETTERS[k] + w.slice(i));                   // one left out
        // one mistyped, in a word of 7 letters or more: a shorter word one letter from a word of the
        // book is as often a real word the book does not use (macro, micro)
        if (i < w.length && w.length >= 7 && LETTERS[k] !== w[i]) consider(w.slice(0, i) + LETTERS[k] + w.slice(i + 1));
      }
    }
    return best;
  }

  function search(engine, sections, query, limit) {
    query = corrected(engine, query);
    var parts = queryParts(query);
    if (!parts.length) return [];
    // each way a part may be written asked alone: a section's score for a part is its best way's (a
    // section holding "occupancy" and "resident warps" counts the part once), its score the sum
    var ask = expansions(engine), found = {};
    parts.forEach(function (p, i) {
      p.tree.queries.forEach(function (alt, k) {
        engine.search(alt, ask).forEach(function (hit) {
          if (!k) p.held = true;    // some section holds the words as typed
          var d = found[hit.id];
          if (!d) {
            d = found[hit.id] = { id: hit.id, parts: parts.map(function () { return 0; }), terms: [], match: {} };
          }
          // the words' mean score (a way of several words, "shared memory", counts as one word)
          d.parts[i] = Math.max(d.parts[i], hit.score / Math.max(1, hit.queryTerms.length) /
                                            Math.max(1, alt.queries.length));
          hit.terms.forEach(function (t) { if (d.terms.indexOf(t) < 0) d.terms.push(t); });
          Object.keys(hit.match).forEach(function (t) {
            d.match[t] = (d.match[t] || []).concat(hit.match[t].filter(function (f) {
              return (d.match[t] || []).indexOf(f) < 0;
            }));
          });
        });
      });
    });
    var hits = Object.keys(found).map(function (id) { return found[id]; });
    // a part's weight is its rarity, ln(1 + N / the sections holding it): a section missing a
    // common word typed ("access") loses less than one missing a rare one
    var weights = parts.map(function (p, i) {
      var n = hits.filter(function (h) { return h.parts[i] > 0; }).length;
      if (!n) return 0;        // a word no section holds tells no section from another
      return TUNE.idf ? Math.log(1 + sections.length / n) : 1;
    });
    var total = weights.reduce(function (a, b) { return a + b; }, 0) || 1;
    // a part's mean score over the sections holding it: its saturation's scale (sat below)
    var mean = parts.map(function (p, i) {
      var held = hits.filter(function (h) { return h.parts[i] > 0; });
      return held.reduce(function (m, h) { return m + h.parts[i]; }, 0) / Math.max(1, held.length) || 1;
    });
    // the share of the query's weight a text holds (its heading, its defined terms)
    function covers(ws) {
      if (!ws.length) return 0;
      var has = function (q) { return ws.some(function (x) { return same(x, q); }); };
      // a part is there where all words of a way are: as typed, its weight; as the book's other
      // words for it (the vocabulary), SYNONYM_WEIGHT of it where the book also holds the words typed
      return weights.reduce(function (a, w, i) {
        var found = 0;
        parts[i].ways.forEach(function (way, k) {
          if (way.length && way.every(has)) found = Math.max(found, k && parts[i].held ? SYNONYM_WEIGHT : 1);
        });
        return a + w * found;
      }, 0) / total;
    }
    // how well an index name fits the query: the share of the query it holds (covers), times the
    // square root of the share of its words the query holds: "Little's law" fits the query
    // "Little's law" better than "Little's law, for a pipeline of stages" does
    var asked = [];
    parts.forEach(function (p) { Object.keys(p.stems).forEach(function (t) { asked.push(t); }); });
    function fits(ws) {
      if (!ws.length) return 0;
      var held = ws.filter(function (w) { return asked.some(function (q) { return same(w, q); }); }).length;
      return covers(ws) * Math.sqrt(held / ws.length);
    }
    function best(names) { return names.reduce(function (m, ws) { return Math.max(m, fits(ws)); }, 0); }
    var known = stemsOf(sections);
    // whether a query's word matched the section's field (its index names are stemmed only then)
    function matched(hit, field) {
      return Object.keys(hit.match).some(function (t) { return hit.match[t].indexOf(field) >= 0; });
    }
    // a section's index names (field i or j) or readers' questions (q) as stems, made once
    var FIELD_OF = { indexed: 'i', later: 'j', asked: 'q' };
    function names(kind, id) {
      var made = known[kind][id];
      if (!made) {
        made = known[kind][id] = (sections[id][FIELD_OF[kind]] || '').split('\n').filter(Boolean).map(stems);
      }
      return made;
    }
    var rows = hits.map(function (hit) {
      var s = sections[hit.id];
      var head = covers(known.head[hit.id]);
      // the index: how well the best of the section's index names fits the query (fits), a name of
      // which it is a later place at TUNE.later of that
      var indexed = Math.max(matched(hit, 'i') ? best(names('indexed', hit.id)) : 0,
                             matched(hit, 'j') ? TUNE.later * best(names('later', hit.id)) : 0);
      // a reader's question it answers, as well as it fits the query, at TUNE.asked of a heading
      var question = matched(hit, 'q') ? TUNE.asked * best(names('asked', hit.id)) : 0;
      var about = 1 + TUNE.head * Math.max(head, indexed, question) + TUNE.defined * covers(known.defined[hit.id]);
      var share = weights.reduce(function (a, w, i) { return a + (hit.parts[i] > 0 ? w : 0); }, 0) / total;
      var sum = hit.parts.reduce(function (a, b, i) {
        return a + (TUNE.sat ? weights[i] * b / (b + TUNE.sat * mean[i]) : b);
      }, 0);
      var r = { hit: hit, score: sum * Math.pow(share, TUNE.shareExp) * (PAGE_BOOST[s.p] || 1) * sectionBoost(s, head > 0 || indexed > 0) * about };
      if (TUNE.explain) {
        var round = function (x) { return +x.toFixed(2); };
        r.explain = { parts: hit.parts.map(round), weights: weights.map(round), share: round(share),
                      about: round(about), section: sectionBoost(s, head > 0 || indexed > 0), indexed: round(indexed) };
      }
      return r;
    });
    rows.sort(function (a, b) { return b.score - a.score; });
    // the best rows again, with the phrase's bonus
    var words = stems(query);
    if (words.length > 1) {
      rows.slice(0, TUNE.rerank).forEach(function (r) {
        var s = sections[r.hit.id], prose = known.prose[r.hit.id];
        if (!prose) prose = known.prose[r.hit.id] = stems((s.d || '') + '\n' + (s.f || '') + '\n' + (s.t || ''));
        var named = (matched(r.hit, 'i') ? names('indexed', r.hit.id) : [])
          .concat(matched(r.hit, 'j') ? names('later', r.hit.id) : []).reduce(function (m, ws) {
          return Math.max(m, phrase(words, ws));
        }, phrase(words, known.head[r.hit.id]));
        r.score *= 1 + TUNE.phraseHead * named + TUNE.phraseText * phrase(words, prose);
      });
      rows.sort(function (a, b) { return b.score - a.score; });
    }
    return rows.slice(0, limit || 30).map(function (r) {
      return { entry: row(sections[r.hit.id], r.hit), terms: r.hit.terms, score: r.score, match: r.hit.match, explain: r.explain };
    });
  }

  var api = { normal: normal, tokenize: tokenize, terms: terms, stem: stem, GREEK: GREEK, STOP: STOP,
              vocabulary: vocabulary, synonyms: function (term) { return SYNONYM[stems(term).join(' ')] || []; }, options: options, build: build, load: load, documents: documents, queryTree: queryTree, queryParts: queryParts,
              search: search, corrected: corrected, expansions: expansions, compact: compact, loadNow: loadNow, TUNE: TUNE, PAGE_BOOST: PAGE_BOOST, SECTION_BOOST: SECTION_BOOST, FIELD_BOOST: FIELD_BOOST };
  if (typeof module === 'object' && module.exports) module.exports = api;
  else root.BookSearch = api;
})(typeof window !== 'undefined' ? window : this);
