// The book's search as book/book.js runs it in the page, loaded from a rendered book:
// BOOK_DIR/search-core.js over BOOK_DIR/search-index.js, with BOOK_DIR/minisearch.js.
//   const { BookSearch, sections, engine } = require('./load_search')(BOOK_DIR, { explain });
// search_share.js measures it; experiments/search-rankers compares other rankers with it.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

module.exports = function loadSearch(book, { explain = false } = {}) {
  const context = { window: {}, self: {}, console };
  context.globalThis = context;
  vm.createContext(context);
  for (const file of ['minisearch.js', 'search-core.js', 'search-index.js']) {
    vm.runInContext(fs.readFileSync(path.join(book, file), 'utf8'), context, { filename: file });
  }
  const MiniSearch = context.MiniSearch || context.window.MiniSearch || context.self.MiniSearch;
  const BookSearch = context.window.BookSearch || context.BookSearch;
  // the engine as book.js gets it: the one built at render time where the index holds it
  const index = context.window.BOOK_SEARCH_INDEX;
  const sections = index.sections;
  if (BookSearch.vocabulary) BookSearch.vocabulary(index.vocabulary);   // book/search-vocabulary.txt
  if (explain) BookSearch.TUNE.explain = true;
  let engine;
  if (index.engine) {
    engine = BookSearch.loadNow ? BookSearch.loadNow(MiniSearch, sections, index.engine)   // compact rows or not
      : MiniSearch.loadJS(index.engine, BookSearch.options(sections));                  // a book made before them
  } else {
    engine = BookSearch.build(MiniSearch, sections);
    engine.addAll(BookSearch.documents(sections));
  }
  return { BookSearch, sections, engine };
};
