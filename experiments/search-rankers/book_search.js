// The book's own search, loaded from a rendered book by tests/render/load_search.js, and
// the query file's lines with their groups: what the rankers of this experiment are compared on.
'use strict';
const fs = require('fs');

function load(book) {
  const { BookSearch, sections, engine } = require('../../tests/render/load_search')(book);
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
