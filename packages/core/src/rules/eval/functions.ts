/**
 * What each function of the rules language computes, one entry per function of the checker's table
 * (functions.ts). Arguments arrive evaluated; a function returns `undefined` (missing) when an input it needs
 * is missing, as the documentation says most functions do. Semantics are the documentation's, its examples
 * are the tests (packages/core/test/rules/eval-functions.test.ts). An entry throws EvalProblem for what
 * cannot be computed offline (a JWT validated by a token configuration).
 */
import type { IpValue } from '../literals.js';
import { parseJson, type JsonValue } from '../../lang/located-json.js';
import { compileRegex } from './regex.js';
import { hmacSha256, sha256 } from './sha256.js';
import { bytes, type Bytes, isBytes, isIp, ipText, type RuleValue, text, utf8 } from './values.js';
import { wildcardCaptures } from './wildcard.js';

export class EvalProblem extends Error {}

type Fn = (args: RuleValue[]) => RuleValue;

const B = (v: RuleValue): string | undefined => (isBytes(v) ? v.b : undefined);
const I = (v: RuleValue): bigint | undefined => (typeof v === 'bigint' ? v : undefined);

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());
const asciiUpper = (s: string) => s.replace(/[a-z]/g, (c) => c.toUpperCase());

function jsonLookup(args: RuleValue[]): JsonValue | undefined {
  const doc = B(args[0]);
  if (doc === undefined) return undefined;
  let node = parseJson(text(bytes(doc))).value;
  for (const key of args.slice(1)) {
    if (!node) return undefined;
    if (typeof key === 'bigint') node = node.type === 'array' ? node.items[Number(key)] : undefined;
    else if (isBytes(key)) node = node.type === 'object' ? node.properties.filter((p) => p.key.value === text(key)).at(-1)?.value : undefined;
    else return undefined;
  }
  return node;
}

function percentDecode(s: string, unicode: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '+') out += ' ';
    else if (c === '%' && unicode && (s[i + 1] === 'u' || s[i + 1] === 'U') && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
      out += utf8(String.fromCodePoint(parseInt(s.slice(i + 2, i + 6), 16))).b;
      i += 5;
    } else if (c === '%' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      out += String.fromCharCode(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else out += c;
  }
  return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Encode(s: string, urlSafe: boolean, pad: boolean): string {
  let out = '';
  for (let i = 0; i < s.length; i += 3) {
    const n = (s.charCodeAt(i) << 16) | ((s.charCodeAt(i + 1) || 0) << 8) | (s.charCodeAt(i + 2) || 0);
    const chunk = [B64[(n >> 18) & 63], B64[(n >> 12) & 63], B64[(n >> 6) & 63], B64[n & 63]].join('');
    const keep = Math.min(4, s.length - i + 1);
    out += chunk.slice(0, keep) + (pad ? '='.repeat(4 - keep) : '');
  }
  return urlSafe ? out.replace(/\+/g, '-').replace(/\//g, '_') : out;
}

function base64Decode(s: string): string | undefined {
  const clean = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]*$/.test(clean) || clean.length % 4 === 1) return undefined;
  let out = '';
  for (let i = 0; i < clean.length; i += 4) {
    const q = [...clean.slice(i, i + 4)].map((c) => B64.indexOf(c));
    const n = (q[0]! << 18) | ((q[1] ?? 0) << 12) | ((q[2] ?? 0) << 6) | (q[3] ?? 0);
    out += String.fromCharCode((n >> 16) & 255);
    if (q.length > 2) out += String.fromCharCode((n >> 8) & 255);
    if (q.length > 3) out += String.fromCharCode(n & 255);
  }
  return out;
}

function network(ip: IpValue, bits: number): IpValue {
  const out = ip.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
  return { v6: ip.v6, bytes: out };
}

/** `${n}` references and `$$` of a replacement, from the groups of a match. */
function substitute(replacement: string, group: (n: number) => string | undefined): string {
  return replacement.replace(/\$\$|\$\{([0-9]+)\}/g, (all, n: string | undefined) => (n === undefined ? '$' : (group(Number(n)) ?? '')));
}

export const EVAL_FUNCTIONS: Record<string, Fn> = {
  concat: (args) => {
    const present = args.filter((a) => a !== undefined);
    if (present.length === 0) return undefined;
    if (Array.isArray(present[0])) return present.flatMap((a) => (Array.isArray(a) ? a : []));
    return bytes(present.map((a) => B(a) ?? '').join(''));
  },
  starts_with: ([s, p]) => (B(s) === undefined || B(p) === undefined ? undefined : B(s)!.startsWith(B(p)!)),
  ends_with: ([s, p]) => (B(s) === undefined || B(p) === undefined ? undefined : B(s)!.endsWith(B(p)!)),
  len: ([v]) => (Array.isArray(v) ? BigInt(v.length) : isBytes(v) ? BigInt(v.b.length) : undefined),
  lower: ([v]) => (isBytes(v) ? bytes(asciiLower(v.b)) : undefined),
  upper: ([v]) => (isBytes(v) ? bytes(asciiUpper(v.b)) : undefined),
  lookup_json_string: (args) => {
    const n = jsonLookup(args);
    return n?.type === 'string' ? utf8(n.value) : undefined;
  },
  lookup_json_integer: (args) => {
    const n = jsonLookup(args);
    if (n?.type !== 'number' || !n.integer) return undefined;
    const v = BigInt(n.raw);
    return v >= -(1n << 63n) && v < 1n << 63n ? v : undefined;
  },
  substring: ([v, start, end]) => {
    const s = B(v);
    const a = I(start);
    if (s === undefined || a === undefined) return undefined;
    const at = (n: bigint) => Math.max(0, Math.min(s.length, n < 0n ? s.length + Number(n) : Number(n)));
    const e = I(end);
    const from = at(a);
    const to = e === undefined ? s.length : at(e);
    return bytes(to > from ? s.slice(from, to) : '');
  },
  url_decode: ([v, options]) => {
    const s = B(v);
    if (s === undefined) return undefined;
    const opts = B(options) ?? '';
    let out = percentDecode(s, opts.includes('u'));
    if (opts.includes('r')) {
      for (let i = 0; i < 64; i++) {
        const next = percentDecode(out, opts.includes('u'));
        if (next === out) break;
        out = next;
      }
    }
    return bytes(out);
  },
  remove_bytes: ([v, remove]) => {
    const s = B(v);
    const r = B(remove);
    if (s === undefined || r === undefined) return undefined;
    const set = new Set(r);
    return bytes([...s].filter((c) => !set.has(c)).join(''));
  },
  has_key: ([m, k]) => (m instanceof Map && isBytes(k) ? m.has(k.b) : undefined),
  has_value: ([c, v]) => {
    if (v === undefined) return undefined;
    const items = Array.isArray(c) ? c : c instanceof Map ? [...c.values()] : undefined;
    if (!items) return undefined;
    return items.some((x) => same(x, v));
  },
  join: ([items, sep]) => {
    const s = B(sep);
    if (!Array.isArray(items) || s === undefined) return undefined;
    return bytes(items.map((x) => B(x) ?? '').join(s));
  },
  split: ([input, sep, limit]) => {
    const s = B(input);
    const p = B(sep);
    const n = I(limit);
    if (s === undefined || p === undefined || n === undefined || p === '') return undefined;
    const parts = s.split(p);
    const max = Number(n);
    const out = parts.length > max ? [...parts.slice(0, max - 1), parts.slice(max - 1).join(p)] : parts;
    return out.map(bytes);
  },
  cidr: ([ip, v4, v6]) => (isIp(ip) && I(v4) !== undefined && I(v6) !== undefined ? network(ip, Number(ip.v6 ? I(v6) : I(v4))) : undefined),
  cidr6: ([ip, v6]) => (isIp(ip) && I(v6) !== undefined ? (ip.v6 ? network(ip, Number(I(v6))) : ip) : undefined),
  decode_base64: ([v]) => {
    const s = B(v);
    const d = s === undefined ? undefined : base64Decode(s);
    return d === undefined ? undefined : bytes(d);
  },
  encode_base64: ([v, flags]) => {
    const s = B(v);
    const f = B(flags) ?? '';
    return s === undefined ? undefined : bytes(base64Encode(s, f.includes('u'), f.includes('p')));
  },
  sha256: ([v]) => (isBytes(v) ? bytes(sha256(v.b)) : undefined),
  regex_replace: ([v, pattern, replacement]) => {
    const s = B(v);
    if (s === undefined || !isBytes(pattern) || !isBytes(replacement)) return undefined;
    const c = compileRegex(text(pattern));
    if (!c.ok) throw new EvalProblem(c.message);
    const subject = text(bytes(s));
    // matched as text, put back as bytes: a value that is no UTF-8 is matched one character per byte (text() gives
    // it back unchanged) and its pieces are its bytes; the replacement is bytes as written (`\xff` stays one byte)
    const back = subject === s ? (x: string) => x : (x: string) => utf8(x).b;
    const m = c.re.matcher(subject);
    if (!m.find()) return v;
    const middle = substitute(replacement.b, (n) => (n <= m.groupCount() ? back(m.group(n) ?? '') : undefined));
    return bytes(back(subject.slice(0, m.start())) + middle + back(subject.slice(m.end())));
  },
  wildcard_replace: ([v, pattern, replacement, flags]) => {
    const s = B(v);
    if (s === undefined || !isBytes(pattern) || !isBytes(replacement)) return undefined;
    const groups = wildcardCaptures(s, pattern.b, !(B(flags) ?? '').includes('s'));
    if (!groups) return v;
    return bytes(substitute(replacement.b, (n) => (n === 0 ? s : groups[n - 1])));
  },
  remove_query_args: ([v, ...names]) => {
    const s = B(v);
    if (s === undefined) return undefined;
    const drop = new Set(names.map((n) => B(n)));
    return bytes(
      s
        .split('&')
        .filter((p) => p !== '' && !drop.has(p.split('=')[0]))
        .join('&'),
    );
  },
  to_string: ([v]) => (typeof v === 'bigint' || typeof v === 'boolean' ? bytes(String(v)) : isIp(v) ? bytes(ipText(v)) : undefined),
  uuidv4: ([v]) => {
    const s = B(v);
    if (s === undefined) return undefined;
    // the seed's first 16 bytes with the version (4) and variant (10) bits set: the same seed, the same UUID
    const b = [...s.padEnd(16, '\0').slice(0, 16)].map((c) => c.charCodeAt(0));
    b[6] = (b[6]! & 0x0f) | 0x40;
    b[8] = (b[8]! & 0x3f) | 0x80;
    const hex = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return bytes(`${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`);
  },
  is_timed_hmac_valid_v0: ([key, messageMac, ttl, now, separatorLength, flags]) => {
    const k = B(key);
    const mm = B(messageMac);
    const t = I(ttl);
    const ts = I(now);
    if (k === undefined || mm === undefined || t === undefined || ts === undefined) return undefined;
    const sep = Number(I(separatorLength) ?? 0n);
    const urlSafe = (B(flags) ?? '').includes('s');
    // the documented shape (.+)(.*)(\d{10})-(.{43,}): the message is greedy, so the timestamp is the last one
    // followed by a MAC (a path may hold a 10-digit number and a dash of its own)
    const m = /^([\s\S]+)([0-9]{10})-([\s\S]{43,})$/.exec(mm);
    if (!m || m[1]!.length <= sep) return false;
    const message = m[1]!.slice(0, m[1]!.length - sep);
    const issued = BigInt(m[2]!);
    if (issued > ts || ts - issued > t) return false;
    let given = m[3]!;
    if (!urlSafe) {
      // a MAC whose percent-encoding is broken is no valid MAC (not an error of the rule)
      try {
        given = decodeURIComponent(given);
      } catch {
        return false;
      }
    }
    const mac = hmacSha256(k, message + m[2]!);
    return given === (urlSafe ? base64Encode(mac, true, false) : base64Encode(mac, false, true));
  },
  is_jwt_present: () => {
    throw new EvalProblem('is_jwt_present() depends on a token configuration: rules eval cannot compute it offline');
  },
  is_jwt_valid: () => {
    throw new EvalProblem('is_jwt_valid() depends on a token configuration: rules eval cannot compute it offline');
  },
  bit_slice: () => {
    throw new EvalProblem('bit_slice() reads raw packets: rules eval evaluates HTTP requests');
  },
};

/** Equality of two values of the same type (has_value, in). */
export function same(a: RuleValue, b: RuleValue): boolean {
  if (a === undefined || b === undefined) return false;
  if (isBytes(a) && isBytes(b)) return a.b === b.b;
  if (isIp(a) && isIp(b)) return a.v6 === b.v6 && a.bytes.every((x, i) => x === b.bytes[i]);
  return a === b;
}

export type { Bytes };
