/**
 * A deliberately simple reference evaluator, written straight from docs/language.md#evaluation and sharing no code
 * with the evaluator under test. Slow on purpose: it walks the filter JSON for every line.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// Written out independently of src/util/numeric.ts: the JSON number grammar, exactly (docs/language.md).
const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;

function asNumber(x: unknown): number | null {
  if (typeof x === 'number') return x;
  if (typeof x === 'string' && NUMERIC.test(x)) return parseFloat(x);
  return null;
}

export function refEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (typeof a === 'number' || typeof b === 'number') {
    const x = asNumber(a);
    const y = asNumber(b);
    return x !== null && y !== null && x === y;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return false;
}

function positive(op: string, v: unknown, value: unknown): boolean {
  const first = Array.isArray(value) ? value[0] : value;
  switch (op) {
    case 'eq':
      return refEquals(v, first);
    case 'lt':
    case 'leq':
    case 'gt':
    case 'geq': {
      const x = asNumber(v);
      const y = asNumber(first);
      if (x === null || y === null) return false;
      return op === 'lt' ? x < y : op === 'leq' ? x <= y : op === 'gt' ? x > y : x >= y;
    }
    case 'startsWith':
      return typeof v === 'string' && v.startsWith(String(first));
    case 'endsWith':
      return typeof v === 'string' && v.endsWith(String(first));
    case 'contains':
      if (typeof v === 'string') return v.includes(String(first));
      if (Array.isArray(v)) return v.some((e) => refEquals(e, first));
      return false;
    case 'in': {
      const list = Array.isArray(value) ? value : [value];
      if (Array.isArray(v)) return v.some((e) => list.some((m) => refEquals(e, m)));
      return list.some((m) => refEquals(v, m));
    }
  }
  throw new Error(`reference: unknown operator ${op}`);
}

export function refNode(node: any, obj: Record<string, Json>): boolean {
  if ('and' in node) return node.and.every((n: any) => refNode(n, obj));
  if ('or' in node) return node.or.some((n: any) => refNode(n, obj));
  const v = Object.prototype.hasOwnProperty.call(obj, node.key) ? obj[node.key] : undefined;
  const negative = node.operator.startsWith('!');
  if (v === undefined || v === null) return negative;
  const r = positive(negative ? node.operator.slice(1) : node.operator, v, node.value);
  return negative ? !r : r;
}

export type RefVerdict = 'blank' | 'malformed' | 'match' | 'no-match';

/** The verdict for one line (without its `\n`). */
export function refLine(filter: any, line: string): RefVerdict {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (/^[ \t\r]*$/.test(text)) return 'blank';
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return 'malformed';
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'malformed';
  return refNode(filter.where, v as Record<string, Json>) ? 'match' : 'no-match';
}

/** Reference counts of a whole NDJSON text. */
export function refCounts(filter: any, text: string): { total: number; matched: number; malformed: number; matches: number[] } {
  const out = { total: 0, matched: 0, malformed: 0, matches: [] as number[] };
  text.split('\n').forEach((line, i) => {
    const r = refLine(filter, line);
    if (r === 'blank') return;
    out.total++;
    if (r === 'malformed') out.malformed++;
    if (r === 'match') {
      out.matched++;
      out.matches.push(i);
    }
  });
  return out;
}
