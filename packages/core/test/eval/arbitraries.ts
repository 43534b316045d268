/**
 * fast-check generators of filters and of log lines that stress the raw shortcut: random JSON escapes of any
 * character, whitespace between tokens, duplicate keys, missing fields, nulls, numeric strings, arrays, nested
 * objects holding the filter's keys, wrong types, and lines that are not JSON objects.
 */
import fc from 'fast-check';

export const KEYS = ['host', 'n', 'tags', 'flag', 'path', 'constructor', '__proto__'];

/** Characters chosen to collide with needles and escapes: `&` (Go's \u0026), `/` (\/), quotes, backslashes. */
const CHARS = ['a', 'b', 'x', '.', '/', '&', '"', '\\', 'é', '\u2028', '😀', '1', '0', '-', 'e', ' ', '\n', 't', 'r', 'u'];
const text = fc.array(fc.constantFrom(...CHARS), { maxLength: 5 }).map((a) => a.join(''));
const numericText = fc.constantFrom('0', '1', '30', '-1', '1.5', '3e1', '30.0', '007', '+5', '.5', '1e999', ' 30', '30x', '1E+3', '-0', '1.', '0x1e', 'Infinity');
/** Integers beyond 2^53 (nanosecond timestamps one apart, 2^53 and its neighbours, the int64 limits), and their text. */
const BIG = [9007199254740992n, 9007199254740993n, 1700000000123456768n, 1700000000123456789n, 1700000000123456790n, -9223372036854775808n, 9223372036854775807n];
const bigText = fc.constantFrom(...BIG.map(String), '1700000000123456789.0', '1.7000000001234568e18');
const number = fc.oneof(
  fc.integer({ min: -3, max: 40 }),
  fc.constantFrom(0.5, 30, 1e21, 9007199254740993, -0),
  // the doubles nearest the big integers, and the big integers themselves (filter values as exactFilter gives
  // them, line values written as their digits)
  fc.constantFrom(...BIG.map(Number), ...BIG),
);

export const scalar = fc.oneof(text, numericText, bigText, number, fc.boolean());
export const logValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.constant(null),
    fc.array(fc.oneof(scalar, fc.constant(null)), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...KEYS), tie('v'), { maxKeys: 2 }),
  ),
})).v;

const OPS = ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains', 'in', '!in'] as const;

export const condition = fc
  .record({ key: fc.constantFrom(...KEYS), operator: fc.constantFrom(...OPS), value: scalar, list: fc.array(scalar, { minLength: 1, maxLength: 3 }) })
  .map(({ key, operator, value, list }) => ({ key, operator, value: operator === 'in' || operator === '!in' ? list : value }));

export const filterNode: fc.Arbitrary<any> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    condition,
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;
export const filterDoc = filterNode.map((where) => ({ where }));

/** Serializes a JSON string with each character randomly escaped (short escapes, \u with either hex case). */
function escapeString(s: string, choices: number[]): string {
  let out = '"';
  let k = 0;
  for (const ch of s) {
    const pick = choices[k++ % choices.length]!;
    const units = [...Array(ch.length).keys()].map((i) => ch.charCodeAt(i));
    const uEsc = units.map((u) => '\\u' + u.toString(16).padStart(4, '0')).join('');
    const mustEscape = ch === '"' || ch === '\\' || ch < ' ';
    if (pick % 4 === 0) out += uEsc;
    else if (pick % 4 === 1) out += uEsc.toUpperCase().replace(/\\U/g, '\\u');
    else if (mustEscape || (pick % 4 === 2 && ch === '/')) out += ch === '/' ? '\\/' : JSON.stringify(ch).slice(1, -1);
    else out += ch;
  }
  return out + '"';
}

interface Style {
  choices: number[];
  spaces: string[];
}

function write(v: unknown, st: Style, depth: number): string {
  const sp = () => st.spaces[depth % st.spaces.length]!;
  if (v === null || typeof v === 'boolean' || typeof v === 'number') return JSON.stringify(v) ?? 'null';
  if (typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return escapeString(v, st.choices);
  if (Array.isArray(v)) return '[' + sp() + v.map((x) => write(x, st, depth + 1)).join(',' + sp()) + ']';
  const entries = Object.entries(v as object);
  return '{' + sp() + entries.map(([k, x]) => escapeString(k, st.choices.slice(1).concat(st.choices)) + sp() + ':' + sp() + write(x, st, depth + 1)).join(',' + sp()) + sp() + '}';
}

/** One log line: mostly an object (sometimes with a duplicate key), sometimes broken or not an object. */
export const logLine = fc
  .record({
    fields: fc.array(fc.tuple(fc.constantFrom(...KEYS), logValue), { maxLength: 6 }),
    choices: fc.array(fc.nat(7), { minLength: 1, maxLength: 8 }),
    spaces: fc.array(fc.constantFrom('', '', ' ', '\t', ' \t '), { minLength: 1, maxLength: 3 }),
    kind: fc.constantFrom('object', 'object', 'object', 'object', 'object', 'duplicate', 'truncated', 'array', 'scalar', 'blank', 'crlf'),
  })
  .map(({ fields, choices, spaces, kind }) => {
    const st = { choices, spaces };
    const body = fields.map(([k, v]) => escapeString(k, choices) + ':' + write(v, st, 1));
    if (kind === 'duplicate' && fields.length > 0) body.push(escapeString(fields[0]![0], choices.slice().reverse()) + ':' + write(fields[fields.length - 1]![1], st, 1));
    const obj = '{' + body.join(',') + '}';
    switch (kind) {
      case 'truncated':
        return obj.slice(0, Math.max(1, obj.length - 2));
      case 'array':
        return '[' + obj + ']';
      case 'scalar':
        return write(fields[0]?.[1] ?? 1, st, 1);
      case 'blank':
        return spaces.join('');
      case 'crlf':
        return obj + '\r';
      default:
        return obj;
    }
  });
