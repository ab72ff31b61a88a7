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

// stems: tiled, tiling and tile meet
assert.strictEqual(S.stem('tiled'), S.stem('tiling'));
assert.strictEqual(S.stem('tile'), S.stem('tiles'));

const sections = [
  { p: '1.1.html', a: 'div', c: '1.1 Warps', h: 'A divergent branch, priced',
    f: 'The model charges one instruction more per divergent warp.',
    t: 'A second paragraph of the same section about a divergent warp.' },
  { p: '2.2.html', a: '', c: '2.2 Banks', h: '2.2 Banks', f: 'On chip, memory is cut into banks.',
    k: [['code-x', 'include bank_model bank_conflict_test warp', 1]] },
  { p: '2.2.html', a: 'banks', c: '2.2 Banks', h: 'The banks', f: 'A bank conflict serializes the warp\'s accesses to one bank.' },
  { p: '2.2.html', a: 'tests', c: '2.2 Banks', h: 'Tests', f: 'The tests of every rung.',
    k: [['code-t', 'bank_conflict_counted TransposeConflicts', 1]] },
  { p: '4.4.html', a: 'hist', c: '4.4 Capstone', h: 'A histogram per block',
    f: 'Each block keeps a private histogram in shared memory.' },
  { p: 'A.html', a: 'ceil', c: 'A Bench', h: 'Ceilings', f: 'The DRAM bandwidth measured by the copy kernel.',
    k: [['code-c', 'copy_kernel cudaGraphLaunch']] },
];
const engine = S.build(MiniSearch, sections);
engine.addAll(S.documents(sections));
const rows = (q) => S.search(engine, sections, q, 10);
const first = (q) => { const r = rows(q); return r.length ? r[0].entry.a : null; };

assert.strictEqual(first('warp divergence'), 'div', 'a stem finds divergent for divergence');
assert.strictEqual(first('bank conflict'), 'banks', 'prose ranks above the apparatus');
assert.strictEqual(first('privatization'), 'hist', 'privatization finds a private histogram');
assert.strictEqual(first('HBM bandwidth'), 'ceil', 'HBM is DRAM');
assert.strictEqual(first('smem'), 'hist', 'smem is shared memory');
assert.strictEqual(first('what is the warp'), first('warp'), 'stop words are not asked');
assert.strictEqual(first('divergent priced branch'), 'div', 'the heading and the first paragraph together');
assert.strictEqual(first('cudaGraph'), 'code-c', 'a name found only in code leads to its code block');
assert.strictEqual(rows('cudaGraph')[0].entry.s, 'ceil', 'in its section');
assert.strictEqual(rows('divergent').filter((r) => r.entry.p === '1.1.html').length, 1, 'one row per section');
assert.strictEqual(first('bank conflicts tests'), 'tests', 'all the words typed rank above some of them');
console.log('test_search_core: all passed');
