/** The API's error format: 1-based line, UTF-8 byte column, the line and carets; and the way back. */
import { describe, expect, it } from 'vitest';
import { apiLineColumn, checkRule, firstApiError, formatApiError, offsetOfApiLineColumn, ruleApiError } from '@logfilter/core';

describe('positions in the API format', () => {
  it('counts columns in UTF-8 bytes and lines on \\n only', () => {
    expect(apiLineColumn('abc', 0)).toEqual({ line: 1, column: 1 });
    expect(apiLineColumn('é x', 2)).toEqual({ line: 1, column: 4 }); // é is 2 bytes
    expect(apiLineColumn('"🏴" x', 5)).toEqual({ line: 1, column: 8 }); // 4-byte emoji, 2 UTF-16 units
    expect(apiLineColumn('a\r\nb', 3)).toEqual({ line: 2, column: 1 });
    expect(apiLineColumn('a\rb', 2)).toEqual({ line: 1, column: 3 }); // CR alone does not end a line
  });

  it('maps an API position back to the UTF-16 offset', () => {
    const text = 'http.host eq "é" and\n  xyz';
    for (const offset of [0, 14, 15, 16, 23, 26]) {
      const { line, column } = apiLineColumn(text, offset);
      expect(offsetOfApiLineColumn(text, line, column)).toBe(offset);
    }
  });

  it('prints the line, COL-1 spaces and the carets of the span', () => {
    expect(ruleApiError('http.blob ~ "Chrome"')).toBe('Filter parsing error (1:1):\nhttp.blob ~ "Chrome"\n^^^^^^^^^ unknown identifier');
    const text = 'http.host eq "ü" and xyz';
    const out = ruleApiError(text)!;
    expect(out.split('\n')[0]).toBe('Filter parsing error (1:23):');
    expect(out.split('\n')[2]).toBe(`${' '.repeat(22)}^^^ unknown identifier`);
  });

  it('shows one caret for an empty span and clips a span to its line', () => {
    const end = ruleApiError('http.host in {')!;
    expect(end.split('\n')[0]).toBe('Filter parsing error (1:15):');
    expect(end.split('\n')[2]).toBe(`${' '.repeat(14)}^ unrecognised input`);
    const text = 'ssl == true\nand ssl';
    const d = firstApiError(checkRule(text).diagnostics)!;
    expect(formatApiError(text, d).split('\n')[2]).toBe('   ^^^^^^^^ unrecognised input');
  });

  it('reports the error the language meets first, as the API does', () => {
    expect(ruleApiError('\n\n    xyz')!.split('\n')[0]).toBe('Filter parsing error (3:5):');
    expect(ruleApiError('ssl and xyz and abc')!.split('\n')[0]).toBe('Filter parsing error (1:9):');
    expect(ruleApiError('ssl')).toBeUndefined();
  });

  it('points a root of type Array<Bool> at the end, as the language does', () => {
    const text = 'http.request.headers.names[*] == "a" and http.request.headers.names[*] == "b"';
    expect(ruleApiError(text)!.split('\n')[0]).toBe(`Filter parsing error (1:${text.length + 1}):`);
  });
});

describe('caret spans of the real errors', () => {
  it('underlines the rest of the line where a token was expected, and the comma and the space after it', () => {
    const pr3994 = 'all(http.request.headers[\'content-type\'][*] == "application/json")';
    expect(ruleApiError(pr3994)!.split('\n')[2]).toBe(`${' '.repeat(25)}${'^'.repeat(pr3994.length - 25)} expected literal "expected quoted utf8 string or positive integer"`);
    const pr28223 = '(any(cf.bot_management.detection_ids[*] eq 201326593 and cf.waf.credential_check.username_and_password_leaked))';
    const lines = ruleApiError(pr28223)!.split('\n');
    expect(lines[0]).toBe('Filter parsing error (1:54):');
    expect(lines[2]).toBe(`${' '.repeat(53)}${'^'.repeat(pr28223.length - 53)} expected literal ")"`);
    expect(ruleApiError('concat(0, 0) == 0')!.split('\n')[2]).toBe('       ^ invalid type of argument #0: expected value of type Bytes or Array<_>, but got Int');
  });
});

/**
 * The language stops at its first error: an error before a syntax error that leaves no tree (a dangling
 * operator, a missing `)`) is the one reported. [expression, codes with their ranges, API line:column]
 */
const firstBeforeSyntax: [expression: string, errors: [string, number, number][], api: string][] = [
  ['http.nope eq "a" and', [['rule-unknown-identifier', 0, 9], ['rule-syntax', 20, 20]], '1:1'],
  ['http.host == x and', [['rule-value', 13, 14], ['rule-syntax', 18, 18]], '1:14'],
  ['ip.src eq 1.2.3.4/24 or (ssl', [['rule-value', 10, 20], ['rule-syntax', 28, 28]], '1:11'],
  ['(ssl and http.nope eq "a"', [['rule-unknown-identifier', 9, 18], ['rule-syntax', 25, 25]], '1:10'],
  ['lower(http.nope', [['rule-unknown-identifier', 6, 15], ['rule-syntax', 15, 15]], '1:7'],
  ['ssl and\n  http.nope eq "a" or', [['rule-unknown-identifier', 10, 19], ['rule-syntax', 29, 29]], '2:3'],
  // nothing before the syntax error: it stays the only one
  ['ssl and', [['rule-syntax', 7, 7]], '1:8'],
  ['ssl and not', [['rule-syntax', 11, 11]], '1:12'],
  ['(http.host eq "a"', [['rule-syntax', 17, 17]], '1:18'],
];

describe('the first error before a syntax error', () => {
  it.each(firstBeforeSyntax)('%j', (expression, errors, api) => {
    const ds = checkRule(expression).diagnostics.filter((d) => d.severity === 'error');
    expect(ds.map((d) => [d.code, d.start, d.end])).toEqual(errors);
    expect(/^Filter parsing error \((\d+:\d+)\)/.exec(ruleApiError(expression) ?? '')?.[1]).toBe(api);
  });
});
