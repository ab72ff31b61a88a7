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
// the book's vocabulary, as search-index.js ships it (book/render/search_index.py: comments out)
const vocabularyFile = path.join(__dirname, '..', '..', 'book', 'search-vocabulary.txt');
S.vocabulary(fs.readFileSync(vocabularyFile, 'utf8').split('\n'));

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
// a book's search as the page runs it: the rows for a query (at most 10), and the first row's anchor
const searchOf = (book) => {
  const built = S.build(MiniSearch, book);
  built.addAll(S.documents(book));
  return (q) => S.search(built, book, q, 10);
};
const firstOf = (search) => (q) => { const r = search(q); return r.length ? r[0].entry.a : null; };
const rows = searchOf(sections);
const first = firstOf(rows);

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

// stems: a final s or a doubled l that is no inflection stays (stall is not stale, access is whole)
assert.notStrictEqual(S.stem('stall'), S.stem('stale'));
assert.strictEqual(S.stem('stalls'), S.stem('stall'));
assert.strictEqual(S.stem('access'), 'access');
assert.strictEqual(S.stem('accesses'), S.stem('access'));
// an inflection, then its base's suffix: buffering and buffer meet; general keeps its stem
assert.strictEqual(S.stem('buffering'), S.stem('buffer'));
assert.strictEqual(S.stem('stopped'), 'stop');

// Porter's step 1b (an inflection off -at, -bl, -iz gives back its e) and -ate, -ion after s or t
// where the measure is over 1: the forms of a word meet, short words and other endings stay
assert.strictEqual(S.stem('specialized'), S.stem('specialization'));
assert.strictEqual(S.stem('vectorized'), S.stem('vectorization'));
assert.strictEqual(S.stem('generated'), S.stem('generation'));
assert.strictEqual(S.stem('execution'), S.stem('executes'));
assert.strictEqual(S.stem('instructions'), S.stem('instruction'));
assert.strictEqual(S.stem('precision'), 'precis');
assert.strictEqual(S.stem('private'), S.stem('privatization'), 'priv- is too short to lose -ate');
assert.strictEqual(S.stem('region'), 'region', '-ion only after s or t');
assert.strictEqual(S.stem('version'), 'version', 'vers- is too short to lose -ion');

// A second book: the ranking's parts, each asserted on a case where it alone decides
const book2 = [
  { p: '1.1.html', a: '', c: '1.1 Waiting', h: '1.1 Waiting', f: 'What a warp waits for.',
    t: 'The profiler shows stall reasons beside each instruction, and stall reasons again.' },
  { p: '1.1.html', a: 'counters', c: '1.1 Waiting', h: 'The stall counters',
    f: 'Each counter tells one reason a warp did not issue.', t: 'An access to memory is one reason.' },
  { p: '2.1.html', a: 'swz', c: '2.1 Layouts', h: 'Layouts', f: 'A layout places each element in a bank; each access meets one.',
    d: 'swizzling', t: 'Swizzling permutes the columns so that no two rows meet in one bank.' },
  { p: '4.3.html', a: 'tiled', c: '4.3 Attention', h: 'The tiled kernel',
    f: 'The tiles are swizzled as before, and swizzled tiles load in one wavefront.', d: 'swizzled',
    t: 'Every access is a whole row.' },
  { p: '2.2.html', a: 'mis', c: '2.2 Coalescing', h: 'Misaligned by one float',
    f: 'One float off, every warp touches one more sector.' },
  { p: '2.2.html', a: 'model', c: '2.2 Coalescing', h: 'The model',
    f: 'Each access of a warp is counted in sectors; a misaligned start adds one; access, access.' },
  { p: 'B.html', a: 'sym', c: 'B Symbols', h: 'Reuse', f: 'Register reuse: r, the reuse of a value held in a register.' },
  { p: '2.3.html', a: 'regs', c: '2.3 Reuse', h: 'Reuse from registers',
    f: 'A value loaded once into a register serves many multiplies: register reuse.',
    t: 'Its access costs nothing more.' },
];
const search2 = searchOf(book2);
const first2 = firstOf(search2);
assert.strictEqual(first2('stall reasons'), 'counters', 'the heading holding the typed word ranks first');
assert.strictEqual(first2('swizzling'), 'swz', 'a term ranks first where the book first sets it in italics');
assert.deepStrictEqual(S.documents(book2).map((d) => d.d), ['', '', 'swizzling', '', '', '', '', ''],
                       'a later italic of the same stem (swizzled) is no definition');
assert.strictEqual(first2('misaligned access'), 'mis', 'a rare word in the heading outweighs a common one missing');
assert.strictEqual(first2('register reuse'), 'regs', 'appendix B ranks below a chapter saying the same');
// a part counts once however it is written: a synonym's words do not add to the typed word's
const parts = S.queryParts('histogram privatization');
assert.strictEqual(JSON.stringify(parts[1].ways.slice(-1)[0]), '["block"]', 'a synonym of stop words and words: per block -> block');
// -er comes off only where Porter's measure is over 1: a timer is no time, a counter no count
assert.notStrictEqual(S.stem('timer'), S.stem('time'));
assert.notStrictEqual(S.stem('counters'), S.stem('count'));
assert.strictEqual(S.stem('registers'), S.stem('register'));

// a word cut short as it is typed, whose stem the index holds shorter (reductio: reduct), is completed
const book7 = [{ p: '3.1.html', a: '', c: '3.1 Reduction', h: '3.1 A reduction in three levels', f: 'Sum an array.' },
               { p: '1.1.html', a: '', c: '1.1 Warps', h: '1.1 Warps', f: 'Execution of one warp.' }];
const search7 = searchOf(book7);
['reductio', 'reducti', 'redu'].forEach((q) => assert.strictEqual(search7(q).length, 1, q));
assert.strictEqual(search7('executio')[0].entry.p, '1.1.html');

// a typed word the index does not hold, two neighbouring letters swapped, is asked as the word it holds
assert.strictEqual(first2('swizzilng'), 'swz', 'a transposition is corrected');
assert.strictEqual(first2('misalgined access'), 'mis');
// one letter left out, one too many, or (from 7 letters) one mistyped: the word one letter away
assert.strictEqual(first2('swizling'), 'swz', 'a letter left out is put back');
assert.strictEqual(first2('misaligneed access'), 'mis', 'a letter too many is taken out');
assert.strictEqual(first2('misaligmed access'), 'mis', 'a mistyped letter is put right');
const engine2 = S.build(MiniSearch, book2);
engine2.addAll(S.documents(book2));
assert.strictEqual(S.corrected(engine2, 'modal'), 'modal',
                   'a short word the book does not use stays as typed (model: no mistyped letter under 7 letters)');
assert.strictEqual(S.corrected(engine2, 'privatization'), 'privatization', 'a word of the vocabulary stays as typed');
// field vocabulary: AoS is an array of structures
const book3 = [
  { p: '2.1.html', a: 'aos', c: '2.1 Coalescing', h: 'An array of structures against a structure of arrays',
    f: 'Each thread reads one field of a record.', t: 'A warp of the array of structures touches 32 sectors where 4 would do.' },
  { p: '2.1.html', a: 'tests', c: '2.1 Coalescing', h: 'Tests: every kernel against its reference',
    f: 'The tests compare each layout with its reference.', k: [['code-aos', 'aos_read soa_read', 1]] },
  { p: '2.1.html', a: 'ex', c: '2.1 Coalescing', h: 'Exercises',
    f: 'Why does a record read field by field touch more sectors?' },
  { p: '2.1.html', a: 'rec', c: '2.1 Coalescing', h: 'Layouts',
    f: 'A record read field by field touches more sectors than it needs.' },
  { p: '2.1.html', a: 'cmp', c: '2.1 Coalescing', h: 'Counting',
    f: 'To compare each layout, count the sectors a warp reads with it.' },
];
const search3 = searchOf(book3);
const first3 = firstOf(search3);
assert.strictEqual(first3('AoS vs SoA'), 'aos', 'AoS and SoA are the layouts\' names, above the tests that name them in code');
// exercises and the apparatus rank below the section that teaches as well (each pair scores within a
// few percent without SECTION_BOOST), unless their heading is asked for
assert.strictEqual(first3('record sectors'), 'rec', 'the exercise restating a term ranks below the section teaching it');
assert.strictEqual(first3('compare each layout'), 'cmp', 'the tests\' section ranks below the section teaching it');
assert.strictEqual(first3('layout reference'), 'tests', 'the tests\' section asked for by its heading');
assert.strictEqual(first3('exercises'), 'ex', 'the exercises asked for by their heading');

// a word is scored once across the fields holding it (saturated, as BM25F does): a section naming one
// typed word in its first paragraph, prose and chapter title does not outrank one whose prose holds
// both words typed (with the square of the share and no saturation, it did)
const book4 = [
  { p: '4.2.html', a: 'read', c: '4.2 Transpose', h: 'Reading', f: 'The transpose, profiled: the transpose.',
    t: 'The transpose reads a tile; the transpose writes a tile; the transpose is timed.' },
  { p: '2.2.html', a: 'banks', c: '2.2 Banks', h: 'Banks', f: 'A tile staged through the banks.',
    t: 'The matrix transpose through shared memory: each warp reads a row of the matrix and writes a column.' },
  { p: '3.3.html', a: 'x', c: '3.3 Fusion', h: 'Fusion', f: 'Kernels fused into one.', t: 'Nothing of a matrix here.' },
];
const search4 = searchOf(book4);
assert.strictEqual(search4('matrix transpose')[0].entry.a, 'banks',
                   'both words in the prose above one word everywhere');
assert.strictEqual(search4('transpose')[0].entry.a, 'read', 'one word: where it is everywhere');

// the vocabulary: a line's terms are matched as stems, several words long, one way or both
const same = (a, b, why) => assert.strictEqual(JSON.stringify(a), JSON.stringify(b), why);   // arrays of the vm's realm
same(S.synonyms('distributed shared memory'), ['cluster', 'multicast'], 'a term of three words');
assert.ok(S.synonyms('bandwidth bound').length > 0);
same(S.synonyms('bandwidth-bounded'), S.synonyms('bandwidth bound'), 'stems and hyphens meet');
assert.ok(S.synonyms('latency hiding').indexOf('bytes in flight') >= 0, 'the Best Practices Guide\'s term, the book\'s words');
assert.ok(S.synonyms('dram').indexOf('hbm') >= 0 && S.synonyms('hbm').indexOf('dram') >= 0, '= goes both ways');
same(S.synonyms('ceiling'), [], '-> goes one way: the book\'s word is not asked as the reader\'s');
// every line asks something the stems do not already find
fs.readFileSync(vocabularyFile, 'utf8').split('\n').map((l) => l.replace(/#.*/, '').trim()).filter(Boolean)
  .forEach((line) => line.split(/->|=/).slice(0, line.indexOf('->') >= 0 ? 1 : undefined).forEach((term) => {
    assert.ok(S.synonyms(term.trim()).length > 0, 'a line of the vocabulary that adds nothing: ' + line);
  }));
// the book's own words for a reader's term, in a heading, count half where the book also holds the
// words typed (the section naming them wins), and whole where it does not (the heading wins)
const book5 = [
  { p: '1.3.html', a: '', c: '1.3 Occupancy', h: '1.3 Occupancy', d: 'latency hiding',
    f: 'An SM keeps warps resident so that when one waits another issues: latency hiding.' },
  { p: '1.3.html', a: 'bytes', c: '1.3 Occupancy', h: 'Bandwidth follows bytes in flight',
    f: 'The bytes in flight per SM set the bandwidth.' },
];
const search5 = searchOf(book5);
assert.strictEqual(search5('latency hiding')[0].entry.a, '', 'the words typed, where the book holds them');
const book6 = [book5[1], { p: '1.3.html', a: 'occ', c: '1.3 Occupancy', h: 'Occupancy',
                          f: 'An SM keeps warps resident so that when one waits another issues.' }];
const search6 = searchOf(book6);
assert.strictEqual(search6('latency hiding')[0].entry.a, 'bytes', 'the book\'s words, where it lacks them');

// The book's index (i: book/index-terms/): a section an entry names is found by that name, and
// above one whose prose happens to hold the words; the entry's name weighs as a heading does.
const bookOfIndex = [
  { p: '1.1.html', a: 'branch', c: '1.1 Warps', h: 'Both sides of an if, priced',
    f: 'Lanes that disagree make the warp issue both sides.', i: 'warp divergence\nbranch divergence' },
  { p: '4.2.html', a: 'stalls', c: '4.2 Profile', h: 'The stall counters',
    f: 'A warp waits; the counters say on what, and which branch of the code.',
    t: 'Branch after branch, the divergence of the samples shrinks.' },
];
const searchByIndex = searchOf(bookOfIndex);
assert.strictEqual(searchByIndex('branch divergence')[0].entry.a, 'branch', 'the index\'s name, above prose that holds its words');
assert.strictEqual(searchByIndex('warp divergence')[0].entry.a, 'branch');
assert.strictEqual(searchOf(bookOfIndex.map((s) => Object.assign({}, s, { i: undefined })))('branch divergence')[0].entry.a,
                   'stalls', 'without the index the prose that holds both words wins (what the index is for)');

// A reader's question (q: the index files' `?` lines) finds the section that answers it, in words its
// prose never uses, above a section whose prose holds some of them
const bookOfQuestions = [
  { p: '1.2.html', a: 'stairs', c: '1.2 Waves', h: 'The staircase, measured',
    f: 'Time rises by one block time each time the grid passes a multiple of the wave.',
    q: 'why does my kernel take twice as long with one more block' },
  { p: '1.3.html', a: 'slower', c: '1.3 Occupancy', h: 'A kernel that gets slower',
    f: 'More warps per SM, and the kernel takes longer: each block now spills its registers.' },
];
const searchByQuestion = searchOf(bookOfQuestions);
assert.strictEqual(searchByQuestion('kernel twice as long one more block')[0].entry.a, 'stairs', 'the question finds its section');
assert.strictEqual(searchOf(bookOfQuestions.map((s) => Object.assign({}, s, { q: undefined })))('kernel slower one more block')[0].entry.a,
                   'slower', 'without it, the prose that holds the words');

// a result's excerpt shows the section's inline formulas (\x01 in its prose, their forms in m) where
// they stood
const bookOfFormulas = [
  { p: '1.3.html', a: 'sym', c: '1.3 Occupancy', h: 'The idea in symbols',
    f: 'A block of \x01 threads is \x01 warps.', t: 'Each SM holds \x01 bytes.', m: ['T', '⌈ T/32 ⌉', 'S'] },
];
const formulaRow = searchOf(bookOfFormulas)('threads warps')[0].entry;
assert.strictEqual(formulaRow.t, 'A block of T threads is ⌈ T/32 ⌉ warps.\nEach SM holds S bytes.');

S.vocabulary(['# a comment', 'warp shuffle -> shuffles  # a trailing comment', 'a = b']);
same(S.synonyms('warp shuffles'), ['shuffles']);
same(S.queryParts('fast warp shuffle here').map((p) => p.ways.length), [1, 2, 1],
     'the longest term of the vocabulary is one part, asked as typed or as the book says it');
same(S.synonyms('dram'), [], 'vocabulary() replaces the table');
S.vocabulary(fs.readFileSync(vocabularyFile, 'utf8').split('\n'));

console.log('test_search_core: all passed');
