#!/usr/bin/env node
// Is there a ranker, or a fusion of rankers, that finds more unseen learner queries' sections first
// than the book's search?   node compare.js BOOK_DIR [QUERIES_TSV] [--encoder]
// Rankers: the book's search (lexical), a classifier trained on the book's own text (classifier.js)
// (and the same, also trained on the tuned-to queries) and, with --encoder, a sentence encoder (encoder.js). Fusions: reciprocal-rank fusion of the
// book's search with each, at two weights. Reported: found first, on the groups the search was
// tuned to and on the blind groups (BLIND below: queries no one tuned to; see the query file's
// headers), each ranker alone and fused.
'use strict';
const path = require('path');
const { load, queries } = require('./book_search');
const { train } = require('./classifier');

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const book = args[0];
const file = args[1] || path.join(__dirname, '../../tests/render/search-queries.tsv');
const BLIND = new Set(['held-out-6', 'held-out-6-late', 'held-out-8a', 'held-out-8b']);

(async () => {
  const search = load(book);
  const Q = queries(file);
  const started = Date.now();
  const rankers = { lexical: (q) => search.search(q, 30) };
  const classify = train(search.BookSearch, search.sections);
  console.log('classifier trained in %d s', Math.round((Date.now() - started) / 1000));
  rankers.classifier = (q) => classify(q).slice(0, 30).map(search.key);
  // the same trained on the tuned-to queries too: does learning from learners' words carry over?
  const index = new Map(search.sections.map((s, i) => [search.key(i), i]));
  const learned = Q.filter((q) => !BLIND.has(q.group))
    .flatMap((q) => q.wanted.filter((k) => index.has(k)).map((k) => [q.query, index.get(k), 1]));
  const classifyLearned = train(search.BookSearch, search.sections, { extra: learned });
  rankers['classifier, tuned-to queries learned'] = (q) => classifyLearned(q).slice(0, 30).map(search.key);
  if (process.argv.includes('--encoder')) {
    const { ranker } = require('./encoder');
    const encode = await ranker(search.sections, Q.map((q) => q.query), path.join(__dirname, 'encoder-cache.json'));
    rankers.encoder = (q) => encode(q).slice(0, 30).map(search.key);
  }
  const lists = Q.map((q) => Object.fromEntries(Object.entries(rankers).map(([name, r]) => [name, r(q.query)])));
  // reciprocal-rank fusion: each list gives 1/(K + rank), the second list's times w
  const fuse = (a, b, w, K = 10) => {
    const score = new Map();
    a.forEach((k, i) => score.set(k, (score.get(k) || 0) + 1 / (K + i + 1)));
    b.forEach((k, i) => score.set(k, (score.get(k) || 0) + w / (K + i + 1)));
    return [...score.entries()].sort((x, y) => y[1] - x[1]).map(([k]) => k);
  };
  const methods = Object.keys(rankers).map((name) => [name, (l) => l[name]]);
  for (const other of Object.keys(rankers).filter((n) => n !== 'lexical')) {
    for (const w of [0.5, 1]) methods.push([`lexical + ${other} (rrf, w ${w})`, (l) => fuse(l.lexical, l[other], w)]);
  }
  const groups = [...new Set(Q.map((q) => q.group))].filter((g) => BLIND.has(g));
  const header = ['method', 'tuned-to', 'blind', ...groups, 'blind, first 3'];
  console.log(header.join(' | '));
  for (const [name, rank] of methods) {
    const count = (pick, depth = 1) => {
      const qs = Q.map((q, i) => [q, lists[i]]).filter(([q]) => pick(q));
      const found = qs.filter(([q, l]) => rank(l).slice(0, depth).some((k) => q.wanted.includes(k))).length;
      return `${found}/${qs.length}`;
    };
    console.log([name, count((q) => !BLIND.has(q.group)), count((q) => BLIND.has(q.group)),
                 ...groups.map((g) => count((q) => q.group === g)), count((q) => BLIND.has(q.group), 3)].join(' | '));
  }
  // do the others find what the search misses?
  const blindMisses = Q.map((q, i) => [q, lists[i]]).filter(([q, l]) => BLIND.has(q.group) && !q.wanted.includes(l.lexical[0]));
  for (const name of Object.keys(rankers).filter((n) => n !== 'lexical')) {
    const found = blindMisses.filter(([q, l]) => q.wanted.includes(l[name][0])).length;
    console.log('of the search\'s %d blind misses, %s finds %d first', blindMisses.length, name, found);
  }
  // an oracle that takes, query by query, whichever ranker's first is right: a bound on any fusion
  const oracle = Q.map((q, i) => [q, lists[i]]).filter(([q, l]) => BLIND.has(q.group) &&
    Object.values(l).some((list) => q.wanted.includes(list[0]))).length;
  console.log('an oracle choosing among all %d rankers finds %d of the %d blind queries first',
              Object.keys(rankers).length, oracle, Q.filter((q) => BLIND.has(q.group)).length);
})();
