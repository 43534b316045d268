/**
 * Reading literals by the type they meet. Each reader returns the value or a problem with its place inside
 * the literal (offsets relative to the literal's start) and the reference parser's message for the API
 * error format.
 */
export interface LiteralProblem {
  offset: number;
  length: number;
  /** Our explanation. */
  message: string;
  /** The message the API answers with for this problem. */
  api: string;
}

export type Read<T> = { ok: true; value: T } | { ok: false; problem: LiteralProblem };

const ok = <T>(value: T): Read<T> => ({ ok: true, value });
const bad = (offset: number, length: number, message: string, api: string): Read<never> => ({ ok: false, problem: { offset, length, message, api } });

/** `"…"`: escapes `\"` `\\` `\xHH` `\OOO` (≤ 255) only. The value is a string of byte-valued characters. */
export function readQuoted(image: string): Read<string> {
  if (image.length < 2 || !image.endsWith('"') || endsInEscape(image)) {
    return bad(0, image.length, 'unterminated string: add the closing "', 'could not find an ending quote');
  }
  let out = '';
  const body = image.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      out += c;
      continue;
    }
    const n = body[i + 1];
    if (n === '"' || n === '\\') {
      out += n;
      i++;
    } else if (n === 'x') {
      const hex = body.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return bad(i + 1, 2 + Math.max(hex.length, 1), `\\x needs two hex digits`, 'invalid digit found in string while parsing with radix 16');
      out += String.fromCharCode(parseInt(hex, 16));
      i += 3;
    } else if (n !== undefined && n >= '0' && n <= '7') {
      const oct = body.slice(i + 1, i + 4);
      if (!/^[0-7]{3}$/.test(oct)) return bad(i + 1, 1 + oct.length, 'an octal escape has exactly three digits (\\OOO)', 'invalid digit found in string while parsing with radix 8');
      const v = parseInt(oct, 8);
      if (v > 255) return bad(i + 1, 4, 'an octal escape is at most \\377', 'number too large to fit in target type while parsing with radix 8');
      out += String.fromCharCode(v);
      i += 3;
    } else {
      return bad(i + 1, 2, `invalid escape \\${n ?? ''}: only \\" \\\\ \\xHH and \\OOO exist (use a raw string r"…" for backslashes)`, 'expected ", xHH or OOO after \\');
    }
  }
  return ok(out);
}

/** Whether the closing quote of `"…\"` is escaped (then the string is unterminated). */
function endsInEscape(image: string): boolean {
  let n = 0;
  for (let i = image.length - 2; i > 0 && image[i] === '\\'; i--) n++;
  return n % 2 === 1;
}

/** `r"…"`, `r#"…"#`: no escapes, at most 255 `#`. */
export function readRaw(image: string): Read<string> {
  let hashes = 0;
  while (image[1 + hashes] === '#') hashes++;
  if (hashes > 255) return bad(0, image.length, 'a raw string has at most 255 #', "invalid raw string hash count, there can't be more than 255 #s");
  if (image[1 + hashes] !== '"') return bad(1 + hashes, 1, 'a raw string is r"…" or r#"…"#', 'expected " or #');
  const close = '"' + '#'.repeat(hashes);
  if (image.length < 2 * hashes + 3 || !image.endsWith(close)) return bad(0, image.length, `unterminated raw string: add the closing ${close}`, 'could not find an ending quote');
  return ok(image.slice(2 + hashes, image.length - 1 - hashes));
}

/** A quoted regex: `\"` is a quote, every other escape goes to the regex engine unchanged. */
export function readQuotedRegex(image: string): Read<string> {
  if (image.length < 2 || regexQuoteEnd(image) !== image.length - 1) return bad(0, image.length, 'unterminated regular expression: add the closing "', 'could not find an ending quote');
  return ok(image.slice(1, -1).replace(/\\"/g, '"'));
}

/** Where a quoted regex ends: the first `"` outside a `[…]` class and not escaped (-1: none). */
function regexQuoteEnd(image: string): number {
  let inClass = false;
  for (let i = 1; i < image.length; i++) {
    const c = image[i];
    if (c === '\\') i++;
    else if (c === '[' && !inClass) inClass = true;
    else if (c === ']' && inClass) inClass = false;
    else if (c === '"' && !inClass) return i;
  }
  return -1;
}

const INT_CHARS = /^-?[0-9a-zA-Z]*$/;
const I64_MAX = (1n << 63n) - 1n;
const I64_MIN = -(1n << 63n);

/** Integers: decimal, `0x` hexadecimal, a leading `0` is octal; signed 64 bits. */
export function readInt(word: string): Read<bigint> {
  if (!INT_CHARS.test(word) || word === '' || word === '-') return bad(0, word.length || 1, `${JSON.stringify(word)} is not an integer`, 'expected digit');
  const neg = word.startsWith('-');
  const body = neg ? word.slice(1) : word;
  let radix = 10;
  let digits = body;
  if (/^0x/.test(body)) {
    radix = 16;
    digits = body.slice(2);
  } else if (body.length > 1 && body.startsWith('0')) {
    radix = 8;
    digits = body.slice(1);
  }
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) {
    const what = radix === 8 ? ' (a leading 0 means octal)' : '';
    return bad(0, word.length, `${JSON.stringify(word)} is not an integer${what}`, `invalid digit found in string while parsing with radix ${radix}`);
  }
  let v = BigInt((radix === 16 ? '0x' : radix === 8 ? '0o' : '') + digits);
  if (neg) v = -v;
  if (v > I64_MAX || v < I64_MIN) {
    return bad(0, word.length, `${word} does not fit in 64 bits`, `number too ${v > 0n ? 'large' : 'small'} to fit in target type while parsing with radix ${radix}`);
  }
  return ok(v);
}

/** `a..b` with a ≤ b (lists only). */
export function readIntRange(word: string): Read<[bigint, bigint]> {
  const i = word.indexOf('..');
  const a = readInt(word.slice(0, i));
  if (!a.ok) return a;
  const b = readInt(word.slice(i + 2));
  if (!b.ok) return bad(i + 2 + b.problem.offset, b.problem.length, b.problem.message, b.problem.api);
  if (b.value < a.value) return bad(0, word.length, `the range ${word} is descending`, 'incompatible range bounds');
  return ok([a.value, b.value]);
}

export interface IpValue {
  v6: boolean;
  /** 4 or 16 bytes. */
  bytes: number[];
}

function readIpv4(s: string): number[] | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out: number[] = [];
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    out.push(n);
  }
  return out;
}

function readIpv6(s: string): number[] | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(s)) return undefined;
  let tail: number[] = [];
  let text = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = readIpv4(s.slice(lastColon + 1));
    if (!v4) return undefined;
    tail = v4;
    text = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const group = (h: string) => (h === '' ? [] : h.split(':'));
  const head = group(halves[0]);
  const rest = halves.length === 2 ? group(halves[1]) : [];
  const all = [...head, ...rest];
  if (all.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return undefined;
  const missing = 8 - all.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest].map((g) => parseInt(g, 16));
  const bytes = groups.flatMap((g) => [g >> 8, g & 255]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

export function readIp(word: string): Read<IpValue> {
  const v4 = readIpv4(word);
  if (v4) return ok({ v6: false, bytes: v4 });
  const v6 = readIpv6(word);
  if (v6) return ok({ v6: true, bytes: v6 });
  return bad(0, word.length, `${JSON.stringify(word)} is not an IP address`, 'invalid IP address syntax');
}

export function compareIp(a: IpValue, b: IpValue): number {
  for (let i = 0; i < a.bytes.length; i++) if (a.bytes[i] !== b.bytes[i]) return a.bytes[i] - b.bytes[i];
  return 0;
}

/** `addr/len` with the host bits zero. */
export function readCidr(word: string): Read<{ ip: IpValue; bits: number }> {
  const slash = word.indexOf('/');
  const ip = readIp(word.slice(0, slash));
  if (!ip.ok) return bad(0, slash, ip.problem.message, "couldn't parse address in network: invalid IP address syntax");
  const lenText = word.slice(slash + 1);
  if (!/^[0-9]{1,3}$/.test(lenText)) return bad(slash + 1, Math.max(1, lenText.length), `${JSON.stringify(lenText)} is not a prefix length`, "couldn't parse length in network: invalid digit found in string");
  const bits = Number(lenText);
  const max = ip.value.v6 ? 128 : 32;
  if (bits > max) {
    return bad(slash + 1, lenText.length, `a prefix length is at most ${max}`, `invalid length for network: Network length ${bits} is too long for ${ip.value.v6 ? 'Ipv6' : 'Ipv4'} (maximum: ${max})`);
  }
  for (let i = 0; i < ip.value.bytes.length * 8; i++) {
    if (i < bits) continue;
    if ((ip.value.bytes[i >> 3] >> (7 - (i & 7))) & 1) return bad(0, word.length, `the host part of ${word} is not zero`, 'host part of address was not zero');
  }
  return ok({ ip: ip.value, bits });
}

/** `a..b` of two addresses of one family, ascending (lists only). */
export function readIpRange(word: string): Read<[IpValue, IpValue]> {
  const i = word.indexOf('..');
  const a = readIp(word.slice(0, i));
  if (!a.ok) return a;
  const b = readIp(word.slice(i + 2));
  if (!b.ok) return bad(i + 2, word.length - i - 2, b.problem.message, b.problem.api);
  if (a.value.v6 !== b.value.v6 || compareIp(a.value, b.value) > 0) return bad(0, word.length, `the range ${word} mixes families or is descending`, 'incompatible range bounds');
  return ok([a.value, b.value]);
}

/** Hex bytes: `HH` pairs separated by `:`, `-` or `.`, at least two bytes. */
export function readHexBytes(word: string): Read<string> {
  let out = '';
  let i = 0;
  for (;;) {
    const pair = word.slice(i, i + 2);
    if (pair.length < 2) return bad(i, Math.max(1, pair.length), `${JSON.stringify(word)} is not a value: quote strings ("…")`, `expected 2 characters, but found ${pair.length}`);
    if (!/^[0-9a-fA-F]{2}$/.test(pair)) return bad(i, 2, `${JSON.stringify(word)} is not a value: quote strings ("…")`, 'invalid digit found in string while parsing with radix 16');
    out += String.fromCharCode(parseInt(pair, 16));
    i += 2;
    if (i === word.length) break;
    if (!':-.'.includes(word[i])) return bad(i, 1, `${JSON.stringify(word)} is not a value: quote strings ("…")`, 'expected byte separator');
    i++;
  }
  if (out.length < 2) return bad(word.length, 0, `${JSON.stringify(word)} is not a value: quote strings ("…")`, 'expected byte separator');
  return ok(out);
}

/** A wildcard pattern (after string decoding): `*` any run, `\*` and `\\` the only escapes, no `**`. */
export function checkWildcard(pattern: string): string | undefined {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const n = pattern[i + 1];
      if (n === undefined) return `invalid wildcard: wildcard syntax error at position ${i}: incomplete escape sequence at the end of the wildcard`;
      if (n !== '*' && n !== '\\') return `invalid wildcard: wildcard syntax error at position ${i}: invalid escape sequence`;
      i++;
    } else if (c === '*' && pattern[i + 1] === '*') return 'wildcard contains a double star';
  }
  return undefined;
}
