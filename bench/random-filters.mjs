/**
 * The scale bench's hidden-style filter set: filters drawn at random from a seed, as a user (or a hidden test)
 * might write them: 1–30 conditions, every operator of the language on fields of the types it takes (the
 * dataset's field table in the core), negations (the `!` operators and `not (…)` groups), and/or nested to any
 * depth, with values taken from the data so that selectivity spreads over 0–95%.
 *
 * Each filter is written as `.logfilter` source (with every spelling of its operator: `==`/`eq`,
 * `not startsWith`/`!startsWith`, …) and compiled by the core's compiler: what is measured is the JSON the
 * compiler writes, exactly as `logfilter compile` would. The byte limit is lifted (MAX_BYTES): 30 conditions
 * cannot fit the API's 1000 bytes (a condition's JSON is 32 bytes before its field and value), so each filter
 * says whether it would (`apiSized`).
 *
 * Selectivity is aimed by drawing a band first (BANDS) and redrawing until the filter's fraction of a sample of
 * lines falls in it; the bench then measures each filter's real selectivity on the whole workload.
 */
// the data generator's mulberry32: the same seed draws the same filters on every machine
import { rng } from './gen-http-requests.mjs';
import { compile, createMatcher, getDataset, isFilterable, OPERATORS, typeClasses } from '../packages/core/dist/logfilter-core.js';

/** Lifted byte limit for drawn filters (the operator limit stays the language's 30). */
export const MAX_BYTES = 8000;
export const MAX_CONDITIONS = 30;
/** Selectivity bands a filter is aimed at, drawn uniformly: none, rare, selective, half, most, nearly all. */
export const BANDS = [
  [0, 0],
  [0, 0.05],
  [0.05, 0.2],
  [0.2, 0.5],
  [0.5, 0.8],
  [0.8, 0.95],
];
const TYPES = new Set(['int', 'string', 'bool', 'array[string]', 'array[int]']);

const pick = (r, a) => a[(r() * a.length) | 0];
const int = (r, lo, hi) => lo + ((r() * (hi - lo + 1)) | 0);

const fitsType = (type, v) => {
  if (type === 'int') return Number.isSafeInteger(v);
  if (type === 'string') return typeof v === 'string';
  if (type === 'bool') return typeof v === 'boolean';
  if (type === 'array[string]') return Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (type === 'array[int]') return Array.isArray(v) && v.every((x) => Number.isSafeInteger(x));
  return false;
};

/**
 * The fields a filter may use, with the values the sample holds: `{ name, type, values }` for every
 * filterable, not deprecated field of a type the operators take whose sampled values all fit that type
 * (integers beyond 2^53 are left out: their exact comparison is a separate goal), plus a few fields of the
 * dataset that the data never has (`values` empty), for the absent-field semantics.
 */
export function fieldPool(sample, dataset = 'http_requests') {
  const schema = getDataset(dataset);
  const present = [];
  const absent = [];
  for (const f of schema.fields) {
    if (!TYPES.has(f.type) || !isFilterable(f) || f.deprecated) continue;
    const values = sample.map((o) => o[f.name]).filter((v) => v !== undefined && v !== null);
    if (values.length === 0) absent.push({ name: f.name, type: f.type, values });
    else if (values.every((v) => fitsType(f.type, v))) present.push({ name: f.name, type: f.type, values });
  }
  return { present, absent: absent.slice(0, 6) };
}

/** A value for `op` on field `f`, taken from the data (so it matches some lines) or, rarely, from nowhere. */
function valueFor(r, op, f) {
  const isArray = f.type.startsWith('array');
  const elemInt = f.type === 'int' || f.type === 'array[int]';
  const scalars = isArray ? f.values.flat() : f.values;
  const fresh = () => (elemInt ? int(r, 0, 1000) : f.type === 'bool' ? r() < 0.5 : pick(r, ['zz', 'nope', '-none-', 'Q']));
  const one = () => (scalars.length && r() < 0.92 ? pick(r, scalars) : fresh());
  if (op.shape === 'list') return Array.from({ length: int(r, 1, 5) }, one).filter((v, i, a) => a.indexOf(v) === i);
  if (op.numeric) return scalars.length ? pick(r, scalars) : int(r, 0, 1000);
  if (op.positive === 'startsWith' || op.positive === 'endsWith' || (op.positive === 'contains' && !isArray)) {
    const s = String(one());
    if (!s.length) return 'a';
    const n = int(r, 1, Math.min(s.length, 16));
    if (op.positive === 'startsWith') return s.slice(0, n);
    if (op.positive === 'endsWith') return s.slice(s.length - n);
    const at = int(r, 0, s.length - n);
    return s.slice(at, at + n);
  }
  return one();
}

/** A literal in `.logfilter` source (strings as JSON strings, which the lexer reads). */
const lit = (v) => (Array.isArray(v) ? `[${v.map(lit).join(', ')}]` : JSON.stringify(v));

/** One condition's source, in one of its operator's spellings. */
function condition(r, pool, ops) {
  const op = pick(r, ops);
  const fields = (r() < 0.06 ? pool.absent : pool.present).filter((f) => op.types.some((t) => typeClasses(f.type).includes(t)));
  const f = fields.length ? pick(r, fields) : pick(r, pool.present.filter((x) => op.types.some((t) => typeClasses(x.type).includes(t))));
  const spellings = [...(op.symbol ? [op.symbol] : []), ...op.words, ...(op.notForm ? [`not ${op.notForm}`] : [])];
  return { source: `${f.name} ${pick(r, spellings)} ${lit(valueFor(r, op, f))}`, op: op.name };
}

/** A group of `n` conditions: and/or of parts, nested, some inside `not (…)`. */
function group(r, n, pool, ops, used, depth = 0) {
  if (n === 1) {
    const c = condition(r, pool, ops);
    used.add(c.op);
    return r() < 0.08 ? `not (${c.source})` : c.source;
  }
  const parts = [];
  let left = n;
  const k = Math.min(left, int(r, 2, depth > 2 ? 2 : 5));
  for (let i = k; i > 0; i--) {
    const size = i === 1 ? left : int(r, 1, left - i + 1);
    parts.push(group(r, size, pool, ops, used, depth + 1));
    left -= size;
  }
  const joined = parts.map((p) => `(${p})`).join(r() < 0.55 ? ' and ' : ' or ');
  return depth > 0 && r() < 0.2 ? `not (${joined})` : joined;
}

/**
 * `count` filters drawn from `seed` over the fields of `sample` (parsed log lines): each
 * `{ source, json, filter, conditions, operators, negations, groups, band, sampleSelectivity, apiSized }`.
 * Every one has compiled; a filter the compiler refuses is a bug in this generator or the compiler, and
 * throws with the source.
 */
export function drawFilters({ seed = 1, count = 12, sample, dataset = 'http_requests', attempts = 300 }) {
  const r = rng(seed);
  const pool = fieldPool(sample, dataset);
  const ops = [...OPERATORS];
  const out = [];
  for (let i = 0; i < count; i++) {
    const band = pick(r, BANDS);
    let best;
    for (let a = 0; a < attempts; a++) {
      const n = int(r, 1, MAX_CONDITIONS);
      const used = new Set();
      const source = group(r, n, pool, ops, used);
      const c = compile(source, { dataset, maxBytes: MAX_BYTES });
      if (!c.ok) throw new Error(`random filter ${i} (seed ${seed}) did not compile: ${c.diagnostics.map((d) => d.code + ' ' + d.message).join('; ')}\n${source}`);
      const m = createMatcher(c.filter);
      let hit = 0;
      for (const o of sample) if (m.test(o)) hit++;
      const sel = hit / sample.length;
      const cand = { source, json: c.json, filter: c.filter, conditions: n, operators: [...used], negations: (source.match(/\bnot\b|!=|!\w+/g) ?? []).length, groups: (source.match(/\(/g) ?? []).length, band, sampleSelectivity: sel, apiSized: Buffer.byteLength(c.json) <= 1000 };
      const inBand = band[0] === band[1] ? sel === band[0] : sel > band[0] && sel <= band[1];
      if (inBand) {
        best = cand;
        break;
      }
      // keep the nearest within 0–95% in case the band is not reached
      if (sel <= 0.95 && (!best || Math.abs(sel - (band[0] + band[1]) / 2) < Math.abs(best.sampleSelectivity - (band[0] + band[1]) / 2))) best = cand;
    }
    if (!best) throw new Error(`random filter ${i} (seed ${seed}): no draw within 0–95% in ${attempts} attempts`);
    out.push(best);
  }
  return out;
}
