/** Small helpers on AST values shared by the checker, compiler and printer. */
import type { ScalarValue, Value } from '../ast.js';

export { isNumericString, numericValue } from '../../lang/json-number.js';

/**
 * Canonical JSON text of an integer literal: exact digits (beyond 2^53 too), without the leading zeros
 * JSON forbids.
 */
export function canonicalInt(raw: string): string {
  const neg = raw.startsWith('-');
  const digits = (neg ? raw.slice(1) : raw).replace(/^0+(?=[0-9])/, '');
  return neg ? `-${digits}` : digits;
}

/** Exponents past this are refused by `decompile` (`1e400` is not a number any log line holds). */
export const MAX_EXPONENT = 1000;

/** The exponent of a JSON number (`1.5e-7` → -7), 0 without one. */
export function exponentOf(raw: string): number {
  const e = raw.search(/[eE]/);
  return e < 0 ? 0 : Number(raw.slice(e + 1));
}

/**
 * A JSON number with an exponent written out as a decimal (`1e2` → `100.0`, `1.5e-7` → `0.00000015`), digit by
 * digit so no precision is lost: the language has no exponent form, and a filter read from JSON must print as
 * source that compiles back to the same value.
 */
export function expandExponent(raw: string): string {
  const e = raw.search(/[eE]/);
  if (e < 0) return raw;
  const neg = raw.startsWith('-');
  const mantissa = raw.slice(neg ? 1 : 0, e);
  const exp = Number(raw.slice(e + 1));
  const [int, frac = ''] = mantissa.split('.');
  // Beyond the limit the digits are not written out (1e900000000 would be a gigabyte): a short canonical form.
  if (!(Math.abs(exp) <= MAX_EXPONENT)) return scientific(neg, int, frac, raw.slice(e + 1));
  const digits = int + frac;
  const point = int.length + exp; // position of the decimal point within `digits`
  let whole: string;
  let fraction: string;
  if (point <= 0) {
    whole = '0';
    fraction = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    whole = digits + '0'.repeat(point - digits.length);
    fraction = '';
  } else {
    whole = digits.slice(0, point);
    fraction = digits.slice(point);
  }
  whole = whole.replace(/^0+(?=[0-9])/, '');
  fraction = fraction.replace(/0+$/, '');
  return `${neg ? '-' : ''}${whole}.${fraction || '0'}`;
}

/**
 * `0.DIGITS e POINT` with neither leading nor trailing zeros in DIGITS: one text per value however it was spelled
 * (`10e2000` and `1.0e2001` agree), so duplicate detection still works. The exponent is exact (a bigint).
 */
function scientific(neg: boolean, int: string, frac: string, exponent: string): string {
  let digits = int + frac;
  let point = BigInt(int.length) + BigInt(exponent);
  const lead = /^0*/.exec(digits)![0].length;
  digits = digits.slice(lead).replace(/0+$/, '');
  point -= BigInt(lead);
  if (digits === '') return '0.0';
  return `${neg ? '-' : ''}0.${digits}e${point}`;
}

export function canonicalFloat(raw: string): string {
  if (/[eE]/.test(raw)) return expandExponent(raw);
  const neg = raw.startsWith('-');
  const [i, f] = (neg ? raw.slice(1) : raw).split('.');
  const int = i.replace(/^0+(?=[0-9])/, '');
  return `${neg ? '-' : ''}${int}${f !== undefined ? `.${f}` : ''}`;
}

/** JSON text of a scalar (also its source spelling: the language's literals are JSON literals). */
export function printScalar(v: ScalarValue | Value): string {
  switch (v.kind) {
    case 'string':
      return JSON.stringify(v.value);
    case 'int':
      return canonicalInt(v.raw);
    case 'float':
      return canonicalFloat(v.raw);
    case 'bool':
      return v.value ? 'true' : 'false';
    case 'list':
      return `[${v.items.map(printScalar).join(',')}]`;
  }
}

/** A key identifying a value for duplicate detection (type and exact text). */
export function valueKey(v: Value): string {
  return v.kind === 'list' ? `[${v.items.map(valueKey).join(',')}]` : `${v.kind}:${printScalar(v)}`;
}
