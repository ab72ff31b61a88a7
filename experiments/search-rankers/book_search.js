// The book's own search, loaded from a rendered book as tests/render/search_share.js loads it, and
// the query file's lines with their groups: what the rankers of this experiment are compared on.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

function load(book) {
  const context = { window: {}, self: {}, console };
  context.globalThis = context;
  vm.createContext(context);
  for (const file of ['minisearch.js', 'search-core.js', 'search-index.js']) {
    vm.runInContext(fs.readFileSync(path.join(book, file), 'utf8'), context, { filename: file });
  }
  const MiniSearch = context.MiniSearch || context.window.MiniSearch || context.self.MiniSearch;
  const BookSearch = context.window.BookSearch || context.BookSearch;
  const index = context.window.BOOK_SEARCH_INDEX;
  BookSearch.vocabulary(index.vocabulary);
  const engine = BookSearch.loadNow(MiniSearch, index.sections, index.engine);
  const sections = index.sections;
  return {
    BookSearch, sections,
    key: (i) => sections[i].p + '#' + sections[i].a,
    // the sections best first, as page#anchor
    search: (query, n) => BookSearch.search(engine, sections, query, n).map((r) => r.entry.p + '#' + r.entry.s),
  };
}

// QUERY<TAB>PAGE#ANCHOR[ | ...]<TAB>CLASS lines under "#= GROUP" headers
function queries(file) {
  const out = [];
  let group = '';
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('#= ')) group = line.slice(3).trim();
    if (!line.trim() || line.startsWith('#')) continue;
    const [query, expected] = line.split('\t');
    out.push({ query, wanted: expected.split('|').map((s) => s.trim()), group });
  }
  return out;
}

module.exports = { load, queries };
