/**
 * How log values and filter values compare (docs/language.md#evaluation). Every evaluation path (the object
 * predicate, the explain counters and the raw-line shortcut) is built from these functions, so the paths
 * cannot disagree on what "equal" or "numeric" means.
 *
 * Numbers compare by their exact values. A number is a double, or a bigint for an integer beyond 2^53 that
 * a double cannot hold (exact.ts reads those from the filter's text and the line's digits; a numeric string
 * of such digits reads the same way). JavaScript compares a bigint with a double by mathematical value (`<`,
 * `<=` and `==` across the two types are exact), so one comparison serves every pairing.
 */
import type { FilterScalar, FilterValue } from '../filter/filter.js';
import { isNumericString, numericValue } from '../lang/json-number.js';
import { exactNumber } from './exact.js';

export { isNumericString };

/** A value read as a number: a JSON number as itself, a numeric string (lang/json-number.ts) as its value, anything else NaN. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return numericValue(v);
  if (typeof v === 'bigint') return Number(v);
  return NaN;
}

/** An exact number: a double, or a bigint for an integer beyond 2^53. */
export type Exact = number | bigint;

/** A value read as an exact number: toNumber, but a bigint stays one and a numeric string's long integer digits become one. */
export function toExact(v: unknown): Exact {
  if (typeof v === 'number' || typeof v === 'bigint') return v;
  if (typeof v === 'string') {
    const n = numericValue(v);
    // only an integer past 2^53 needs its digits (exactNumber checks the grammar again: `1e300` stays a double)
    return n === n && v.length > 15 && !Number.isSafeInteger(n) ? exactNumber(v) : n;
  }
  return NaN;
}

/** A predicate on one log value, already known to be neither absent nor null. */
export type ValueTest = (v: unknown) => boolean;

/** A filter scalar as the evaluator takes it: exactFilter (exact.ts) gives bigint for integers beyond 2^53. */
export type EvalScalar = FilterScalar | bigint;

/**
 * Equality against a fixed filter scalar: strings exactly, booleans as booleans, numbers by exact value when
 * either side is a JSON number (the other side read as a number), and a boolean never equals a non-boolean.
 * (`==` between a bigint and a double is exact; between two doubles it is `===`.)
 */
export function equalsTo(b: EvalScalar): ValueTest {
  if (typeof b === 'boolean') return (a) => a === b;
  // Separate closures for a double and a bigint, so the common double case keeps number-only feedback.
  if (typeof b === 'number') {
    return (a) => (typeof a === 'number' ? a === b : typeof a === 'string' ? toExact(a) == b : typeof a === 'bigint' && a == (b as Exact));
  }
  if (typeof b === 'bigint') {
    return (a) => (typeof a === 'bigint' ? a === b : typeof a === 'number' ? a == (b as Exact) : typeof a === 'string' && toExact(a) == b);
  }
  const bn = toExact(b);
  // A non-numeric filter string never equals a log number; NaN == x is always false.
  return (a) => (typeof a === 'string' ? a === b : (typeof a === 'number' || typeof a === 'bigint') && a == bn);
}

/** Equality against any member of a list; a single-value fast path keeps the common case cheap. */
export function equalsAny(list: readonly EvalScalar[]): ValueTest {
  if (list.length === 1) return equalsTo(list[0]!);
  const strings = new Set<string>();
  let allPlainStrings = true;
  for (const m of list) {
    if (typeof m === 'string' && !isNumericString(m)) strings.add(m);
    else allPlainStrings = false;
  }
  if (allPlainStrings) {
    // Only a log string can equal a non-numeric filter string.
    return (a) => typeof a === 'string' && strings.has(a);
  }
  const tests = list.map(equalsTo);
  return (a) => {
    for (let i = 0; i < tests.length; i++) if (tests[i]!(a)) return true;
    return false;
  };
}

/** The filter value as a list (for `in`): a scalar given where a list is expected is a one-element list. */
export function asList(v: FilterValue): EvalScalar[] {
  return Array.isArray(v) ? v : [v];
}

/** The filter value as text (for the string operators); a list is never valid there, its first member is used. */
export function asText(v: FilterValue): string {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? '' : String(s);
}

/** The filter value as a scalar (for equality and comparisons). */
export function asScalar(v: FilterValue): EvalScalar {
  if (Array.isArray(v)) return v.length > 0 ? v[0]! : '';
  return v;
}
