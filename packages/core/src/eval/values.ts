/**
 * How log values and filter values compare (docs/language.md#evaluation). Every evaluation path (the object
 * predicate, the explain counters and the raw-line shortcut) is built from these functions, so the paths
 * cannot disagree on what "equal" or "numeric" means.
 *
 * Numbers are IEEE doubles on both sides. Integers beyond 2^53 (nanosecond timestamps) are therefore compared
 * after rounding to the nearest double: the order is never inverted (rounding is monotone), but two such
 * integers closer than one double step (256 at 1.6e18) compare equal. JSON.parse already rounds the log side,
 * so exact big-integer comparison would need the raw text of every line; we document the rounding instead.
 */
import type { FilterScalar, FilterValue } from '../filter.js';
import { isNumericString, numericValue } from '../util/numeric.js';

export { isNumericString };

/** A value read as a number: a JSON number as itself, a numeric string (util/numeric.ts) as its value, anything else NaN. */
export function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string') return numericValue(v);
  return NaN;
}

/** A predicate on one log value, already known to be neither absent nor null. */
export type ValueTest = (v: unknown) => boolean;

/**
 * Equality against a fixed filter scalar: strings exactly, booleans as booleans, numbers numerically when either
 * side is a JSON number (the other side read as a number), and a boolean never equals a non-boolean.
 */
export function equalsTo(b: FilterScalar): ValueTest {
  if (typeof b === 'boolean') return (a) => a === b;
  if (typeof b === 'number') {
    return (a) => (typeof a === 'number' ? a === b : typeof a === 'string' && toNumber(a) === b);
  }
  const bn = toNumber(b);
  // A non-numeric filter string never equals a log number; NaN === x is always false.
  return (a) => (typeof a === 'string' ? a === b : typeof a === 'number' && a === bn);
}

/** Equality against any member of a list; a single-value fast path keeps the common case cheap. */
export function equalsAny(list: readonly FilterScalar[]): ValueTest {
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
export function asList(v: FilterValue): FilterScalar[] {
  return Array.isArray(v) ? v : [v];
}

/** The filter value as text (for the string operators); a list is never valid there, its first member is used. */
export function asText(v: FilterValue): string {
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined ? '' : String(s);
}

/** The filter value as a scalar (for equality and comparisons). */
export function asScalar(v: FilterValue): FilterScalar {
  if (Array.isArray(v)) return v.length > 0 ? v[0]! : '';
  return v;
}
