/** Completion (a pure function of text and cursor, `|` marks it), hover and highlight of the rules language. */
import { describe, expect, it } from 'vitest';
import { ruleCompletion, ruleHighlightTokens, ruleHoverAt } from '@logfilter/core';

const at = (marked: string) => ({ text: marked.replace('|', ''), offset: marked.indexOf('|') });

describe('completion situation', () => {
  it.each([
    ['|', 'operand', undefined],
    ['http.h|', 'operand', undefined],
    ['ssl and |', 'operand', undefined],
    ['not (|', 'operand', undefined],
    ['lower(|', 'operand', undefined],
    ['any(|', 'operand', undefined],
    ['http.host |', 'operator', 'Bytes'],
    ['ip.src |', 'operator', 'Ip'],
    ['ip.src.asnum |', 'operator', 'Int'],
    ['lower(http.host) |', 'operator', 'Bytes'],
    ['http.request.headers["a"][0] |', 'operator', 'Bytes'],
    ['any(http.request.headers.names[*] |', 'operator', 'Bytes'],
    ['http.host eq |', 'value', 'Bytes'],
    ['ip.src in |', 'value', 'Ip'],
    ['ssl |', 'logical', undefined],
    ['http.host eq "a" |', 'logical', undefined],
    ['ip.src in {1.2.3.4} |', 'logical', undefined],
    ['ip.src.asnum eq 5 |', 'logical', undefined],
  ])('%j → %s', (marked, kind, type) => {
    const { text, offset } = at(marked);
    const s = ruleCompletion(text, offset).situation;
    expect(s.kind).toBe(kind);
    if (type) expect(s.type).toBe(type);
  });

  it('replaces the word being typed', () => {
    expect(ruleCompletion('ssl and http.h', 14).situation.replace).toEqual({ start: 8, end: 14 });
  });
});

describe('completion items', () => {
  const labels = (marked: string, phase?: string) => {
    const { text, offset } = at(marked);
    return ruleCompletion(text, offset, phase ? { phase } : {}).items.map((i) => i.label);
  };
  it('offers operators by type', () => {
    expect(labels('http.host |')).toEqual(expect.arrayContaining(['eq', 'contains', 'matches', 'wildcard', 'strict wildcard', 'in']));
    expect(labels('ip.src |').sort()).toEqual(['eq', 'in', 'ne']);
    expect(labels('ip.src.asnum |')).toEqual(expect.arrayContaining(['bitwise_and', 'lt']));
    expect(labels('ip.src.asnum |')).not.toContain('contains');
    // `[*]` right after the array (and chained), never after a space: `names [*]` is an error
    expect(labels('http.request.headers[*]|')).toEqual(['[*]']);
    expect(labels('http.request.headers.names |')).toEqual([]);
    expect(labels('http.request.headers[*] |')).toEqual([]);
  });
  it('offers fields and functions by phase', () => {
    expect(labels('|')).toEqual(expect.arrayContaining(['http.host', 'http.response.code', 'lower', 'any', 'not']));
    expect(labels('|', 'http_request_firewall_custom')).not.toContain('http.response.code');
    expect(labels('|', 'http_request_firewall_custom')).not.toContain('split');
    expect(labels('|', 'http_response_headers_transform')).toContain('split');
  });
  it('offers managed lists after ip.src in, and logical operators after a comparison', () => {
    expect(labels('ip.src in |')).toEqual(expect.arrayContaining(['{…}', '$cf.open_proxies']));
    expect(labels('ssl |')).toEqual(['and', 'xor', 'or']);
  });
  it.each([
    ['ip.src in $|', 10],
    ['ip.src in $cf.|', 10],
    ['ip.src in $cf.vp|', 10],
    ['not ip.src in $cf.op| and ssl', 14],
  ])('completes a managed list being typed after its $ (%j), replacing from the $', (marked, start) => {
    const { text, offset } = at(marked);
    const { situation, items } = ruleCompletion(text, offset);
    expect(items.map((i) => i.label).sort()).toEqual(['$cf.anonymizer', '$cf.botnetcc', '$cf.malware', '$cf.open_proxies', '$cf.vpn']);
    expect(situation.replace).toEqual({ start, end: offset });
  });
  it.each([['http.host in {"a" |}'], ['http.host in {"a" "b" |'], ['ip.src in {1.2.3.4 |}'], ['ip.src.asnum in {13335 |}'], ['http.host in {"a"|}']])(
    'offers nothing inside an inline list being written (%j): its items are values, and/or would break it',
    (marked) => {
      expect(labels(marked)).toEqual([]);
    },
  );
  it('offers and/or again once the inline list is closed', () => {
    expect(labels('http.host in {"a" "b"} |')).toEqual(['and', 'xor', 'or']);
    expect(labels('(http.host in {"a"}) |')).toEqual(['and', 'xor', 'or']);
  });
  it('offers no managed list after a $ where no IP is compared', () => {
    expect(labels('http.host in $|')).toEqual([]);
    expect(labels('ip.src eq $|')).toEqual([]);
  });
});

describe('hover', () => {
  it('shows a field type, phases and deprecation', () => {
    const h = ruleHoverAt('http.response.code eq 200', 3)!;
    expect([h.start, h.end]).toEqual([0, 18]);
    expect(h.markdown).toContain('Integer');
    expect(h.markdown).toContain('http_response_headers_transform');
    expect(ruleHoverAt('ip.geoip.country eq "x"', 2)!.markdown).toContain('ip.src.country');
  });
  it('shows a function signature and an operator', () => {
    expect(ruleHoverAt('lower(http.host) eq "a"', 2)!.markdown).toContain('lower(value: String): String');
    const op = ruleHoverAt('http.host ~ "a"', 10)!;
    expect([op.start, op.end]).toEqual([10, 11]);
    expect(op.markdown).toContain('matches');
    expect(ruleHoverAt('http.host eq "a"', 14)!.markdown).toMatch(/String/); // a value: hover-values.test.ts
  });
});

describe('highlight', () => {
  it('classes fields, functions, operators, keywords, strings and numbers', () => {
    const text = 'lower(http.host) eq "a" and not ip.geoip.asnum in {1..5}';
    expect(ruleHighlightTokens(text).map((t) => [text.slice(t.start, t.end), t.type, t.deprecated ?? false])).toEqual([
      ['lower', 'function', false],
      ['http.host', 'field', false],
      ['eq', 'operator', false],
      ['"a"', 'string', false],
      ['and', 'keyword', false],
      ['not', 'keyword', false],
      ['ip.geoip.asnum', 'field', true],
      ['in', 'operator', false],
      ['1..5', 'number', false],
    ]);
  });
});
