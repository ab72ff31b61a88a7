// A classifier from words to sections, trained on the book's own text only (never on a query):
// each section's readers' questions, index names, heading, first paragraph and prose sentences are
// its examples. Features: the stems and adjacent stem pairs the book's search makes (stop words
// out), weighted by rarity and scaled to unit length. Model: softmax regression, L2-regularised,
// trained full-batch with Adam from zero, so two runs give the same ranks.
'use strict';

function features(BookSearch, text) {
  const stems = BookSearch.tokenize(text).filter((w) => !BookSearch.STOP[w]).map(BookSearch.stem);
  return stems.concat(stems.slice(1).map((s, i) => stems[i] + '_' + s));
}

function examples(sections) {
  const out = [];   // [text, section, weight]
  sections.forEach((s, i) => {
    for (const field of ['q', 'i', 'j', 'd']) {
      for (const line of (s[field] || '').split('\n')) if (line.trim()) out.push([line, i, 1]);
    }
    out.push([s.h || '', i, 1], [s.c + ' ' + (s.h || ''), i, 1]);
    if (s.f) out.push([s.f, i, 1]);
    for (const sentence of (s.t || '').split(/(?<=[.:;])\s+/)) if (sentence.length > 20) out.push([sentence, i, 0.3]);
  });
  return out;
}

// extra: more [text, section, weight] examples (compare.js passes the tuned-to queries)
function train(BookSearch, sections, { extra = [], iterations = 150, lambda = 1e-4, rate = 0.025 } = {}) {
  const data = examples(sections).concat(extra).map(([text, y, w]) => ({ f: features(BookSearch, text), y, w }));
  const df = new Map();
  for (const d of data) for (const t of new Set(d.f)) df.set(t, (df.get(t) || 0) + 1);
  const vocab = new Map();   // single stems always, pairs seen twice or more
  for (const [t, n] of df) if (n >= 2 || !t.includes('_')) vocab.set(t, vocab.size);
  const idf = new Float32Array(vocab.size);
  for (const [t, j] of vocab) idf[j] = Math.log(1 + data.length / df.get(t));
  const row = (f) => {
    const js = [...new Set(f.filter((t) => vocab.has(t)).map((t) => vocab.get(t)))];
    const norm = Math.hypot(...js.map((j) => idf[j])) || 1;
    return { js, vs: js.map((j) => idf[j] / norm) };
  };
  const X = data.map((d) => row(d.f));
  const V = vocab.size, C = sections.length, N = data.length;
  const W = new Float32Array(V * C), b = new Float32Array(C);
  const m = new Float32Array(V * C), v = new Float32Array(V * C);
  const totalWeight = data.reduce((s, d) => s + d.w, 0);
  const z = new Float64Array(C);
  for (let it = 1; it <= iterations; it++) {
    const gW = new Float32Array(V * C), gb = new Float32Array(C);
    for (let n = 0; n < N; n++) {
      const { js, vs } = X[n];
      z.set(b);
      for (let k = 0; k < js.length; k++) { const o = js[k] * C, x = vs[k]; for (let c = 0; c < C; c++) z[c] += x * W[o + c]; }
      let max = -Infinity; for (let c = 0; c < C; c++) max = Math.max(max, z[c]);
      let sum = 0; for (let c = 0; c < C; c++) { z[c] = Math.exp(z[c] - max); sum += z[c]; }
      const w = data[n].w / totalWeight;
      for (let c = 0; c < C; c++) z[c] = w * (z[c] / sum - (c === data[n].y ? 1 : 0));
      for (let c = 0; c < C; c++) gb[c] += z[c];
      for (let k = 0; k < js.length; k++) { const o = js[k] * C, x = vs[k]; for (let c = 0; c < C; c++) gW[o + c] += x * z[c]; }
    }
    const c1 = 1 - Math.pow(0.9, it), c2 = 1 - Math.pow(0.999, it);
    for (let i = 0; i < V * C; i++) {
      const g = gW[i] + lambda * W[i];
      m[i] = 0.9 * m[i] + 0.1 * g; v[i] = 0.999 * v[i] + 0.001 * g * g;
      W[i] -= rate * (m[i] / c1) / (Math.sqrt(v[i] / c2) + 1e-8);
    }
    for (let c = 0; c < C; c++) b[c] -= 0.05 * gb[c];
  }
  // the sections best first for a query
  return (query) => {
    const { js, vs } = row(features(BookSearch, query));
    const s = Float64Array.from(b);
    for (let k = 0; k < js.length; k++) { const o = js[k] * C; for (let c = 0; c < C; c++) s[c] += vs[k] * W[o + c]; }
    return [...s.keys()].sort((p, q) => s[q] - s[p]);
  };
}

module.exports = { train, examples };
