/**
 * The layer both languages stand on (src/lang/): the diagnostic-code registry, the Chevrotain base's guards,
 * the text mapping for expressions embedded in JSON, and the one JSON-number grammar.
 */
import { describe, expect, it } from 'vitest';
import { createTokenInstance, createToken, type IToken } from 'chevrotain';
import { diagnosticFactory, severityOf } from '../../src/lang/diagnostics.js';
import { expectedTokenName, finishSyntaxDiagnostics, lexerErrorSpans, tooDeepToken } from '../../src/lang/chevrotain.js';
import { IDENTITY_MAPPING, mapDiagnostic, throughString } from '../../src/lang/text-mapping.js';
import { parseJson, type JsonObject, type JsonString } from '../../src/lang/located-json.js';
import { isNumericString, JSON_INTEGER, JSON_NUMBER } from '../../src/lang/json-number.js';
import { check, checkRule, checkRuleDocument, DIAGNOSTIC_CODES, FILTER_PARSER_SETTINGS, parse, parseRule } from '../../src/index.js';

describe('diagnostic registry', () => {
  it('knows both languages\' codes and the JSON reader\'s', () => {
    expect(severityOf('unknown-field')).toBe('error');
    expect(severityOf('rule-ip-ordering')).toBe('warning');
    expect(severityOf('invalid-json')).toBe('error');
    expect(severityOf('no-such-code')).toBeUndefined();
    for (const [code, severity] of Object.entries(DIAGNOSTIC_CODES)) expect(severityOf(code)).toBe(severity);
  });

  it('gives a language a diag with its severities, and refuses a code registered with two severities', () => {
    const diag = diagnosticFactory({ 'test-code': 'info' });
    expect(diag('test-code', 'x', 1, 2)).toMatchObject({ code: 'test-code', severity: 'info', start: 1, end: 2 });
    expect(() => diagnosticFactory({ 'unknown-field': 'warning' })).toThrow();
    expect(() => diagnosticFactory({ 'invalid-json': 'error' })).not.toThrow();
  });
});

describe('Chevrotain base', () => {
  const Open = createToken({ name: 'Open', pattern: /\(/ });
  const Close = createToken({ name: 'Close', pattern: /\)/ });
  const Not = createToken({ name: 'Not', pattern: /not/ });
  const tok = (type: typeof Open, at: number): IToken => createTokenInstance(type, type.name, at, at, 1, 1, 1, 1);
  const seq = (s: string) => [...s].map((c, i) => tok(c === '(' ? Open : c === ')' ? Close : Not, i));
  const settings = { maxParseDepth: 3, maxParserErrors: 1, maxSyntaxDiagnostics: 2 };

  it('finds the first token past the nesting limit, open groups plus chained nots', () => {
    const kinds = { open: Open, close: Close, not: Not, notsThroughOpen: true };
    expect(tooDeepToken(seq('((()))((('), kinds, settings)).toBeUndefined();
    expect(tooDeepToken(seq('(()(((('), kinds, settings)).toEqual({ token: expect.objectContaining({ startOffset: 5 }), byNot: false });
    // n ( n n: with nots carried through the group, 1 + 3 > 3 at the last not
    expect(tooDeepToken(seq('n(nn'), kinds, settings)).toEqual({ token: expect.objectContaining({ startOffset: 3 }), byNot: true });
    // the rules language restarts a chain of nots at a group: 1 + 2
    expect(tooDeepToken(seq('n(nn'), { ...kinds, notsThroughOpen: false }, settings)).toBeUndefined();
  });

  it('caps lexer errors and syntax diagnostics, sorted and without repeats', () => {
    const spans = lexerErrorSpans('a#b#c#', [{ offset: 1, length: 1, line: 1, column: 2, message: '' }, { offset: 3, length: 0, line: 1, column: 4, message: '' }, { offset: 5, length: 1, line: 1, column: 6, message: '' }], settings);
    expect(spans).toEqual([{ text: '#', shown: '"#"', start: 1, end: 2 }, { text: '#', shown: '"#"', start: 3, end: 4 }]);
    const d = (start: number) => ({ code: 'syntax', severity: 'error' as const, message: '', start, end: start + 1 });
    expect(finishSyntaxDiagnostics([d(5), d(1), d(5), d(3)]).map((x) => x.start)).toEqual([1, 3, 5]);
    expect(finishSyntaxDiagnostics([d(5), d(1), d(3)], 2).map((x) => x.start)).toEqual([1, 3]);
  });

  it('words syntax errors from the expected token in both languages', () => {
    expect(expectedTokenName({ name: 'MismatchedTokenException', message: 'RParen' } as never)).toBe('RParen');
    expect(expectedTokenName({ name: 'NoViableAltException', message: '' } as never)).toBeUndefined();
    // an unclosed group: each language names the token it expected, at the end of the text
    expect(parse('(a == 1').diagnostics[0]).toMatchObject({ code: 'syntax', start: 7, end: 7 });
    expect(parse('(a == 1').diagnostics[0]!.message).toContain("')'");
    const r = parseRule('(http.host eq "a"').diagnostics[0]!;
    expect(r).toMatchObject({ code: 'rule-syntax', start: 17, end: 17, api: { message: 'expected literal ")"' } });
  });

  it('refuses nesting past each language\'s limit before parsing', () => {
    expect(parse(`${'('.repeat(FILTER_PARSER_SETTINGS.maxParseDepth + 1)}a == 1`).diagnostics.map((x) => x.code)).toEqual(['too-deep']);
    expect(parseRule(`${'('.repeat(129)}http.host eq "a"`).diagnostics.map((x) => x.code)).toEqual(['rule-too-deep']);
    expect(parseRule(`${'('.repeat(128)}http.host eq "a"${')'.repeat(128)}`).diagnostics).toEqual([]);
  });
});

describe('text mapping for expressions embedded in JSON', () => {
  it('moves a diagnostic and its fix through the string\'s escapes', () => {
    const text = '{"expression": "\\u0061 eq 1"}';
    const node = (parseJson(text).value as JsonObject).properties[0]!.value as JsonString;
    const mapping = throughString(IDENTITY_MAPPING, text, node);
    const moved = mapDiagnostic({ code: 'x', severity: 'error', message: '', start: 0, end: 1, fixes: [{ title: '', edits: [{ start: 0, end: 1, newText: '"' }] }] }, mapping, ['expression']);
    expect(moved).toMatchObject({ start: 16, end: 22 });
    expect(moved.fixes![0]!.edits[0]).toEqual({ start: 16, end: 22, newText: '\\"' });
  });

  it('is the one both languages use: a rule in a ruleset and a filter in a job point into the document', () => {
    const rules = checkRuleDocument('{"rules": [{"expression": "http.hots eq \\"a\\""}]}');
    expect(rules.diagnostics[0]).toMatchObject({ code: 'rule-unknown-identifier', start: 27, end: 36, path: ['rules', 0, 'expression'] });
    expect(checkRule('http.hots eq "a"').diagnostics[0]).toMatchObject({ start: 0, end: 9 });
    const job = check('{"dataset": "http_requests", "filter": "{\\"where\\":{\\"key\\":\\"Nope\\",\\"operator\\":\\"eq\\",\\"value\\":1}}"}');
    expect(job.diagnostics[0]).toMatchObject({ code: 'unknown-field' });
    expect(job.diagnostics[0]!.start).toBeGreaterThan(38);
  });
});

describe('the JSON-number grammar', () => {
  it('is the JSON grammar exactly', () => {
    for (const s of ['0', '-0', '12', '1.5', '1e3', '1E+3', '-2.5e-7', '123456789012345678901234567890']) expect(isNumericString(s)).toBe(true);
    for (const s of ['', ' 1', '+1', '01', '.5', '1.', '0x10', 'Infinity', 'NaN', '1e', '--1']) expect(isNumericString(s)).toBe(false);
    expect(JSON_NUMBER.test('1.5')).toBe(true);
    expect(JSON_INTEGER.test('1.5')).toBe(false);
    expect(JSON_INTEGER.test('-12345678901234567890')).toBe(true);
  });
});

describe('each language\'s limits in one settings value', () => {
  it('are the limits the parsers and checkers apply', async () => {
    const { FILTER_PARSER_SETTINGS, RULE_SETTINGS, MAX_RULE_DEPTH, MAX_RULE_LENGTH, MAX_REGEX_INSTRUCTIONS } = await import('../../src/index.js');
    expect([MAX_RULE_DEPTH, MAX_RULE_LENGTH, MAX_REGEX_INSTRUCTIONS]).toEqual([RULE_SETTINGS.maxParseDepth, RULE_SETTINGS.maxLength, RULE_SETTINGS.maxRegexInstructions]);
    expect(checkRule('a'.repeat(RULE_SETTINGS.maxLength + 1)).diagnostics.map((d) => d.code)).toContain('rule-too-long');
    // the filter: past maxParseDepth chained nots, the parser is not run
    const nots = `${'not '.repeat(FILTER_PARSER_SETTINGS.maxParseDepth + 1)}ClientCountry == "us"`;
    expect(parse(nots).diagnostics.map((d) => d.code)).toEqual(['too-deep']);
    expect(parse(`${'not '.repeat(FILTER_PARSER_SETTINGS.maxParseDepth)}ClientCountry == "us"`).diagnostics).toEqual([]);
    const noise = '@ '.repeat(FILTER_PARSER_SETTINGS.maxSyntaxDiagnostics + 50);
    expect(parse(noise).diagnostics.length).toBe(FILTER_PARSER_SETTINGS.maxSyntaxDiagnostics);
  });
});
