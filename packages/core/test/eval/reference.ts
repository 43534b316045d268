/**
 * A deliberately simple reference evaluator, written straight from docs/language.md#evaluation and sharing no code
 * with the evaluator under test. Slow on purpose: it walks the filter JSON for every line.
 */
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

// Written out independently of src/lang/json-number.ts: the JSON number grammar, exactly (docs/language.md).
const NUMERIC = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/;
// An integer token too long to be sure a double holds it: read as a bigint (exact; a bigint and a double
// compare by mathematical value in JavaScript).
const LONG_INTEGER = /^-?[1-9]\d{15,}$/;

function asNumber(x: unknown): number | bigint | null {
  if (typeof x === 'number' || typeof x === 'bigint') return x;
  if (typeof x === 'string' && NUMERIC.test(x)) return LONG_INTEGER.test(x) ? BigInt(x) : parseFloat(x);
  return null;
}

export function refEquals(a: unknown, b: unknown): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  const numeric = (x: unknown) => typeof x === 'number' || typeof x === 'bigint';
  if (numeric(a) || numeric(b)) {
    const x = asNumber(a);
    const y = asNumber(b);
    // `==` between a bigint and a double is the exact comparison
    return x !== null && y !== null && x == y;
  }
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return false;
}

/**
 * JSON.parse with every long integer token as a bigint: the tokens are wrapped as `{"$big":"digits"}` (only
 * in text JSON.parse has already accepted, so every token rewritten is a value) and unwrapped by a reviver.
 */
function parseExactly(text: string): unknown {
  const plain: unknown = JSON.parse(text);
  const wrapped = text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g, (t) => (LONG_INTEGER.test(t) ? `{"$big":"${t}"}` : t));
  if (wrapped === text) return plain;
  return JSON.parse(wrapped, (_k, v) => (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).join() === '$big' ? BigInt(v.$big) : v));
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
      // (exact across bigint and double)
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
    v = parseExactly(text);
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
