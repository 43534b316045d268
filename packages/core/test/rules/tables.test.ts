/**
 * Tables written from the language's grammar (docs/rules-language.md and the public reference), not from
 * the code: every literal form and each rejected form, every operator against every type, precedence and
 * flattening, indexing, functions, lexical quirks and limits. Each row names the error codes it expects.
 */
import { describe, expect, it } from 'vitest';
import { checkRule, parseRule, type RuleExpr, type RuleKind } from '@logfilter/core';

type Row = [expression: string, expected: 'ok' | string[], kind?: RuleKind, phase?: string];

function outcome(expression: string, kind: RuleKind = 'filter', phase?: string): 'ok' | string[] {
  const errors = checkRule(expression, { kind, ...(phase ? { phase } : {}) }).diagnostics.filter((d) => d.severity === 'error');
  return errors.length === 0 ? 'ok' : [...new Set(errors.map((d) => d.code))];
}

function table(name: string, rows: Row[]): void {
  describe(name, () => {
    it.each(rows)('%j', (expression, expected, kind, phase) => {
      const got = outcome(expression, kind, phase);
      if (expected === 'ok') expect(got).toBe('ok');
      else expect(got).toEqual(expect.arrayContaining(expected));
    });
  });
}

table('string literals', [
  ['http.host eq "plain"', 'ok'],
  ['http.host eq "a\\"b"', 'ok'],
  ['http.host eq "a\\\\b"', 'ok'],
  ['http.host eq "\\x41\\x7a"', 'ok'],
  ['http.host eq "\\101\\377"', 'ok'],
  ['http.host eq "line\nbreak"', 'ok'],
  ['http.host eq "ünïcødé 🏴"', 'ok'],
  ['http.host eq r"a\\b"', 'ok'],
  ['http.host eq r#"a"b"#', 'ok'],
  ['http.host eq r##"a"#b"##', 'ok'],
  [`http.host eq r${'#'.repeat(255)}"x"${'#'.repeat(255)}`, 'ok'],
  ['http.host eq "\\n"', ['rule-string']],
  ['http.host eq "\\t"', ['rule-string']],
  ['http.host eq "\\u0041"', ['rule-string']],
  ['http.host eq "\\x4"', ['rule-string']],
  ['http.host eq "\\x4g"', ['rule-string']],
  ['http.host eq "\\12"', ['rule-string']],
  ['http.host eq "\\400"', ['rule-string']],
  ['http.host eq "abc', ['rule-string']],
  ['http.host eq "abc\\"', ['rule-string']],
  ['http.host eq r"abc', ['rule-string']],
  ['http.host eq r#"abc"', ['rule-string']],
  ['http.host eq r##x', ['rule-string']],
  [`http.host eq r${'#'.repeat(256)}"x"${'#'.repeat(256)}`, ['rule-string']],
  ["http.host eq 'a'", ['rule-string']],
]);

table('hex bytes, integers, IPs, ranges and lists', [
  ['http.host eq 01:02', 'ok'],
  ['http.host eq 01:2e:f3-77.12', 'ok'],
  ['http.host eq 12', ['rule-value']],
  ['http.host eq www.example.com', ['rule-value']],
  ['http.host eq example', ['rule-value']],
  ['http.host in {"a" "b" r"c" 61:62}', 'ok'],
  ['ip.src.asnum eq 13335', 'ok'],
  ['ip.src.asnum eq -5', 'ok'],
  ['ip.src.asnum eq 0x1F', 'ok'],
  ['ip.src.asnum eq 0123', 'ok'],
  ['ip.src.asnum eq 0', 'ok'],
  ['ip.src.asnum eq 9223372036854775807', 'ok'],
  ['ip.src.asnum eq -9223372036854775808', 'ok'],
  ['ip.src.asnum eq 9223372036854775808', ['rule-value']],
  ['ip.src.asnum eq 08', ['rule-value']],
  ['ip.src.asnum eq 10fe', ['rule-value']],
  ['ip.src.asnum eq 0xZZ', ['rule-value']],
  ['ip.src.asnum eq 1.5', ['rule-value']],
  ['ip.src.asnum eq "5"', ['rule-value']],
  ['ip.src.asnum eq 1..5', ['rule-value']],
  ['ip.src.asnum in {1..5 7 -20..-10}', 'ok'],
  ['ip.src.asnum in {5..1}', ['rule-value']],
  ['ip.src eq 192.0.2.1', 'ok'],
  ['ip.src eq ::1', 'ok'],
  ['ip.src eq 2001:db8::1', 'ok'],
  ['ip.src eq ::ffff:192.0.2.1', 'ok'],
  ['ip.src eq 192.0.2', ['rule-value']],
  ['ip.src eq 192.0.2.256', ['rule-value']],
  ['ip.src eq 2001:db8:::1', ['rule-value']],
  ['ip.src eq 192.0.2.0/24', ['rule-value']],
  ['ip.src eq "192.0.2.1"', ['rule-value']],
  ['ip.src in {192.0.2.0/24 2001:db8::/32 198.51.100.3..198.51.100.7 203.0.113.9}', 'ok'],
  ['ip.src in {10.0.0.1/8}', ['rule-value']],
  ['ip.src in {10.0.0.0/33}', ['rule-value']],
  ['ip.src in {2001:db8::/129}', ['rule-value']],
  ['ip.src in {10.0.0.9..10.0.0.1}', ['rule-value']],
  ['ip.src in {10.0.0.1..::1}', ['rule-value']],
  ['ip.src in {1.2.3.4, 5.6.7.8}', ['rule-list']],
  ['ip.src in {1.2.3.4', ['rule-list']],
  ['ip.src in 1.2.3.4', ['rule-list']],
  ['ip.src in $cf.open_proxies', 'ok'],
  ['ip.src in $office_network', 'ok'],
  ['ip.src in $Office', ['rule-list']],
  ['ip.src in $.office', ['rule-list']],
  ['ip.src in $office.', ['rule-list']],
  ['ip.src in $', ['rule-list']],
  ['http.host in {}', 'ok'],
]);

table('regex and wildcard literals', [
  ['http.host matches "\\d+\\.example"', 'ok'],
  ['http.host matches "[\\"]"', 'ok'],
  ['http.host matches "["]"', 'ok'],
  ['http.host ~ r"^a\\.b$"', 'ok'],
  ['http.host matches example', ['rule-value']],
  ['http.host matches "unterminated', ['rule-string']],
  ['http.host wildcard "*.example.com"', 'ok'],
  ['http.host wildcard r"a\\*b"', 'ok'],
  ['http.host strict wildcard "/Admin/*"', 'ok'],
  ['http.host wildcard "a**b"', ['rule-wildcard']],
  ['http.host wildcard r"a\\"', ['rule-wildcard']],
  ['http.host wildcard r"a\\q"', ['rule-wildcard']],
  ['http.host wildcard 61:62', ['rule-value']],
  ['http.host strict  wildcard "a"', ['rule-syntax']],
]);

// operator × left-hand type; the right-hand side is a valid literal of the type
const LHS = { Bytes: 'http.host', Int: 'ip.src.asnum', Ip: 'ip.src', Bool: 'ssl', Array: 'http.request.headers.names', Map: 'http.request.headers' } as const;
const RHS: Record<string, string> = { Bytes: '"x"', Int: '5', Ip: '192.0.2.1', Bool: '"x"', Array: '"x"', Map: '"x"' };
const ALLOWED: Record<string, string[]> = {
  eq: ['Bytes', 'Int', 'Ip'],
  ne: ['Bytes', 'Int', 'Ip'],
  lt: ['Bytes', 'Int'],
  le: ['Bytes', 'Int'],
  gt: ['Bytes', 'Int'],
  ge: ['Bytes', 'Int'],
  contains: ['Bytes'],
  matches: ['Bytes'],
  wildcard: ['Bytes'],
  'strict wildcard': ['Bytes'],
  in: ['Bytes', 'Int', 'Ip'],
  bitwise_and: ['Int'],
};
const SYMBOL: Record<string, string> = { eq: '==', ne: '!=', lt: '<', le: '<=', gt: '>', ge: '>=', matches: '~', bitwise_and: '&' };
const rows: Row[] = [];
for (const [op, types] of Object.entries(ALLOWED)) {
  for (const [type, lhs] of Object.entries(LHS)) {
    const rhs = op === 'in' ? `{${RHS[type]}}` : RHS[type];
    for (const spelling of [op, SYMBOL[op]].filter(Boolean)) {
      const expected: Row[1] = types.includes(type)
        ? 'ok'
        : type === 'Bool'
          ? ['rule-boolean-operator']
          : type === 'Ip' && ['lt', 'le', 'gt', 'ge'].includes(op)
            ? 'ok' // the language accepts ordering IPs; the checker only warns (undocumented)
            : ['rule-operator-type'];
      rows.push([`${lhs} ${spelling} ${rhs}`, expected]);
    }
  }
}
table('every operator against every type', rows);

describe('IP ordering', () => {
  it('is accepted with a warning', () => {
    const d = checkRule('ip.src lt 192.0.2.1').diagnostics;
    expect(d.map((x) => [x.code, x.severity])).toEqual([['rule-ip-ordering', 'warning']]);
  });
});

/** The tree as a compact shape: OR[...], AND[...], XOR[...], NOT x, (x), leaves by their field name. */
function shape(e: RuleExpr | undefined): string {
  if (!e) return '?';
  switch (e.kind) {
    case 'logical':
      return `${e.op.toUpperCase()}[${e.operands.map(shape).join(',')}]`;
    case 'not':
      return `NOT ${shape(e.operand)}`;
    case 'group':
      return `(${shape(e.inner)})`;
    case 'quantifier':
      return `${e.name.image}(${shape(e.arg)})`;
    case 'literal':
      return e.literal.image;
    case 'comparison':
      return e.lhs.base.kind === 'ident' ? e.lhs.base.name : `${e.lhs.base.name}()`;
  }
}

describe('precedence and flattening', () => {
  it.each([
    ['ssl or ssl and ssl', 'OR[ssl,AND[ssl,ssl]]'],
    ['ssl and ssl or ssl', 'OR[AND[ssl,ssl],ssl]'],
    ['not ssl and ssl', 'AND[NOT ssl,ssl]'],
    ['not not ssl', 'NOT NOT ssl'],
    ['ssl xor ssl or ssl', 'OR[XOR[ssl,ssl],ssl]'],
    ['ssl and ssl xor ssl', 'XOR[AND[ssl,ssl],ssl]'],
    ['ssl or ssl && ssl and ssl or ssl ^^ ssl and ssl || ssl', 'OR[ssl,AND[ssl,ssl,ssl],XOR[ssl,AND[ssl,ssl]],ssl]'],
    ['!(ssl || ssl)', 'NOT (OR[ssl,ssl])'],
    ['not http.host eq "x"', 'NOT http.host'],
    ['(ssl)', '(ssl)'],
  ])('%s', (text, expected) => {
    expect(shape(parseRule(text).expr)).toBe(expected);
    expect(checkRule(text).ok).toBe(true);
  });

  it('takes one comparison as the argument of any(…) unless it is parenthesised', () => {
    expect(outcome('any(http.request.headers.names[*] eq "a" and ssl)')).toEqual(expect.arrayContaining(['rule-syntax']));
    expect(outcome('any((http.request.headers.names[*] eq "a"))')).toBe('ok');
  });
});

table('indexing and [*]', [
  ['http.request.headers["accept"][0] eq "x"', 'ok'],
  ['http.request.headers.names[0] eq "x"', 'ok'],
  ['http.request.headers.names[0x1] eq "x"', 'ok'],
  ['any(http.request.headers["accept"][*] eq "x")', 'ok'],
  ['any(http.request.headers[*][0] eq "x")', 'ok'],
  ['any(http.request.body.multipart.names[*][*] eq "a")', 'ok'],
  ['any(lower(http.request.headers.names[*])[*] eq "x")', 'ok'],
  ['all(http.request.headers["x"][*] wildcard "*")', 'ok'],
  ['http.host[0] eq "x"', ['rule-index']],
  ['http.request.headers[0] eq "x"', ['rule-index']],
  ['http.request.headers.names["a"] eq "x"', ['rule-index']],
  ['http.request.headers.names[-1] eq "x"', ['rule-index']],
  ['http.request.headers.names [0] eq "x"', ['rule-index']],
  ['http.request.headers[r"a"][0] eq "x"', ['rule-index']],
  ["http.request.headers['a'][0] eq \"x\"", ['rule-index']],
  ['any(ssl[*])', ['rule-index']],
  ['http.request.headers.names[*] eq "x"', ['rule-type']],
  ['any(http.host eq "x")', ['rule-type']],
  ['any("x")', ['rule-type']],
  ['http.request.headers.names eq "x"', ['rule-operator-type']],
  ['http.request.headers["a"] eq "x"', ['rule-operator-type']],
  ['concat("a", http.request.headers.names[*])[0] eq "x"', ['rule-map-each']],
]);

table('functions', [
  ['lower(http.host) eq "x"', 'ok'],
  ['starts_with(http.host, "www.")', 'ok'],
  ['ends_with(http.request.uri.path, ".html") and not ssl', 'ok'],
  ['len(http.request.headers.names) gt 10', 'ok'],
  ['has_key(http.request.headers, "x-api-key")', 'ok'],
  ['has_value(http.request.headers.names, "Host")', 'ok'],
  ['lookup_json_integer(http.request.body.raw, "a", 0) eq 1', 'ok'],
  ['lower() eq "x"', ['rule-arguments']],
  ['lower(http.host, "a") eq "x"', ['rule-arguments']],
  ['substring(http.host) eq "x"', ['rule-arguments']],
  ['starts_with("a", "b")', ['rule-argument-kind']],
  ['url_decode(http.host, http.host) eq "x"', ['rule-argument-kind']],
  ['lower(ip.src) eq "x"', ['rule-argument-type']],
  ['len(ip.src) eq 1', ['rule-argument-type']],
  ['concat(0, 0) == 0', ['rule-argument-type']],
  // as the engine parses (docs/rules-language.md): one argument is enough, none is not
  ['concat(http.host) == "example.org"', 'ok'],
  ['concat(http.request.headers.names)[0] eq "x"', 'ok'],
  ['concat() == "x"', ['rule-arguments']],
  ['concat(http.host, http.request.headers.names)[0] eq "x"', ['rule-argument-type']],
  ['url_decode(http.host, "x") eq "a"', ['rule-argument-value']],
  ['lowercase(http.host) eq "x"', ['rule-unknown-identifier']],
  ['lower eq "x"', ['rule-identifier-kind']],
  ['http.host(1) eq "x"', ['rule-identifier-kind']],
  ['regex_replace(http.host, "a", "b") eq "x"', ['rule-value-only-function']],
  ['regex_replace(http.host, "a", "b")', 'ok', 'value'],
  ['concat(regex_replace(http.host, "a", "b"), regex_replace(http.host, "c", "d"))', ['rule-once-per-expression'], 'value'],
  ['regex_replace(wildcard_replace(http.host, "*", "b"), "a", "b")', ['rule-once-per-expression'], 'value'],
  ['split(http.host, "", 3)', ['rule-argument-value'], 'value'],
  ['split(http.host, ".", 129)', ['rule-argument-value'], 'value'],
  ['split(http.host, ".", 0)', ['rule-argument-value'], 'value'],
  ['cidr(ip.src, 33, 64) eq 10.0.0.0', ['rule-argument-value']],
  ['cidr("x", 24, 64) eq 10.0.0.0', ['rule-argument-kind']],
  ['remove_query_args(http.host, "a")', ['rule-argument-value'], 'value'],
]);

table('phases', [
  ['http.response.code eq 200', 'ok'],
  ['http.response.code eq 200', ['rule-unavailable-in-phase'], 'filter', 'http_request_firewall_custom'],
  ['http.response.code eq 200', 'ok', 'filter', 'http_response_headers_transform'],
  ['len(split(http.host, ".", 3)) eq 3', ['rule-unavailable-in-phase'], 'filter', 'http_request_firewall_custom'],
  ['cidr(ip.src, 24, 64) eq 10.0.0.0', 'ok', 'filter', 'http_request_firewall_custom'],
  ['cidr(ip.src, 24, 64) eq 10.0.0.0', ['rule-unavailable-in-phase'], 'filter', 'http_request_transform'],
  ['to_string(ip.src)', 'ok', 'value', 'http_request_transform'],
]);

table('lexical rules', [
  ['http.host eq"x"', 'ok'],
  ['ip.src in{192.0.2.1}', 'ok'],
  ['ssl and(ssl)', 'ok'],
  ['\tssl\t', 'ok'],
  ['ssl\tand ssl', ['rule-space']],
  ['ssl\u00a0and ssl', ['rule-space']],
  ['ssl\r\nand\nssl', 'ok'],
  ['http.hosteq "x"', ['rule-unknown-identifier']],
  ['ssl AND ssl', ['rule-syntax']],
  ['http.host EQ "x"', ['rule-syntax']],
  ['true', 'ok'],
  ['true and ssl', 'ok'],
  ['false', ['rule-unknown-identifier']],
  ['ssl == true', ['rule-boolean-operator']],
  ['not ssl', 'ok'],
  ['! ssl', 'ok'],
  ['ssl && ssl || ssl ^^ ssl', 'ok'],
  ['ip.src.asnum & 1', 'ok'],
  ['ip.src.asnum bitwise_and 1', 'ok'],
  ['ssl and', ['rule-syntax']],
  ['(ssl', ['rule-syntax']],
  ['ssl)', ['rule-syntax']],
  ['ssl ssl', ['rule-syntax']],
  ['http.host', ['rule-missing-operator']],
  ['http.host eq', ['rule-missing-value']],
  ['http.host eq http.referer', ['rule-field-value']],
  ['# comment\nssl', ['rule-syntax']],
  ['', ['rule-empty']],
  ['  \n ', ['rule-empty']],
]);

table('value expressions', [
  ['http.host', 'ok', 'value'],
  ['http.request.headers["x"][0]', 'ok', 'value'],
  ['concat("https://example.com", http.request.uri.path)', 'ok', 'value'],
  ['http.host eq "a"', ['rule-syntax'], 'value'],
  ['"literal"', ['rule-syntax'], 'value'],
  ['http.request.headers.names[*]', ['rule-map-each'], 'value'],
]);

describe('limits', () => {
  it('refuses more than 4096 characters', () => {
    const long = `http.host eq "${'a'.repeat(4096 - 15)}"`;
    expect(long.length).toBe(4096);
    expect(outcome(long)).toBe('ok');
    expect(outcome(`http.host eq "${'a'.repeat(4096 - 14)}"`)).toEqual(['rule-too-long']);
    // characters, not UTF-16 units: 4096 emoji in a string is over, 2000 is not
    expect(outcome(`http.host eq "${'🏴'.repeat(2000)}"`)).toBe('ok');
  });

  it('refuses nesting deeper than 128', () => {
    expect(outcome(`${'('.repeat(128)}ssl${')'.repeat(128)}`)).toBe('ok');
    expect(outcome(`${'('.repeat(129)}ssl${')'.repeat(129)}`)).toEqual(['rule-too-deep']);
    expect(outcome(`${'not '.repeat(129)}ssl`)).toEqual(['rule-too-deep']);
  });
});

describe('suggestions and fixes', () => {
  it('suggests the closest field and offers the change', () => {
    const d = checkRule('http.hots eq "x"').diagnostics[0];
    expect(d.code).toBe('rule-unknown-identifier');
    expect([d.start, d.end]).toEqual([0, 9]);
    expect(d.suggestions?.[0]).toBe('http.host');
    expect(d.fixes?.[0].edits).toEqual([{ start: 0, end: 9, newText: 'http.host' }]);
  });

  it('suggests the closest function', () => {
    expect(checkRule('lowr(http.host) eq "x"').diagnostics[0].suggestions?.[0]).toBe('lower');
  });

  it('warns on a deprecated field with its replacement', () => {
    const d = checkRule('ip.geoip.country eq "US"').diagnostics;
    expect(d.map((x) => [x.code, x.severity, x.start, x.end])).toEqual([['rule-deprecated-field', 'warning', 0, 16]]);
    expect(d[0].fixes?.[0].edits[0].newText).toBe('ip.src.country');
  });

  it('offers to remove commas from a list and to quote a bare string', () => {
    const commas = checkRule('http.host in {"a", "b"}').diagnostics;
    expect(commas.map((d) => [d.code, d.start, d.end])).toEqual([['rule-list', 17, 18]]);
    expect(commas[0].fixes?.[0].edits).toEqual([{ start: 17, end: 18, newText: '' }]);
    const bare = checkRule('http.host eq example.com').diagnostics[0];
    expect(bare.fixes?.[0].edits).toEqual([{ start: 13, end: 24, newText: '"example.com"' }]);
  });
});

/** Arguments checked against each other: [expression, phase, expected errors as [code, start, end, api start]]. */
const related: [expression: string, phase: string | undefined, expected: [string, number, number, number][]][] = [
  // has_value(collection, value): the value has the type of the collection's elements
  ['has_value(http.request.headers.names, "Host")', undefined, []],
  ['has_value(cf.bot_management.detection_ids, 7)', undefined, []],
  ['has_value(http.request.headers.names, http.host)', undefined, []],
  ['has_value(http.request.headers.names, 1)', undefined, [['rule-argument-type', 38, 39, 38]]],
  ['has_value(cf.bot_management.detection_ids, "7")', undefined, [['rule-argument-type', 43, 46, 43]]],
  ['has_value(http.request.headers.names, cf.bot_management.score)', undefined, [['rule-argument-type', 38, 61, 38]]],
  ['has_value(cf.bot_management.detection_ids, ip.src)', undefined, [['rule-argument-type', 43, 49, 43]]],
  // bit_slice reads at most 32 bits
  ['bit_slice("tcp", 104, 111) eq 2', 'magic_transit', []],
  ['bit_slice("tcp", 8, 40) eq 2', 'magic_transit', []],
  ['bit_slice("tcp", 8, 41) eq 2', 'magic_transit', [['rule-argument-value', 20, 22, 20]]],
  ['bit_slice("tcp", 0x0, 0x21) eq 2', 'magic_transit', [['rule-argument-value', 22, 26, 22]]],
];

describe('arguments checked against each other', () => {
  it.each(related)('%j', (expression, phase, expected) => {
    const errors = checkRule(expression, phase ? { phase } : {}).diagnostics.filter((d) => d.severity === 'error');
    expect(errors.map((d) => [d.code, d.start, d.end, d.api?.start])).toEqual(expected);
  });
});
