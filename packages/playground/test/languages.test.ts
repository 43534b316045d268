import { describe, expect, it } from 'vitest';
import { filterLanguage, rulesLanguage, toCodeMirrorSnippet } from '../src/languages.js';

describe('filterLanguage', () => {
  const lang = filterLanguage(() => 'http_requests');

  it('classes tokens from the core lexer', () => {
    const text = 'BotScore < 30 and not ClientCountry == "fr" # c';
    expect(lang.tokens(text).map((t) => [text.slice(t.start, t.end), t.type])).toEqual([
      ['BotScore', 'field'], ['<', 'operator'], ['30', 'number'], ['and', 'keyword'], ['not', 'keyword'],
      ['ClientCountry', 'field'], ['==', 'operator'], ['"fr"', 'string'], ['# c', 'comment'],
    ]);
  });

  it('reports diagnostics at their offsets, with the fixes the core computes', () => {
    const d = lang.diagnostics('BotScor < 30');
    expect(d.map((x) => [x.code, x.start, x.end])).toEqual([['unknown-field', 0, 7]]);
    expect(d[0].fixes?.[0].edits[0]).toEqual({ start: 0, end: 7, newText: 'BotScore' });
  });

  it('completes fields of the chosen dataset over the word being typed', () => {
    const dns = filterLanguage(() => 'dns_logs');
    const c = dns.complete('Query', 5);
    expect(c).toMatchObject({ from: 0, to: 5 });
    expect(c.items.map((i) => i.label)).toContain('QueryName');
    expect(lang.complete('Query', 5).items.map((i) => i.label)).not.toContain('QueryName');
  });

  it('hovers and formats', () => {
    expect(lang.hover('BotScore < 30', 2)).toMatchObject({ start: 0, end: 8 });
    expect(lang.format('BotScore<30')).toBe('BotScore < 30\n');
    expect(lang.format('BotScore <')).toBeUndefined();
  });
});

describe('rulesLanguage', () => {
  const lang = rulesLanguage(() => 'http_request_firewall_custom');
  it('highlights, checks, completes, hovers and formats rule expressions', () => {
    const text = 'http.host eq "a" and lower(http.request.uri.path) contains "/x"';
    expect(lang.tokens(text).filter((t) => t.type === 'function').map((t) => text.slice(t.start, t.end))).toEqual(['lower']);
    expect(lang.diagnostics(text)).toEqual([]);
    expect(lang.diagnostics('http.hots eq "a"').map((d) => [d.code, d.start, d.end])).toEqual([[expect.any(String), 0, 9]]);
    expect(lang.complete('http.ho', 7).items.map((i) => i.label)).toContain('http.host');
    expect(lang.hover(text, 2)).toMatchObject({ start: 0, end: 9 });
    // a value and a list hover too (the core's hover: its type and what it stands for, a list's kind)
    expect(lang.hover(text, 14)).toMatchObject({ start: 13, end: 16, markdown: expect.stringContaining('String') });
    const net = 'ip.src in {10.0.0.0/8} or ip.src in $cf.vpn';
    expect(lang.hover(net, 12)).toMatchObject({ start: 11, end: 21, markdown: expect.stringContaining('10.255.255.255') });
    expect(lang.hover(net, net.indexOf('$') + 2)).toMatchObject({ start: net.indexOf('$'), end: net.length, markdown: expect.stringContaining('IP list') });
    expect(lang.format('http.host == "a" && ip.src in {1.2.3.4}')).toBe('http.host eq "a" and ip.src in {1.2.3.4}');
  });
});

describe('toCodeMirrorSnippet', () => {
  it('turns LSP snippets into CodeMirror ones', () => {
    expect(toCodeMirrorSnippet('dataset ${1|a,b|}\n$0')).toBe('dataset ${1:a}\n${99}');
    expect(toCodeMirrorSnippet('($0)')).toBe('(${99})');
    expect(toCodeMirrorSnippet('${1:x} in [$2]')).toBe('${1:x} in [${2}]');
  });
});
