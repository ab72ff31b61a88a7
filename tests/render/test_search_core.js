#!/usr/bin/env node
// Unit tests of book/search-core.js (the book's search terms, queries and rows), under Node with
// the vendored MiniSearch: node tests/render/test_search_core.js MINISEARCH_JS
'use strict';
const assert = require('assert');
const path = require('path');
const vm = require('vm');
const fs = require('fs');

const context = { window: {}, self: {}, console };
context.globalThis = context;
vm.createContext(context);
vm.runInContext(fs.readFileSync(process.argv[2], 'utf8'), context);
vm.runInContext(fs.readFileSync(path.join(__dirname, '..', '..', 'book', 'search-core.js'), 'utf8'), context);
const MiniSearch = context.MiniSearch || context.window.MiniSearch || context.self.MiniSearch;
const S = context.window.BookSearch;

// stems: the forms of a word meet; names stay whole
assert.strictEqual(S.stem('divergence'), S.stem('divergent'));
assert.strictEqual(S.stem('privatization'), S.stem('private'));
assert.strictEqual(S.stem('float4'), 'float4');
assert.strictEqual(S.stem('__syncthreads'), '__syncthreads');

const entries = [
  { k: 'h', p: '1.1.html', a: 'div', h: 'A divergent branch, priced', t: 'A divergent branch, priced', c: '1.1 Warps' },
  { k: 'p', p: '1.1.html', a: 'div', h: 'A divergent branch, priced', t: 'The model charges one instruction more per divergent warp.', c: '1.1 Warps' },
  { k: 'p', p: '1.1.html', a: 'div', h: 'A divergent branch, priced', t: 'A second paragraph of the same section about a divergent warp.', c: '1.1 Warps' },
  { k: 'a', p: '2.2.html', a: 'code-x', h: 'Tests', t: '#include "bank_model.h" // bank conflict test of the warp', c: '2.2 Banks' },
  { k: 'p', p: '2.2.html', a: 'banks', h: 'The banks', t: 'A bank conflict serializes the warp\'s accesses to one bank.', c: '2.2 Banks' },
  { k: 'p', p: '4.4.html', a: 'hist', h: 'A histogram per block', t: 'Each block keeps a private histogram in shared memory.', c: '4.4 Capstone' },
  { k: 'p', p: 'A.html', a: 'ceil', h: 'Ceilings', t: 'The DRAM bandwidth measured by the copy kernel.', c: 'A Bench' },
];
const engine = S.build(MiniSearch, entries);
engine.addAll(S.documents(entries));
const first = (q) => { const r = S.search(engine, entries, q, 10); return r.length ? r[0].entry.a : null; };

assert.strictEqual(first('warp divergence'), 'div', 'a stem finds divergent for divergence');
assert.strictEqual(first('bank conflict'), 'banks', 'prose ranks above the apparatus');
assert.strictEqual(first('privatization'), 'hist', 'privatization finds a private histogram');
assert.strictEqual(first('HBM bandwidth'), 'ceil', 'HBM is DRAM');
assert.strictEqual(first('smem'), 'hist', 'smem is shared memory');
assert.strictEqual(first('what is the warp'), first('warp'), 'stop words are not asked');
const rows = S.search(engine, entries, 'divergent', 10);
assert.strictEqual(rows.filter((r) => r.entry.p === '1.1.html').length, 1, 'one row per section');
console.log('test_search_core: all passed');
