/**
 * Regex literals of `matches`/`~` (reference/rules-language.md §1.3, §5.3): the API refuses a regex the engine
 * cannot compile ("regex: crate syntax message"), and a quoted regex ends only at a `"` outside a `[…]` class.
 * The checker reports what both regex dialects (Rust's and RE2) refuse, and stays quiet on Rust-only syntax it
 * cannot judge, so a valid expression is never refused.
 */
import { describe, expect, it } from 'vitest';
import { checkRule, ruleApiError } from '@logfilter/core';

function codes(expression: string): string[] {
  return [...new Set(checkRule(expression).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code))];
}

describe('regex literals are checked', () => {
  it.each([
    ['http.host matches "(a"', 'rule-regex'],
    ['http.host ~ r"(a"', 'rule-regex'],
    ['http.host matches "a)"', 'rule-regex'],
    ['http.host matches "a{2,1}"', 'rule-regex'],
    ['http.host matches "*a"', 'rule-regex'],
    ['http.host matches "(?=a)b"', 'rule-regex'],
    ['http.host matches "(?<!a)b"', 'rule-regex'],
    ['http.host matches r"(a)\\1"', 'rule-regex'],
    ['http.host matches "[a"', 'rule-string'],
    ['any(http.request.headers.names[*] matches "(a")', 'rule-regex'],
  ])('%s is refused (%s)', (expression, code) => {
    expect(codes(expression)).toEqual([code]);
  });

  it.each([
    'http.host matches "\\d+"',
    'http.host matches "(?u)\\p{Hangul}+"',
    'http.host matches "(?i)^www\\."',
    'http.host matches "(?i-u)^www\\."',
    'http.host matches "(?-u:\\xff)"',
    'http.host matches "[\\"]"',
    'http.host matches "["]"',
    'http.host matches "(?P<n>a)"',
    'http.host matches r#"^/a"b"#',
    // Rust-only syntax RE2 does not know: not judged, so never refused
    'http.host matches "(?x) a b # comment"',
    'http.host matches "[a-z&&[^aeiou]]"',
    'http.host matches "[[:alpha:]--a]"',
    'http.host matches "\\u0041"',
    'http.host matches "\\bfoo\\b{end}"',
  ])('%s is accepted', (expression) => {
    expect(codes(expression)).toEqual([]);
  });

  it('answers in the API format, at the literal', () => {
    const out = ruleApiError('ssl and http.host matches "(a"')!.split('\n');
    expect(out[0]).toBe('Filter parsing error (1:27):');
    expect(out[2].startsWith(`${' '.repeat(26)}^^^^ `)).toBe(true);
  });
});

describe('the pattern arguments of regex_replace and wildcard_replace are checked', () => {
  const value = (expression: string) => checkRule(expression, { kind: 'value', phase: 'http_request_transform' }).diagnostics.filter((d) => d.severity === 'error');

  it.each([
    ['regex_replace(http.request.uri.path, "(foo", "/bar")', 37],
    ['regex_replace(http.request.uri.path, r"a{3,2}", "/bar")', 37],
    ['wildcard_replace(http.request.uri.path, "/a**", "/b")', 40],
    ['wildcard_replace(http.request.uri.path, r"/a\\q", "/b")', 40],
  ])('%s: rule-argument-value at the pattern', (expression, start) => {
    expect(value(expression).map((d) => [d.code, d.start])).toEqual([['rule-argument-value', start]]);
    expect(ruleApiError(expression, { kind: 'value', phase: 'http_request_transform' })).toContain('invalid value of argument #1: invalid argument:');
  });

  it.each([
    'regex_replace(http.request.uri.path, "^/foo/(.*)$", "/bar/${1}")',
    'regex_replace(http.request.uri.path, r"(?x) ^/a", "/b")',
    'wildcard_replace(http.request.uri.path, "/a/*", "/b/${1}")',
  ])('%s is accepted', (expression) => {
    expect(value(expression)).toEqual([]);
  });
});
