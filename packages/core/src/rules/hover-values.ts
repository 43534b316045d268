/**
 * Rules hover on values: what a literal is and stands for, read with the checker's own literal readers
 * (literals.ts), and what a `$list` is (the managed lists of fields.ts, or a list of the account whose kind
 * follows from the field it is compared with).
 */
import { tokenMatcher, type IToken } from 'chevrotain';
import { MANAGED_LISTS, RULE_FIELD_BY_NAME } from './fields.js';
import { readCidr, readHexBytes, readInt, readIntRange, readIp, readIpRange, readQuoted, readRaw, type IpValue } from './literals.js';
import * as T from './tokens.js';
import { docTypeName, type ScalarType } from './types.js';

/** The kind of list a field's values are looked up in (the provider's custom list kinds). */
const LIST_KIND: Partial<Record<ScalarType, string>> = { Ip: 'IP list', Int: 'ASN list', Bytes: 'hostname list' };

/** Markdown for the literal token `t`, or undefined when it is no value. */
export function valueHover(t: IToken): string | undefined {
  if (tokenMatcher(t, T.QuotedString) || tokenMatcher(t, T.RawString)) {
    const r = tokenMatcher(t, T.RawString) ? readRaw(t.image) : readQuoted(t.image);
    if (!r.ok) return undefined;
    return `**${docTypeName('Bytes')}** literal: \`${JSON.stringify(r.value)}\``;
  }
  if (!tokenMatcher(t, T.Word)) return undefined;
  const w = t.image;
  if (w.includes('/')) {
    const r = readCidr(w);
    if (!r.ok) return undefined;
    const { ip, bits } = r.value;
    const size = 2n ** BigInt(ip.bytes.length * 8 - bits);
    return `**${docTypeName('Ip')}** network (${family(ip)}): ${ipText(ip)} to ${ipText(lastOf(ip, bits))}, ${size} addresses`;
  }
  if (w.includes('..')) {
    const ips = readIpRange(w);
    if (ips.ok) {
      const [a, b] = ips.value;
      return `**${docTypeName('Ip')}** range (${family(a)}): ${ipText(a)} to ${ipText(b)}, ${toBig(b) - toBig(a) + 1n} addresses`;
    }
    const ints = readIntRange(w);
    if (!ints.ok) return undefined;
    const [a, b] = ints.value;
    return `**${docTypeName('Int')}** range: ${a} to ${b}, ${b - a + 1n} values`;
  }
  const n = readInt(w);
  if (n.ok) return `**${docTypeName('Int')}** literal: ${n.value}`;
  const ip = readIp(w);
  if (ip.ok) return `**${docTypeName('Ip')}** (${family(ip.value)}): ${ipText(ip.value)}`;
  const hex = readHexBytes(w);
  if (hex.ok) return `**${docTypeName('Bytes')}** as hex bytes: ${hex.value.length} bytes`;
  return undefined;
}

/** Markdown for `$name` (the tokens are the `$` and the name after it), with the field compared before `in`. */
export function listHover(tokens: IToken[], dollar: number): string | undefined {
  const nameToken = tokens[dollar + 1];
  const adjacent = nameToken && nameToken.startOffset === tokens[dollar].startOffset + 1 && tokenMatcher(nameToken, T.Word);
  const name = adjacent ? nameToken.image : '';
  const field = tokens[dollar - 2] && tokenMatcher(tokens[dollar - 2], T.Word) ? RULE_FIELD_BY_NAME.get(tokens[dollar - 2].image) : undefined;
  const kind = field && typeof field.type === 'string' ? LIST_KIND[field.type] : undefined;
  if (MANAGED_LISTS.includes(name)) return `**$${name}**: managed ${LIST_KIND.Ip}, provided by the service in every account`;
  if (name === '') return undefined;
  return `**$${name}**: a custom list of the account${kind ? ` (${kind}: ${field!.name} is compared with its items)` : ''}; its items are managed through the lists API, not in the expression`;
}

function family(ip: IpValue): string {
  return ip.v6 ? 'IPv6' : 'IPv4';
}

function toBig(ip: IpValue): bigint {
  return ip.bytes.reduce((n, b) => (n << 8n) | BigInt(b), 0n);
}

/** The last address of the network: the host bits set. */
function lastOf(ip: IpValue, bits: number): IpValue {
  const bytes = ip.bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b | (0xff >> keep);
  });
  return { v6: ip.v6, bytes };
}

/** Dotted IPv4, or IPv6 in its canonical text (RFC 5952: lower case, the longest run of zero groups as ::). */
function ipText(ip: IpValue): string {
  if (!ip.v6) return ip.bytes.join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i] << 8) | ip.bytes[2 * i + 1]);
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}
