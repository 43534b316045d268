/**
 * The text of a JSON string that holds escapes, as UTF-8 bytes, decoded from the line's bytes without building
 * a JS string: a string condition whose span decision is on bytes (span-decision.ts) then tests the decoded
 * bytes as it tests an unescaped value's, instead of JSON.parse of the token and a string test. Go's encoder
 * writes `&`, `<`, `>` as \u0026, \u003c, \u003e, so URLs, referers and user agents of real exports often hold
 * escapes.
 *
 * Only for a string the line kernel accepted (its escapes are well-formed). The decoded text is exact UTF-8
 * unless it holds a lone surrogate (a \uD800-\uDFFF escape not in a pair), which UTF-8 cannot spell: then
 * the caller decodes the value as a JS string instead.
 */

const BACKSLASH = 92;
const SHORT: Record<number, number> = { 34: 34, 92: 92, 47: 47, 98: 8, 102: 12, 110: 10, 114: 13, 116: 9 };
/** The byte a short escape's letter stands for (index: the letter), 0 for none. */
const SHORT_TABLE = new Uint8Array(128);
for (const [k, v] of Object.entries(SHORT)) SHORT_TABLE[Number(k)] = v;

function hex4(hay: Uint8Array, p: number): number {
  let n = 0;
  for (let i = p; i < p + 4; i++) {
    const c = hay[i]!;
    const d = c <= 57 ? c - 48 : (c | 0x20) - 87;
    n = (n << 4) | d;
  }
  return n;
}

/** A reusable decoder: `decode(hay, vs, ve)` writes the text of the string content `hay[vs, ve)` into `bytes`. */
export interface Unescaper {
  /** The decoded bytes' length in `bytes`, or -1 when the text holds a lone surrogate. */
  decode(hay: Uint8Array, vs: number, ve: number): number;
  /** The scratch buffer (replaced when a longer string needs room: read it after `decode`). */
  bytes: Uint8Array;
}

export function createUnescaper(): Unescaper {
  const u: Unescaper = {
    bytes: new Uint8Array(256),
    decode(hay, vs, ve) {
      // the decoded text is never longer than its escaped form
      if (u.bytes.length < ve - vs) u.bytes = new Uint8Array(Math.max(ve - vs, u.bytes.length * 2));
      const out = u.bytes;
      let o = 0;
      let p = vs;
      while (p < ve) {
        const c = hay[p]!;
        if (c !== BACKSLASH) {
          out[o++] = c;
          p++;
          continue;
        }
        const e = hay[p + 1]!;
        if (e !== 117) {
          out[o++] = SHORT_TABLE[e]!;
          p += 2;
          continue;
        }
        let cp = hex4(hay, p + 2);
        p += 6;
        if (cp >= 0xd800 && cp <= 0xdfff) {
          // a high surrogate followed by an escaped low one is one astral character; anything else is lone
          if (cp > 0xdbff || p + 6 > ve || hay[p] !== BACKSLASH || hay[p + 1] !== 117) return -1;
          const lo = hex4(hay, p + 2);
          if (lo < 0xdc00 || lo > 0xdfff) return -1;
          cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
          p += 6;
        }
        if (cp < 0x80) out[o++] = cp;
        else if (cp < 0x800) {
          out[o++] = 0xc0 | (cp >> 6);
          out[o++] = 0x80 | (cp & 63);
        } else if (cp < 0x10000) {
          out[o++] = 0xe0 | (cp >> 12);
          out[o++] = 0x80 | ((cp >> 6) & 63);
          out[o++] = 0x80 | (cp & 63);
        } else {
          out[o++] = 0xf0 | (cp >> 18);
          out[o++] = 0x80 | ((cp >> 12) & 63);
          out[o++] = 0x80 | ((cp >> 6) & 63);
          out[o++] = 0x80 | (cp & 63);
        }
      }
      return o;
    },
  };
  return u;
}
