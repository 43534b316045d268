/**
 * Rules hover on values and lists: the value's type (as the documentation names types), what it stands for (an
 * integer's value, an IP network's first and last address and size, a range's bounds) and, for a `$list`, its kind.
 */
import { describe, expect, it } from 'vitest';
import { ruleHoverAt } from '@logfilter/core';

const at = (text: string, needle: string, nth = 0) => {
  let i = -1;
  for (let k = 0; k <= nth; k++) i = text.indexOf(needle, i + 1);
  return i + 1;
};
const hover = (text: string, needle: string, nth = 0) => ruleHoverAt(text, at(text, needle, nth));
const span = (text: string, needle: string, nth = 0) => {
  const h = hover(text, needle, nth);
  return h && text.slice(h.start, h.end);
};

describe('hover on values', () => {
  it('a string literal: its type and its value', () => {
    const text = 'http.host eq "a\\x41b"';
    expect(span(text, '"a')).toBe('"a\\x41b"');
    expect(hover(text, '"a')!.markdown).toMatch(/String/);
    expect(hover(text, '"a')!.markdown).toContain('"aAb"');
    expect(hover('http.host eq r#"x"y"#', 'r#')!.markdown).toContain('"x\\"y"');
  });

  it('a number: Integer and its value in decimal', () => {
    expect(span('http.response.code eq 0x1f4', '0x1f4')).toBe('0x1f4');
    expect(hover('http.response.code eq 0x1f4', '0x1f4')!.markdown).toMatch(/Integer/);
    expect(hover('http.response.code eq 0x1f4', '0x1f4')!.markdown).toMatch(/\b500\b/);
  });

  it('an IP address, an IP network with its range, an IP range, an integer range', () => {
    expect(hover('ip.src eq 192.0.2.1', '192')!.markdown).toMatch(/IP address.*IPv4/s);
    const net = hover('ip.src in {10.1.0.0/16}', '10.1')!.markdown;
    expect(net).toContain('10.1.0.0');
    expect(net).toContain('10.1.255.255');
    expect(net).toMatch(/\b65536\b/);
    const v6 = hover('ip.src in {2001:db8::/32}', '2001')!.markdown;
    expect(v6).toMatch(/IPv6/);
    expect(v6).toContain('2001:db8:ffff:ffff:ffff:ffff:ffff:ffff');
    const range = hover('ip.src in {192.0.2.1..192.0.2.10}', '192')!.markdown;
    expect(range).toContain('192.0.2.10');
    expect(range).toMatch(/\b10 addresses\b/);
    expect(hover('http.response.code in {400..499}', '400')!.markdown).toMatch(/\b100 values\b/);
  });

  it('a $list: managed or the account\'s, with its kind from the compared field', () => {
    const managed = 'ip.src in $cf.open_proxies';
    expect(span(managed, '$cf')).toBe('$cf.open_proxies');
    expect(span(managed, 'open_proxies')).toBe('$cf.open_proxies');
    expect(hover(managed, '$cf')!.markdown).toMatch(/managed/i);
    expect(hover(managed, '$cf')!.markdown).toMatch(/IP list/);
    expect(hover('ip.src in $office', '$office')!.markdown).toMatch(/IP list/);
    expect(hover('ip.src.asnum in $carriers', '$carriers')!.markdown).toMatch(/ASN list/);
    expect(hover('http.host in $hosts', '$hosts')!.markdown).toMatch(/hostname list/);
  });

  it('still nothing on punctuation or a word that is no value', () => {
    const list = 'http.host in {"a" "b"}';
    expect(ruleHoverAt(list, list.indexOf('{'))).toBeUndefined();
    expect(hover('http.host eq nonsense', 'nonsense')).toBeUndefined();
  });
});
