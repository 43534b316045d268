/**
 * The filter compiled over the line kernel's value spans: a condition whose outcome the value's bytes decide
 * exactly is tested on them, and every other one runs the ordinary test (conditions.ts) on the lazy row of the
 * same spans (span-values.ts), so no operator's meaning changes (docs/language.md#evaluation).
 *
 * Byte tests, only on a line the kernel found VALID (so its bytes are valid UTF-8 and its strings are JSON):
 * - `startsWith`, `endsWith`, `contains` (and `!` forms) on a string without escapes, whose bytes are then the
 *   UTF-8 of its text. With a filter text that is well-formed UTF-16 (no lone surrogate), a byte prefix, suffix
 *   or substring of valid UTF-8 is exactly a UTF-16 one: both sides are whole characters, and UTF-8 is
 *   self-synchronizing (a match starts on a lead byte and ends after a complete character).
 * - `eq`, `in` (and `!` forms) whose members are all non-numeric, well-formed strings, on a string without
 *   escapes: byte equality with a member's UTF-8 (such a member equals no log number, equalsTo in values.ts).
 * - an absent field or a JSON `null`: false, and true for a negative operator.
 * - `startsWith`/`endsWith` on a value that is not a string: false (true for the negative).
 * - `lt`, `leq`, `gt`, `geq` on an integer token of at most 15 digits: compared from its digits (exact).
 * Anything else (other numbers, numeric strings, arrays, objects, escaped strings) reads the row.
 */
import type { FilterCondition, FilterNode } from '../filter/filter.js';
import { isCondition } from '../filter/filter.js';
import { OPERATOR_BY_NAME, type OperatorName } from '../filter/operators.js';
import { compileCondition, positiveTest } from './conditions.js';
import { smallInteger, type Spans } from './span-values.js';
import { asList, asScalar, asText, isNumericString } from './values.js';

/** A compiled test on the current spans over `hay`; `row` is the lazy row of the same spans. */
export type SpanTest = (hay: Uint8Array, row: Record<string, unknown>) => boolean;

const QUOTE = 34;
const N = 110;

const encoder = new TextEncoder();

/** True when `s` holds no lone surrogate (its UTF-8 encoding is then exact). */
function wellFormed(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c > 0xdbff) return false;
    const d = s.charCodeAt(i + 1);
    if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
    i++;
  }
  return true;
}

/** A test on the bytes `hay[vs, ve)` of a string value without escapes (quotes excluded). */
type BytesTest = (hay: Uint8Array, vs: number, ve: number) => boolean;

function startsWithBytes(needle: Uint8Array): BytesTest {
  const n = needle.length;
  return (hay, vs, ve) => {
    if (ve - vs < n) return false;
    for (let j = 0; j < n; j++) if (hay[vs + j] !== needle[j]) return false;
    return true;
  };
}

function endsWithBytes(needle: Uint8Array): BytesTest {
  const n = needle.length;
  return (hay, vs, ve) => {
    if (ve - vs < n) return false;
    const at = ve - n;
    for (let j = 0; j < n; j++) if (hay[at + j] !== needle[j]) return false;
    return true;
  };
}

function containsBytes(needle: Uint8Array): BytesTest {
  const n = needle.length;
  if (n === 0) return () => true;
  const first = needle[0]!;
  const last = needle[n - 1]!;
  return (hay, vs, ve) => {
    const stop = ve - n;
    for (let i = vs; i <= stop; i++) {
      if (hay[i] !== first || hay[i + n - 1] !== last) continue;
      let j = 1;
      while (j < n - 1 && hay[i + j] === needle[j]) j++;
      if (j >= n - 1) return true;
    }
    return false;
  };
}

function equalsAnyBytes(members: readonly Uint8Array[]): BytesTest {
  return (hay, vs, ve) => {
    const len = ve - vs;
    for (let k = 0; k < members.length; k++) {
      const m = members[k]!;
      if (m.length !== len) continue;
      let j = 0;
      while (j < len && hay[vs + j] === m[j]) j++;
      if (j === len) return true;
    }
    return false;
  };
}

/**
 * containsBytes through the spans' own search (the kernel's SIMD search over the loaded block) where it takes
 * the needle: a user agent or a path is searched 16 bytes at a time instead of byte by byte in JS.
 */
function containsBy(needle: Uint8Array, spans: Spans): BytesTest {
  const find = spans.find;
  const fallback = containsBytes(needle);
  if (!find || find.call(spans, needle, 0, 0) === undefined) return fallback;
  return (_hay, vs, ve) => find.call(spans, needle, vs, ve)! >= 0;
}

/** The byte test of a condition's positive operator on an unescaped string, or undefined when it has none. */
function bytesTest(c: FilterCondition, op: string, spans: Spans): BytesTest | undefined {
  switch (op) {
    case 'startsWith':
    case 'endsWith':
    case 'contains': {
      const text = asText(c.value);
      if (!wellFormed(text)) return undefined;
      const needle = encoder.encode(text);
      return op === 'startsWith' ? startsWithBytes(needle) : op === 'endsWith' ? endsWithBytes(needle) : containsBy(needle, spans);
    }
    case 'eq':
    case 'in': {
      const list = op === 'eq' ? [asScalar(c.value)] : asList(c.value);
      const members: Uint8Array[] = [];
      for (const m of list) {
        if (typeof m !== 'string' || isNumericString(m) || !wellFormed(m)) return undefined;
        members.push(encoder.encode(m));
      }
      return equalsAnyBytes(members);
    }
  }
  return undefined;
}

/**
 * `lt`, `leq`, `gt`, `geq` on a value that is a small integer token, compared straight from its digits; any
 * other value (a numeric string, a decimal, null...) reads the row. An absent field holds no comparison.
 */
function compileComparison(op: OperatorName, c: FilterCondition, field: number, spans: Spans, objectTest: (o: Record<string, unknown>) => boolean): SpanTest {
  // the operator's own test (conditions.ts), given the number the digits spell
  const holds = positiveTest(op, c.value);
  const { starts, ends } = spans;
  return (hay, row) => {
    const s = starts[field]!;
    if (s < 0) return false;
    const a = smallInteger(hay, s, ends[field]!);
    return a === a ? holds(a) : objectTest(row);
  };
}

function compileSpanCondition(c: FilterCondition, fields: readonly string[], spans: Spans): SpanTest {
  const objectTest = compileCondition(c);
  const info = OPERATOR_BY_NAME.get(c.operator);
  const field = fields.indexOf(c.key);
  if (!info || field < 0) return (_hay, row) => objectTest(row);
  const positive = info.positive;
  if (!info.negative && (positive === 'lt' || positive === 'leq' || positive === 'gt' || positive === 'geq')) return compileComparison(positive, c, field, spans, objectTest);
  const test = bytesTest(c, positive, spans);
  if (!test) return (_hay, row) => objectTest(row);
  const negative = info.negative;
  // startsWith/endsWith hold only on strings; contains on an array, eq/in on a number, need the value.
  const stringOnly = positive === 'startsWith' || positive === 'endsWith';
  const { starts, ends, escaped } = spans;
  return (hay, row) => {
    const s = starts[field]!;
    if (s < 0) return negative;
    const b = hay[s];
    if (b === QUOTE) {
      if (escaped[field] !== 0) return objectTest(row);
      return test(hay, s + 1, ends[field]! - 1) !== negative;
    }
    // In a valid line, the only value starting with `n` is null.
    if (b === N || stringOnly) return negative;
    return objectTest(row);
  };
}

/** The node compiled over the spans, short-circuiting like compileNode (matcher.ts). */
export function compileSpanNode(node: FilterNode, fields: readonly string[], spans: Spans): SpanTest {
  if (isCondition(node)) return compileSpanCondition(node, fields, spans);
  const isAnd = 'and' in node && Array.isArray(node.and);
  const group = isAnd ? node.and : 'or' in node && Array.isArray(node.or) ? node.or : undefined;
  if (!group) return () => false;
  const parts = group.map((n) => compileSpanNode(n, fields, spans));
  if (parts.length === 1) return parts[0]!;
  if (isAnd) {
    if (parts.length === 2) {
      const [a, b] = parts as [SpanTest, SpanTest];
      return (h, r) => a(h, r) && b(h, r);
    }
    return (h, r) => {
      for (let i = 0; i < parts.length; i++) if (!parts[i]!(h, r)) return false;
      return true;
    };
  }
  if (parts.length === 2) {
    const [a, b] = parts as [SpanTest, SpanTest];
    return (h, r) => a(h, r) || b(h, r);
  }
  return (h, r) => {
    for (let i = 0; i < parts.length; i++) if (parts[i]!(h, r)) return true;
    return false;
  };
}
