/**
 * The filter's fields read from value spans of one line's bytes (found by the JS extractor or the WebAssembly
 * kernel): a row object whose fields decode only when a condition reads them, with the values JSON.parse
 * would give (small integers straight from their digits, any other number through JSON.parse of its token),
 * except that an integer beyond 2^53 is a bigint of its exact digits (exact.ts).
 */
import type { ByteDecode } from './bytes.js';
import { parseExact } from './exact.js';

const QUOTE = 34;
const ESCAPES = 1;

export interface Spans {
  /** Per field: start of its value in the line's bytes, or -1 when absent. */
  readonly starts: Int32Array;
  /** Per field: end (exclusive) of its value. */
  readonly ends: Int32Array;
  /** Per field: 1 when the value is a string holding escapes (decoded by JSON.parse). */
  readonly escaped: Uint8Array;
  /**
   * Per field: a hash of a short string value without escapes, 0 for none (the WebAssembly kernel gives them).
   * A field's strings are kept by hash, so a value seen before is found again instead of being decoded.
   */
  readonly hashes?: Int32Array;
  /**
   * The first index in `[from, to)` of the line's bytes where `needle` occurs, or -1; undefined for a needle it
   * does not search (the kernel's SIMD search over the loaded block, LineKernel.find).
   */
  find?(needle: Uint8Array, from: number, to: number): number | undefined;
}

/**
 * The value of `hay[vs, ve)` when it is an integer token of at most 15 digits (exact as a double, what
 * JSON.parse gives), else NaN.
 */
export function smallInteger(hay: Uint8Array, vs: number, ve: number): number {
  if (ve - vs > 16) return NaN;
  const minus = hay[vs] === 45;
  const first = minus ? vs + 1 : vs;
  if (first >= ve || ve - first > 15 || (hay[first] === 48 && ve - first > 1)) return NaN;
  let n = 0;
  for (let i = first; i < ve; i++) {
    const d = hay[i]! - 48;
    if (d < 0 || d > 9) return NaN;
    n = n * 10 + d;
  }
  return minus ? -n : n;
}

/** Strings kept per field: enough for the values of a low-cardinality field (countries, methods, statuses). */
const KEPT_STRINGS = 4096;

/** True when `s` (ASCII) spells exactly the bytes hay[start, end). */
function spells(s: string, hay: Uint8Array, start: number, end: number): boolean {
  if (s.length !== end - start) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== hay[start + i]) return false;
  return true;
}

/**
 * The row of the current spans over `hay`; undefined when a value cannot be decoded (not valid JSON). `decode`
 * replaces the row's decoder for this line (a faster one once the line is known to be valid UTF-8).
 */
export type SpanRow = (hay: Uint8Array, decode?: ByteDecode) => Record<string, unknown> | undefined;

export function createSpanRow(fields: readonly string[], ownDecode: ByteDecode, spans: Spans): SpanRow {
  const { starts, ends, escaped, hashes } = spans;
  const kept = fields.map(() => new Map<number, string>());
  let decode = ownDecode;
  // Plain objects get one hidden class per set of present fields (fast property reads in the conditions);
  // a `__proto__` field needs an object without prototype to be stored as an own property.
  const bare = fields.includes('__proto__');

  const value = (hay: Uint8Array, vs: number, ve: number, flags: number, field: number): unknown => {
    const b = hay[vs]!;
    if (b === QUOTE) {
      const hash = hashes === undefined ? 0 : hashes[field]!;
      if (hash !== 0) {
        // Only ASCII strings are kept (as many UTF-16 units as bytes), so they compare byte for unit.
        const known = kept[field]!.get(hash);
        if (known !== undefined && spells(known, hay, vs + 1, ve - 1)) return known;
        const s = decode(hay, vs + 1, ve - 1);
        if (s === null) return undefined;
        if (s.length === ve - vs - 2 && kept[field]!.size < KEPT_STRINGS) kept[field]!.set(hash, s);
        return s;
      }
      if ((flags & ESCAPES) === 0) return decode(hay, vs + 1, ve - 1) ?? undefined;
    } else if (b === 116 && ve - vs === 4) return true;
    else if (b === 102 && ve - vs === 5) return false;
    else if (b === 110 && ve - vs === 4) return null;
    else {
      // A small integer straight from its digits; anything else through JSON.parse.
      const n = smallInteger(hay, vs, ve);
      if (n === n) return n;
    }
    const text = decode(hay, vs, ve);
    if (text === null) return undefined;
    try {
      // an integer beyond 2^53 (alone or in an array) keeps its digits (exact.ts)
      return parseExact(text);
    } catch {
      return undefined;
    }
  };

  /**
   * The common case: one reused row whose fields are getters decoding the current line's value when first
   * read (a field that several conditions test is decoded once per line), so a condition that short-circuits
   * its siblings spares their decoding. (Not for field names that Object.prototype has: the conditions look
   * those up as own properties.) A value that cannot be decoded reads as absent; its line is not valid JSON,
   * so it could not match anyway.
   */
  let current: Uint8Array = new Uint8Array(0);
  /** The row's line number; a field's cached value is good while its stamp equals it. */
  let line = 0;
  const stamps = new Float64Array(fields.length);
  const cached: unknown[] = new Array(fields.length).fill(undefined);
  const lazy: Record<string, unknown> | undefined = fields.some((f) => f in Object.prototype) ? undefined : Object.create(null);
  if (lazy) {
    fields.forEach((f, i) =>
      Object.defineProperty(lazy, f, {
        get: () => {
          if (stamps[i] === line) return cached[i];
          const v = starts[i]! < 0 ? undefined : value(current, starts[i]!, ends[i]!, escaped[i]!, i);
          stamps[i] = line;
          cached[i] = v;
          return v;
        },
        enumerable: true,
      }),
    );
  }

  return (hay, lineDecode) => {
    decode = lineDecode ?? ownDecode;
    if (lazy) {
      current = hay;
      line++;
      return lazy;
    }
    const o: Record<string, unknown> = bare ? Object.create(null) : {};
    for (let i = 0; i < fields.length; i++) {
      if (starts[i]! < 0) continue;
      const v = value(hay, starts[i]!, ends[i]!, escaped[i]!, i);
      if (v === undefined) return undefined;
      o[fields[i]!] = v;
    }
    return o;
  };
}
