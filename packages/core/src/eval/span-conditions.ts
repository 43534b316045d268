/**
 * The filter's plan (plan.ts) compiled over the line kernel's value spans: a condition whose outcome the value's
 * bytes decide exactly (its span decision, span-decision.ts) is tested on them, and every other one runs its
 * ordinary test on the lazy row of the same spans (span-values.ts), so no operator's meaning changes
 * (docs/language.md#evaluation).
 *
 * Byte tests, only on a line the kernel found VALID (so its bytes are valid UTF-8 and its strings are JSON):
 * - a string decision on a string value: its bytes, or the UTF-8 of its text when it holds escapes (decoded
 *   from the bytes, unescape-bytes.ts; a lone surrogate reads the row);
 * - an absent field or a JSON `null`: false, and true for a negative operator;
 * - `startsWith`/`endsWith` on a value that is not a string: false (true for the negative);
 * - `digits` on an integer token of at most 15 digits: the operator's test on the number it spells (exact).
 * Anything else (other numbers, numeric strings, arrays, objects) reads the row.
 */
import { smallInteger, type Spans } from './span-values.js';
import type { PlanCondition, PlanNode } from './plan.js';
import type { SpanDecision } from './span-decision.js';
import { createUnescaper } from './unescape-bytes.js';

/** A compiled test on the current spans over `hay`; `row` is the lazy row of the same spans. */
export type SpanTest = (hay: Uint8Array, row: Record<string, unknown>) => boolean;

const QUOTE = 34;
const N = 110;
/** One scratch buffer for every condition: a condition decodes and tests before the next one runs. */
const unescaper = createUnescaper();

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

/** The byte test of a string decision (`spans`: the line's, whose search it may use; none for other bytes). */
function bytesTest(d: Exclude<SpanDecision, { kind: 'digits' }>, spans?: Spans): BytesTest {
  switch (d.kind) {
    case 'startsWith':
      return startsWithBytes(d.needle);
    case 'endsWith':
      return endsWithBytes(d.needle);
    case 'contains':
      return spans ? containsBy(d.needle, spans) : containsBytes(d.needle);
    case 'equals':
      return equalsAnyBytes(d.members);
  }
}

/**
 * A comparison on a value that is a small integer token, compared straight from its digits; any other value
 * (a numeric string, a decimal, null...) reads the row. An absent field holds no comparison.
 */
function compileComparison(c: PlanCondition, spans: Spans): SpanTest {
  // the operator's own test (conditions.ts), given the number the digits spell
  const { test: holds, object: objectTest, field } = c;
  const { starts, ends } = spans;
  return (hay, row) => {
    const s = starts[field]!;
    if (s < 0) return false;
    const a = smallInteger(hay, s, ends[field]!);
    return a === a ? holds(a) : objectTest(row);
  };
}

function compileSpanCondition(c: PlanCondition, spans: Spans): SpanTest {
  const { object: objectTest, span, field } = c;
  if (span === undefined || c.operator === undefined) return (_hay, row) => objectTest(row);
  if (span.kind === 'digits') return compileComparison(c, spans);
  const test = bytesTest(span, spans);
  // an escaped string's text, decoded to bytes (unescape-bytes.ts), takes the same test, searched in JS
  const decodedTest = bytesTest(span);
  const negative = c.operator.negative;
  // startsWith/endsWith hold only on strings; contains on an array, eq/in on a number, need the value.
  const stringOnly = span.kind === 'startsWith' || span.kind === 'endsWith';
  const { starts, ends, escaped } = spans;
  return (hay, row) => {
    const s = starts[field]!;
    if (s < 0) return negative;
    const b = hay[s];
    if (b === QUOTE) {
      if (escaped[field] === 0) return test(hay, s + 1, ends[field]! - 1) !== negative;
      const n = unescaper.decode(hay, s + 1, ends[field]! - 1);
      // a lone surrogate has no UTF-8: the row's string decides
      return n < 0 ? objectTest(row) : decodedTest(unescaper.bytes, 0, n) !== negative;
    }
    // In a valid line, the only value starting with `n` is null.
    if (b === N || stringOnly) return negative;
    return objectTest(row);
  };
}

/** The plan's node compiled over the spans (whose fields are the plan's), short-circuiting like compileNode (matcher.ts). */
export function compileSpanNode(node: PlanNode, spans: Spans): SpanTest {
  if (node.kind === 'condition') return compileSpanCondition(node, spans);
  if (node.kind === 'never') return () => false;
  const isAnd = node.kind === 'and';
  const parts = node.children.map((n) => compileSpanNode(n, spans));
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
