/**
 * What the bytes of one condition's value decide on the line kernel's spans (span-conditions.ts tests them;
 * its file comment says on which lines). Only for a line the kernel found VALID, so its bytes are valid UTF-8
 * and its strings are JSON:
 * - `digits`: `lt`, `leq`, `gt`, `geq` on an integer token of at most 15 digits, compared from its digits.
 * - `startsWith`, `endsWith`, `contains` (and `!` forms) on a string without escapes, whose bytes are then the
 *   UTF-8 of its text. With a filter text that is well-formed UTF-16 (no lone surrogate), a byte prefix, suffix
 *   or substring of valid UTF-8 is exactly a UTF-16 one: both sides are whole characters, and UTF-8 is
 *   self-synchronizing (a match starts on a lead byte and ends after a complete character).
 * - `equals`: `eq`, `in` (and `!` forms) whose members are all non-numeric, well-formed strings, on a string
 *   without escapes: byte equality with a member's UTF-8 (such a member equals no log number, equalsTo in
 *   values.ts).
 */
import type { FilterValue } from '../filter/filter.js';
import type { OperatorInfo } from '../filter/operators.js';
import { asList, asScalar, asText, isNumericString } from './values.js';

export type SpanDecision =
  | { readonly kind: 'digits' }
  | { readonly kind: 'startsWith' | 'endsWith' | 'contains'; readonly needle: Uint8Array }
  | { readonly kind: 'equals'; readonly members: readonly Uint8Array[] };

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

/** What the value's bytes decide for this operator and filter value; undefined when the value must be decoded. */
export function spanDecision(info: OperatorInfo, value: FilterValue): SpanDecision | undefined {
  const op = info.positive;
  switch (op) {
    case 'lt':
    case 'leq':
    case 'gt':
    case 'geq':
      return info.negative ? undefined : { kind: 'digits' };
    case 'startsWith':
    case 'endsWith':
    case 'contains': {
      const text = asText(value);
      return wellFormed(text) ? { kind: op, needle: encoder.encode(text) } : undefined;
    }
    case 'eq':
    case 'in': {
      const list = op === 'eq' ? [asScalar(value)] : asList(value);
      const members: Uint8Array[] = [];
      for (const m of list) {
        if (typeof m !== 'string' || isNumericString(m) || !wellFormed(m)) return undefined;
        members.push(encoder.encode(m));
      }
      return { kind: 'equals', members };
    }
  }
  return undefined;
}
