#!/usr/bin/env node
// The search engine built at render time, so a reader's browser only loads it:
//   node search_prebuild.js BOOK_DIR < sections.json > engine.json
// Builds MiniSearch over the sections (book/render/search_index.py's documents) with the book's own
// search-core.js and minisearch.js, as BOOK_DIR holds them (the code the pages run), and prints
// the engine serialized (MiniSearch's toJSON, its index as flat rows of numbers: BookSearch.compact),
// which book.js loads with BookSearch.load: no word is tokenized or stemmed in the browser (3.1 s
// to ready at 4x CPU, built there).
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const book = process.argv[2];
const context = { window: {}, self: {}, console };
context.globalThis = context;
vm.createContext(context);
for (const file of ['minisearch.js', 'search-core.js']) {
  vm.runInContext(fs.readFileSync(path.join(book, file), 'utf8'), context, { filename: file });
}
const MiniSearch = context.MiniSearch || context.window.MiniSearch || context.self.MiniSearch;
const BookSearch = context.window.BookSearch || context.BookSearch;
const sections = JSON.parse(fs.readFileSync(0, 'utf8'));
const engine = BookSearch.build(MiniSearch, sections);
engine.addAll(BookSearch.documents(sections));
process.stdout.write(JSON.stringify(BookSearch.compact(engine.toJSON())));
