#!/usr/bin/env node
// The share of learner queries whose first search result is the section they should find:
//   node tests/render/search_share.js BOOK_DIR [QUERIES_TSV] [--json]
// Runs the book's own search (BOOK_DIR/search-core.js over BOOK_DIR/search-index.js, with
// BOOK_DIR/minisearch.js) as book/book.js runs it in the page, on each query of QUERIES_TSV
// (default: tests/render/search-queries.tsv), and prints each query's first section, a miss's
// expected one, and the share found first. check-rendered runs it on the whole book.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const args = process.argv.slice(2).filter((a) => a !== '--json');
const json = process.argv.includes('--json');
const book = args[0];
const queriesFile = args[1] || path.join(__dirname, 'search-queries.tsv');
if (!book) {
  console.error('usage: search_share.js BOOK_DIR [QUERIES_TSV] [--json]');
  process.exit(2);
}

const context = { window: {}, self: {}, console };
context.globalThis = context;
vm.createContext(context);
for (const file of ['minisearch.js', 'search-core.js', 'search-index.js']) {
  vm.runInContext(fs.readFileSync(path.join(book, file), 'utf8'), context, { filename: file });
}
const MiniSearch = context.MiniSearch || context.window.MiniSearch || context.self.MiniSearch;
const BookSearch = context.window.BookSearch || context.BookSearch;
const entries = context.window.BOOK_SEARCH_INDEX.entries;
const engine = BookSearch.build(MiniSearch, entries);
engine.addAll(BookSearch.documents(entries));

function sectionAnchor(entry) {
  // the section a hit belongs to: the id of the heading above it (its page's heading list)
  return entry.p + '#' + (entry.s || entry.a);
}

// a page's headings, in order, to find the section (heading id) of a hit whose anchor is a code block's
const headings = {};
entries.forEach((e) => { if (e.k === 'h' || e.k === 's') (headings[e.p] = headings[e.p] || {})[e.h] = e.a; });

const results = [];
for (const line of fs.readFileSync(queriesFile, 'utf8').split('\n')) {
  if (!line.trim() || line.startsWith('#')) continue;
  const [query, expected] = line.split('\t');
  const wanted = expected.split('|').map((s) => s.trim());
  const rows = BookSearch.search(engine, entries, query, 10);
  const first = rows.length ? rows[0].entry : null;
  const got = first ? first.p + '#' + ((headings[first.p] || {})[first.h] || first.a) : '(nothing)';
  const rank = rows.findIndex((r) => wanted.includes(r.entry.p + '#' + ((headings[r.entry.p] || {})[r.entry.h] || r.entry.a)));
  results.push({ query, wanted, got, first: wanted.includes(got), rank: rank < 0 ? null : rank + 1 });
}
const found = results.filter((r) => r.first).length;
if (json) {
  console.log(JSON.stringify({ found, total: results.length, results }));
} else {
  for (const r of results) {
    console.log('%s %s -> %s%s', r.first ? 'ok  ' : 'MISS', JSON.stringify(r.query), r.got,
                r.first ? '' : '  (wanted ' + r.wanted.join(' or ') + (r.rank ? ', at ' + r.rank : ', not in the top 10') + ')');
  }
  console.log('search_share: %d of %d learner queries find their section first (%s%%)', found, results.length,
              (100 * found / results.length).toFixed(0));
}
