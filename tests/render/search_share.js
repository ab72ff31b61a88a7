#!/usr/bin/env node
// The share of learner queries whose first search result is the section they should find:
//   node tests/render/search_share.js BOOK_DIR [QUERIES_TSV] [--json] [--why]
// Runs the book's own search (BOOK_DIR/search-core.js over BOOK_DIR/search-index.js, with
// BOOK_DIR/minisearch.js) as book/book.js runs it in the page, on each query of QUERIES_TSV
// (default: tests/render/search-queries.tsv), and prints each query's first section, a miss's
// expected one, and the share found first: in all, by the query's class and by its group. check-rendered runs it on the whole book.
// --why: under each miss, how the first row's score and the wanted one's were made (BookSearch.TUNE.explain)
// and the fields each matched word was found in (h heading, d defined, f first paragraph, t prose, c code...).
'use strict';
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2).filter((a) => a !== '--json' && a !== '--why');
const json = process.argv.includes('--json');
const why = process.argv.includes('--why');
const book = args[0];
const queriesFile = args[1] || path.join(__dirname, 'search-queries.tsv');
if (!book) {
  console.error('usage: search_share.js BOOK_DIR [QUERIES_TSV] [--json]');
  process.exit(2);
}

const { BookSearch, sections, engine } = require('./load_search')(book, { explain: why });

// a row's section: its page and its heading's anchor ('' for the chapter's opening)
const sectionOf = (row) => row.entry.p + '#' + row.entry.s;

const results = [];
let group = '';
for (const line of fs.readFileSync(queriesFile, 'utf8').split('\n')) {
  if (line.startsWith('#= ')) group = line.slice(3).trim();
  if (!line.trim() || line.startsWith('#')) continue;
  const [query, expected, kind] = line.split('\t');
  const wanted = expected.split('|').map((s) => s.trim());
  const rows = BookSearch.search(engine, sections, query, 10);
  const explained = (r) => r && ('    ' + r.entry.h + ': ' + r.score.toFixed(2) + ' ' + JSON.stringify(r.explain) + ' ' +
                                 JSON.stringify(Object.fromEntries(Object.keys(r.match).map((t) => [t, r.match[t].join('')]))));
  const got = rows.length ? sectionOf(rows[0]) : '(nothing)';
  const rank = rows.findIndex((r) => wanted.includes(sectionOf(r)));
  results.push({ query, wanted, got, first: wanted.includes(got), rank: rank < 0 ? null : rank + 1,
                 kind: (kind || '').trim() || 'other', group,
                 why: why && !wanted.includes(got) ? [explained(rows[0]), explained(rows[rank])].filter(Boolean) : [] });
}
const found = results.filter((r) => r.first).length;
// found first / queries, by a key of each result (its class, its group)
function shares(key) {
  const out = {};
  for (const r of results) {
    const k = key(r) || '(none)';
    out[k] = out[k] || { found: 0, total: 0 };
    out[k].total++;
    if (r.first) out[k].found++;
  }
  return out;
}
const byKind = shares((r) => r.kind), byGroup = shares((r) => r.group);
if (json) {
  console.log(JSON.stringify({ found, total: results.length, byKind, byGroup, results }));
} else {
  for (const r of results) {
    console.log('%s %s -> %s%s', r.first ? 'ok  ' : 'MISS', JSON.stringify(r.query), r.got,
                r.first ? '' : '  (wanted ' + r.wanted.join(' or ') + (r.rank ? ', at ' + r.rank : ', not in the top 10') + ')');
    r.why.forEach((line) => console.log(line));
  }
  const line = (m) => Object.keys(m).map((k) => k + ' ' + m[k].found + '/' + m[k].total).join(', ');
  console.log('by class: %s', line(byKind));
  console.log('by group: %s', line(byGroup));
  console.log('search_share: %d of %d learner queries find their section first (%s%%)', found, results.length,
              (100 * found / results.length).toFixed(0));
}
