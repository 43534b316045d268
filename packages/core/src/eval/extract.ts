/**
 * Reads only the top-level fields a filter uses from the raw bytes of one JSON object line, so the filter can
 * reject most lines without `JSON.parse` of the whole line. The scanner uses it where the WebAssembly line
 * kernel cannot run, and for lines the kernel validated but whose keys are spelled with escapes. One pass over
 * the line: strings are skipped to their next unescaped quote, nested values by bracket depth, keys are compared
 * only when their length is that of a wanted key, and only the wanted values are decoded (span-values.ts).
 *
 * Correct on valid JSON: the value of a wanted key is the one of its last occurrence (as with JSON.parse), keys
 * are compared after unescaping, nested objects are skipped whole. On invalid JSON the answer is arbitrary or
 * `undefined`, which is harmless: the caller only uses it to reject, and a line that is not valid JSON never
 * matches; lines the extractor lets through are fully parsed before they count as matches.
 */
import type { ByteDecode } from './bytes.js';
import { createSpanRow } from './span-values.js';

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

export type Extractor = (hay: Uint8Array, start: number, end: number) => Record<string, unknown> | undefined;

export function createExtractor(fields: readonly string[], decode: ByteDecode): Extractor {
  const encoder = new TextEncoder();
  const keys = fields.map((f) => encoder.encode(f));
  const maxLength = keys.reduce((m, k) => Math.max(m, k.length), 0);
  // Wanted keys by byte length: most keys of a line are rejected by one array read.
  const byLength: Array<number[] | undefined> = new Array(maxLength + 1).fill(undefined);
  keys.forEach((k, i) => (byLength[k.length] ??= []).push(i));
  const byName = new Map(fields.map((f, i) => [f, i]));
  const starts = new Int32Array(fields.length);
  const ends = new Int32Array(fields.length);
  const escapedValue = new Uint8Array(fields.length);
  const row = createSpanRow(fields, decode, { starts, ends, escaped: escapedValue });

  /** Set by closeQuote: whether the string just skipped holds a backslash. */
  let sawEscape = false;
  /** Index of the quote closing the string whose content starts at `i`, or -1. */
  const closeQuote = (hay: Uint8Array, i: number, end: number): number => {
    sawEscape = false;
    for (; i < end; i++) {
      const c = hay[i]!;
      if (c === QUOTE) return i;
      if (c === BACKSLASH) {
        sawEscape = true;
        i++;
      }
    }
    return -1;
  };

  /**
   * Index of the quote closing the string whose content starts at `i`, or -1, for a value nobody reads (its
   * escapes do not matter). A plain loop: most strings in log lines are short, and a native search per string
   * measured no faster than walking it.
   */
  const skipString = (hay: Uint8Array, i: number, end: number): number => {
    for (; i < end; i++) {
      const c = hay[i]!;
      if (c === QUOTE) return i;
      if (c === BACKSLASH) i++;
    }
    return -1;
  };

  /** End (exclusive) of the array or object starting at `p`, or -1. */
  const skipContainer = (hay: Uint8Array, p: number, end: number): number => {
    let depth = 0;
    while (p < end) {
      const c = hay[p]!;
      if (c === QUOTE) {
        const q = closeQuote(hay, p + 1, end);
        if (q < 0) return -1;
        p = q + 1;
        continue;
      }
      if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
      else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (--depth === 0) return p + 1;
      }
      p++;
    }
    return -1;
  };

  /** The wanted field a key spells, -1 for none, -2 when the key cannot be read. */
  const lookup = (hay: Uint8Array, ks: number, ke: number, escaped: boolean): number => {
    if (escaped) {
      const text = decode(hay, ks - 1, ke + 1);
      if (text === null) return -2;
      try {
        return byName.get(JSON.parse(text) as string) ?? -1;
      } catch {
        return -2;
      }
    }
    const length = ke - ks;
    if (length > maxLength) return -1;
    const candidates = byLength[length];
    if (candidates === undefined) return -1;
    for (let c = 0; c < candidates.length; c++) {
      const index = candidates[c]!;
      const key = keys[index]!;
      let j = 0;
      while (j < length && hay[ks + j] === key[j]) j++;
      if (j === length) return index;
    }
    return -1;
  };

  return (hay, start, end) => {
    starts.fill(-1);
    let p = start;
    let c = hay[p];
    while (c === 32 || c === 9 || c === 13) c = hay[++p];
    if (c !== OPEN_OBJECT) return undefined;
    c = hay[++p];
    while (c === 32 || c === 9 || c === 13) c = hay[++p];
    if (c !== CLOSE_OBJECT) {
      for (;;) {
        while (c === 32 || c === 9 || c === 13) c = hay[++p];
        if (c !== QUOTE) return undefined;
        const q = closeQuote(hay, p + 1, end);
        if (q < 0) return undefined;
        const index = lookup(hay, p + 1, q, sawEscape);
        if (index === -2) return undefined;
        p = q + 1;
        c = hay[p];
        while (c === 32 || c === 9 || c === 13) c = hay[++p];
        if (c !== COLON) return undefined;
        c = hay[++p];
        while (c === 32 || c === 9 || c === 13) c = hay[++p];
        const vs = p;
        let escaped = false;
        if (c === QUOTE) {
          if (index >= 0) {
            const e = closeQuote(hay, p + 1, end);
            if (e < 0) return undefined;
            escaped = sawEscape;
            p = e + 1;
          } else {
            const e = skipString(hay, p + 1, end);
            if (e < 0) return undefined;
            p = e + 1;
          }
        } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
          p = skipContainer(hay, p, end);
          if (p < 0) return undefined;
        } else {
          while (p < end) {
            c = hay[p];
            if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === 32 || c === 9 || c === 13 || c === 10) break;
            p++;
          }
          if (p === vs) return undefined;
        }
        if (index >= 0) {
          starts[index] = vs;
          ends[index] = p;
          escapedValue[index] = escaped ? 1 : 0;
        }
        c = hay[p];
        while (c === 32 || c === 9 || c === 13) c = hay[++p];
        if (c === COMMA) {
          c = hay[++p];
          continue;
        }
        if (c === CLOSE_OBJECT) break;
        return undefined;
      }
    }
    return row(hay);
  };
}
