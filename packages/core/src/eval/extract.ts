/**
 * Reads only the top-level fields a filter uses from the raw bytes of one JSON object line, so the filter can
 * reject most candidate lines without `JSON.parse` of the whole line. Strings and containers are skipped byte by
 * byte; only the wanted values are decoded.
 *
 * Correct on valid JSON: the value of a wanted key is the one of its last occurrence (as with JSON.parse), keys
 * are compared after unescaping, nested objects are skipped whole. On invalid JSON the answer is arbitrary or
 * `undefined`, which is harmless: the caller only uses it to reject, and a line that is not valid JSON never
 * matches; lines the extractor lets through are fully parsed before they count as matches.
 */
import type { ByteDecode } from './bytes.js';

const QUOTE = 34;
const BACKSLASH = 92;

function isWs(b: number | undefined): boolean {
  return b === 32 || b === 9 || b === 10 || b === 13;
}

/**
 * Index of the quote closing the string whose opening quote is at `open`, or -1. A plain loop: strings in log
 * lines are short, and a native `indexOf` call per string costs more than the bytes it skips.
 */
function closeQuote(hay: Uint8Array, open: number, end: number): number {
  for (let i = open + 1; i < end; i++) {
    const c = hay[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  return -1;
}

/** End (exclusive) of the JSON value starting at `p`, or -1. */
function skipValue(hay: Uint8Array, p: number, end: number): number {
  const b = hay[p];
  if (b === QUOTE) {
    const q = closeQuote(hay, p, end);
    return q < 0 ? -1 : q + 1;
  }
  if (b === 123 || b === 91) {
    let depth = 0;
    while (p < end) {
      const c = hay[p]!;
      if (c === QUOTE) {
        const q = closeQuote(hay, p, end);
        if (q < 0) return -1;
        p = q + 1;
        continue;
      }
      if (c === 123 || c === 91) depth++;
      else if (c === 125 || c === 93) {
        depth--;
        if (depth === 0) return p + 1;
      }
      p++;
    }
    return -1;
  }
  while (p < end) {
    const c = hay[p]!;
    if (c === 44 || c === 125 || c === 93 || isWs(c)) break;
    p++;
  }
  return p;
}

export type Extractor = (hay: Uint8Array, start: number, end: number) => Record<string, unknown> | undefined;

export function createExtractor(fields: readonly string[], decode: ByteDecode): Extractor {
  const encoder = new TextEncoder();
  const byLength = new Map<number, Array<{ bytes: Uint8Array; index: number }>>();
  const byName = new Map<string, number>();
  fields.forEach((f, index) => {
    const bytes = encoder.encode(f);
    const list = byLength.get(bytes.length) ?? [];
    list.push({ bytes, index });
    byLength.set(bytes.length, list);
    byName.set(f, index);
  });
  const starts = new Int32Array(fields.length);
  const ends = new Int32Array(fields.length);

  const lookup = (hay: Uint8Array, ks: number, ke: number): number => {
    for (let i = ks; i < ke; i++) {
      if (hay[i] === BACKSLASH) {
        const text = decode(hay, ks - 1, ke + 1);
        if (text === null) return -2;
        try {
          return byName.get(JSON.parse(text) as string) ?? -1;
        } catch {
          return -2;
        }
      }
    }
    const list = byLength.get(ke - ks);
    if (!list) return -1;
    for (const { bytes, index } of list) {
      let j = 0;
      while (j < bytes.length && hay[ks + j] === bytes[j]) j++;
      if (j === bytes.length) return index;
    }
    return -1;
  };

  const value = (hay: Uint8Array, vs: number, ve: number): unknown => {
    const b = hay[vs];
    if (b === QUOTE) {
      let plain = true;
      for (let i = vs + 1; i < ve - 1; i++) {
        if (hay[i] === BACKSLASH) {
          plain = false;
          break;
        }
      }
      if (plain) return decode(hay, vs + 1, ve - 1) ?? undefined;
    } else if (b === 116 && ve - vs === 4) return true;
    else if (b === 102 && ve - vs === 5) return false;
    else if (b === 110 && ve - vs === 4) return null;
    const text = decode(hay, vs, ve);
    if (text === null) return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };

  return (hay, start, end) => {
    starts.fill(-1);
    let p = start;
    while (isWs(hay[p])) p++;
    if (hay[p] !== 123) return undefined;
    p++;
    while (isWs(hay[p])) p++;
    if (hay[p] !== 125) {
      for (;;) {
        while (isWs(hay[p])) p++;
        if (hay[p] !== QUOTE) return undefined;
        const q = closeQuote(hay, p, end);
        if (q < 0) return undefined;
        const index = lookup(hay, p + 1, q);
        if (index === -2) return undefined;
        p = q + 1;
        while (isWs(hay[p])) p++;
        if (hay[p] !== 58) return undefined;
        p++;
        while (isWs(hay[p])) p++;
        const vs = p;
        p = skipValue(hay, p, end);
        if (p < 0 || p === vs) return undefined;
        if (index >= 0) {
          starts[index] = vs;
          ends[index] = p;
        }
        while (isWs(hay[p])) p++;
        if (hay[p] === 44) {
          p++;
          continue;
        }
        if (hay[p] === 125) break;
        return undefined;
      }
    }
    const o: Record<string, unknown> = Object.create(null);
    for (let i = 0; i < fields.length; i++) {
      if (starts[i]! < 0) continue;
      const v = value(hay, starts[i]!, ends[i]!);
      if (v === undefined) return undefined;
      o[fields[i]!] = v;
    }
    return o;
  };
}
