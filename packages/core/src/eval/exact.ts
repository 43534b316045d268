/**
 * Integers beyond 2^53 read exactly. A double holds every integer up to 2^53; past it (nanosecond timestamps,
 * 64-bit IDs) JSON.parse rounds to the nearest double, so two timestamps 100 ns apart can read as equal. The
 * evaluator holds such an integer as a bigint instead, from the filter document's text and from the line's
 * raw digits (docs/language.md#evaluation). JSON.parse stays the fast path: a value is re-read from its text
 * only when JSON.parse gave an integer it could have rounded.
 */
import type { FilterDocument } from '../filter/filter.js';
import { JSON_INTEGER } from '../lang/json-number.js';
import { expectText } from '../lang/guards.js';

/** The exact value of a JSON number token: a bigint for an integer a double cannot hold, else the double. */
export function exactNumber(raw: string): number | bigint {
  const n = Number(raw);
  if (Number.isSafeInteger(n) || raw.length < 16 || !JSON_INTEGER.test(raw)) return n;
  return BigInt(raw);
}

/** True when JSON.parse may have rounded an integer in `v` (an integer-valued double beyond 2^53). */
function lossy(v: unknown): boolean {
  if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v);
  if (typeof v !== 'object' || v === null) return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (lossy(v[i])) return true;
    return false;
  }
  for (const k in v) if (Object.prototype.hasOwnProperty.call(v, k) && lossy((v as Record<string, unknown>)[k])) return true;
  return false;
}

/** Strings and the integer tokens long enough to be beyond 2^53 (in valid JSON, so strings are skipped whole). */
const TOKENS = /"(?:[^"\\]|\\.)*"|-?[1-9][0-9]{15,}(?![.eE0-9])/g;

/**
 * `text` (valid JSON: JSON.parse took it) read again with its long integers exact: each is written as a string
 * carrying a fresh random tag, which the reviver turns into the number's exact value. (A reviver keeps
 * JSON.parse's own rules: the last duplicate key wins, `__proto__` becomes an own property.)
 */
function reread(text: string): unknown {
  const nonce = Math.random().toString(36).slice(2);
  // in the JSON text the escape `\u0000` (a raw NUL is not allowed in a JSON string); decoded, a NUL
  const marked = text.replace(TOKENS, (t) => (t.charCodeAt(0) === 34 ? t : `"\\u0000${nonce}:${t}"`));
  const prefix = `\u0000${nonce}:`;
  return JSON.parse(marked, (_key, v: unknown) => (typeof v === 'string' && v.startsWith(prefix) ? exactNumber(v.slice(prefix.length)) : v));
}

/**
 * JSON.parse(text) (throwing as it does), with the integers beyond 2^53 exact: in the whole value, or, given
 * `fields`, in those properties of a top-level object (the only ones a filter reads).
 */
export function parseExact(text: string, fields?: readonly string[]): unknown {
  const v: unknown = JSON.parse(text);
  if (fields !== undefined && typeof v === 'object' && v !== null && !Array.isArray(v)) {
    let any = false;
    for (let i = 0; i < fields.length && !any; i++) {
      const f = fields[i]!;
      if (Object.prototype.hasOwnProperty.call(v, f) && lossy((v as Record<string, unknown>)[f])) any = true;
    }
    if (!any) return v;
  } else if (!lossy(v)) return v;
  const exact = reread(text);
  return exact === undefined ? v : exact;
}

/**
 * A filter document from its JSON text (compile's `json`, or a filter file), its integers beyond 2^53 held as
 * bigint so the evaluator compares them exactly; the document objects of compile and decompile hold doubles.
 * For evaluation only: JSON.stringify refuses a bigint, so send the text itself to the API.
 */
export function exactFilter(json: string): FilterDocument {
  // JSON.parse of an object reads "[object Object]": say what to pass instead
  expectText(json, 'exactFilter', 'filter JSON text', typeof json === 'object' && json !== null ? ' (a filter document is used as it is)' : json === undefined ? ' (compile(...).json is undefined when ok is false)' : '');
  return parseExact(json) as FilterDocument;
}
