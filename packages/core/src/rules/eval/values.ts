/**
 * Values of the rules language as the evaluator holds them. Strings are bytes: a "binary string" whose every
 * UTF-16 unit is one byte (0-255), so byte lengths, byte indexes and byte comparisons are the string's own.
 * Integers are bigint (64-bit signed), IP addresses the literals' IpValue, arrays JS arrays, maps Map with
 * byte-string keys. `undefined` is a missing value (an absent map key, an index past the end): every
 * comparison with it is false and most functions pass it on, as the documentation says.
 */
import type { IpValue } from '../literals.js';
import type { RuleType } from '../types.js';

export interface Bytes {
  b: string;
}
export type RuleValue = Bytes | bigint | boolean | IpValue | RuleValue[] | Map<string, RuleValue | undefined> | undefined;

const encoder = new TextEncoder();
const fatal = new TextDecoder('utf-8', { fatal: true });

export const bytes = (b: string): Bytes => ({ b });

/** A JS string (UTF-16) as its UTF-8 bytes. */
export function utf8(s: string): Bytes {
  const u = encoder.encode(s);
  let b = '';
  for (let i = 0; i < u.length; i += 0x8000) b += String.fromCharCode(...u.subarray(i, i + 0x8000));
  return { b };
}

/** Bytes as text: UTF-8 when they are, else one character per byte. */
export function text(v: Bytes): string {
  const u = new Uint8Array(v.b.length);
  for (let i = 0; i < v.b.length; i++) u[i] = v.b.charCodeAt(i);
  try {
    return fatal.decode(u);
  } catch {
    return v.b;
  }
}

export const isBytes = (v: RuleValue): v is Bytes => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && 'b' in v;
export const isIp = (v: RuleValue): v is IpValue => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && 'v6' in v;

export function ipText(ip: IpValue): string {
  if (!ip.v6) return ip.bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i]! << 8) | ip.bytes[i + 1]!).toString(16));
  // the longest run of zero groups becomes ::
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** The value for display (`--explain`, `--json`). */
export function show(v: RuleValue): string {
  if (v === undefined) return '(missing)';
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(show).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${JSON.stringify(text({ b: k }))}: ${show(x)}`).join(', ')}}`;
  if (isIp(v)) return ipText(v);
  return JSON.stringify(text(v));
}

/** The value a field has when the request does not give it (the engine's defaults). */
export function defaultValue(t: RuleType): RuleValue {
  if (t === 'Bytes') return bytes('');
  if (t === 'Int') return 0n;
  if (t === 'Bool') return false;
  if (t === 'Ip') return undefined;
  return 'array' in t ? [] : new Map();
}
