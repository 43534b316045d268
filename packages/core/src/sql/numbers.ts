/**
 * Numbers as the language reads them (docs/language.md, "Numbers and numeric strings"): a string is numeric
 * when it matches the JSON number grammar exactly (lang/json-number.ts), and reads as that number. The SQL
 * back end keeps every number as its text so that integers beyond 2^53 reach the engine with all digits.
 */
import { JSON_INTEGER, JSON_NUMBER } from '../lang/json-number.js';

export { JSON_INTEGER, JSON_NUMBER };

/** The patterns as the engines' regular expressions see them (RE2 in both; anchors make them whole-string). */
export const JSON_NUMBER_PATTERN = JSON_NUMBER.source;
export const JSON_INTEGER_PATTERN = JSON_INTEGER.source;

/** A number of the filter, kept exact. */
export interface ExactNumber {
  /** Canonical text: integer digits when the value is a whole number (`2.0`, `1e3` → `2`, `1000`), else the double's shortest text. */
  text: string;
  /** True when `text` is an exact integer (any size). */
  integer: boolean;
}

/**
 * The number a JSON number text (or numeric string) stands for. Whole values become exact integer text even
 * when written with a fraction or exponent, so that `2.0` equals an integer column's 2; other values become
 * doubles, as the evaluator reads them. Returns undefined for text outside the JSON number grammar.
 */
export function exactNumber(raw: string): ExactNumber | undefined {
  if (!JSON_NUMBER.test(raw)) return undefined;
  if (JSON_INTEGER.test(raw)) return integerOrDouble(raw === '-0' ? '0' : raw);
  const m = /^(-?)([0-9]+)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(raw)!;
  const [, sign, intPart, fracPart = '', expPart = '0'] = m;
  const exp = Number(expPart);
  // Whole values with a reasonable exponent: shift the digits instead of going through a double.
  if (Math.abs(exp) <= 400) {
    const digits = intPart + fracPart;
    const point = intPart.length + exp; // digits before the decimal point
    const whole = point <= 0 ? '' : point >= digits.length ? digits + '0'.repeat(point - digits.length) : digits.slice(0, point);
    const fraction = point <= 0 ? digits : point >= digits.length ? '' : digits.slice(point);
    if (/^0*$/.test(fraction)) {
      const stripped = whole.replace(/^0+(?=[0-9])/, '') || '0';
      return integerOrDouble(stripped === '0' ? '0' : sign + stripped);
    }
  }
  return { text: doubleText(Number(raw)), integer: false };
}

/** Integers up to 38 digits stay exact (both engines have 128-bit integers); longer ones are doubles. */
function integerOrDouble(digits: string): ExactNumber {
  if (digits.replace('-', '').length <= 38) return { text: digits, integer: true };
  return { text: doubleText(Number(digits)), integer: false };
}

/**
 * The shortest text that reads back as the same double, with a `.` or exponent so it reads as a double;
 * `inf`/`-inf` beyond the double range (the dialects spell those).
 */
export function doubleText(d: number): string {
  if (!Number.isFinite(d)) return d > 0 ? 'inf' : '-inf';
  const s = String(d);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

/**
 * The two doubles around an integer of the filter that no double equals, or undefined when a double equals
 * it. Engines compare a double with an integer by rounding the integer to a double (DuckDB), where the language
 * compares exact values (docs/language.md, Numbers): `1700000000123456789.0` in a log line is the double
 * 1700000000123456768, which is below 1700000000123456789, not equal to it. No double lies strictly between
 * the two neighbours, so for a double d: d < n ⟺ d ≤ below, d > n ⟺ d ≥ above, and d = n never holds.
 */
export function doubleNeighbours(n: ExactNumber): { below: number; above: number } | undefined {
  if (!n.integer) return undefined;
  const exact = BigInt(n.text);
  const near = Number(n.text);
  if (!Number.isFinite(near) || BigInt(near) === exact) return undefined;
  const next = nextDouble(near, BigInt(near) < exact);
  return BigInt(near) < exact ? { below: near, above: next } : { below: next, above: near };
}

/** The next double above (`up`) or below a finite, non-zero double. */
function nextDouble(x: number, up: boolean): number {
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  bits[0]! += x > 0 === up ? 1n : -1n;
  return f[0]!;
}
