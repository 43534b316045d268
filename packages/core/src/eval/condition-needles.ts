/**
 * The literals one condition gives the prefilter (needles.ts puts a filter's together): text that the raw line
 * must contain, as a JSON token or part of one, for the condition to hold.
 *
 * Why a needle is necessary: a positive string condition holds only when some JSON string token decodes to a
 * value built from the filter text (`eq "s"` needs a token `"s"`, `startsWith` its prefix `"s`, `endsWith` its
 * suffix `s"`, `contains` the text `s`). That token either spells the text literally, or uses an escape
 * (`\u0026`, `\/`, `\"`...) for one of the text's characters (the needle's `inner` characters, whose escapes
 * the prefilter also looks for).
 *
 * Conditions that give no needle: every `!` operator (true on absent fields), comparisons, and equality with
 * numbers or numeric strings (a number has many spellings: `30`, `3e1`, `30.0`).
 */
import type { FilterValue } from '../filter/filter.js';
import type { OperatorInfo } from '../filter/operators.js';
import { asList, asScalar, isNumericString, type EvalScalar } from './values.js';

export interface Needle {
  text: string;
  /** The characters of the filter text inside the needle (not the quotes around it). */
  inner: string;
}

/**
 * Text that a needle can carry literally: no quote, backslash or control character (these are always escaped
 * in JSON, so their spelling is not fixed), and well-formed UTF-16 (a lone surrogate has no UTF-8 spelling).
 */
function literalSafe(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c) return false;
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (!(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return false;
  }
  return true;
}

/** The needle for one scalar that a token must equal exactly (`eq`, `in`, array elements). */
/** (A number, double or bigint, has many spellings: no needle.) */
function tokenNeedle(v: EvalScalar): Needle | null {
  if (typeof v === 'boolean') return { text: String(v), inner: '' };
  if (typeof v === 'string' && !isNumericString(v) && literalSafe(v)) return { text: `"${v}"`, inner: v };
  return null;
}

/** The needles of a condition (one of them must occur), or null when it gives none. */
export function conditionNeedles(info: OperatorInfo, value: FilterValue): Needle[] | null {
  if (info.negative) return null;
  switch (info.name) {
    case 'eq': {
      const n = tokenNeedle(asScalar(value));
      return n ? [n] : null;
    }
    case 'in': {
      const out: Needle[] = [];
      for (const m of asList(value)) {
        const n = tokenNeedle(m);
        if (!n) return null;
        out.push(n);
      }
      return out.length > 0 ? out : null;
    }
    case 'startsWith':
    case 'endsWith':
    case 'contains': {
      const v = asScalar(value);
      if (typeof v !== 'string' && !(info.name === 'contains' && typeof v === 'boolean')) return null;
      const s = String(v);
      // A numeric text can equal an array element written as a number in any spelling.
      if (s === '' || !literalSafe(s) || (info.name === 'contains' && isNumericString(s))) return null;
      if (info.name === 'startsWith') return [{ text: `"${s}`, inner: s }];
      if (info.name === 'endsWith') return [{ text: `${s}"`, inner: s }];
      return [{ text: s, inner: s }];
    }
    default:
      return null;
  }
}
