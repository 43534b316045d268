/** Where syntax errors point, and that the lines after one are still checked. */
import { describe, expect, it } from 'vitest';
import { compile, parse } from '../../src/index.js';
import { markers } from '../../../../test/support/markers.js';

/** Codes and `<|…|>` ranges of a marked text's diagnostics, in order. */
function expectDiagnostics(marked: string, codes: string[]) {
  const { text, ranges } = markers(marked);
  const got = compile(text).diagnostics.map((d) => ({ code: d.code, start: d.start, end: d.end }));
  expect(got).toEqual(codes.map((code, i) => ({ code, ...ranges[i] })));
}

describe('an error caused by missing input', () => {
  it('points just after the last token, not at the end of the text', () => {
    expectDiagnostics('EdgeResponseStatus >= 500\nand ClientReq<||>\n\n\n', ['syntax']);
  });

  it('does so after a trailing operator, a trailing `and` and an open list, with comments after', () => {
    expectDiagnostics('ClientCountry ==<||>  # to do\n\n', ['syntax']);
    expectDiagnostics('ClientCountry == "us" and<||>\n\n', ['syntax']);
    expectDiagnostics('ClientCountry in ["us"<||>\n', ['syntax']);
  });
});

describe('after a syntax error', () => {
  it('recovers at the next `and` and still checks the later conditions', () => {
    expectDiagnostics(
      'ClientRequestHost == "example.com"<|andand|> ClientCountry in ["us"]\nand EdgeResponseStatus in <|500|>\nand <|WAFAction|> == "block"\n',
      ['syntax', 'in-needs-list', 'removed-field'],
    );
  });

  it('recovers at the next line start', () => {
    expectDiagnostics('ClientRequestHost == "a" <|ClientCountry|> == "us"\n<|ClientRequestHst|> == "b"', ['syntax', 'unknown-field']);
  });

  it('recovers after every error, so each broken line gets its own diagnostic', () => {
    const { diagnostics } = parse('a == 1 b\nand c == 2 d\nor e == 3 f\nand g == 4');
    expect(diagnostics.map((d) => d.code)).toEqual(['syntax', 'syntax', 'syntax']);
    expect(parse('a == 1 b\nand c == 2 d\nor e == 3 f\nand g == 4').conditions.map((c) => c.field.name)).toEqual(['a', 'c', 'e', 'g']);
  });
});
