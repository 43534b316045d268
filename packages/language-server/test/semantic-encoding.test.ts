/** The semantic-token encoder: tokens cut at their line end, whatever the line break; a .rule file's header. */
import { describe, expect, it } from 'vitest';
import { encodeTokens, rulesSemanticTokens } from '../src/semantic-encoding.js';

describe('encodeTokens', () => {
  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('cuts a token with a %s line break at its line end, the break left out', (_what, eol) => {
    const text = `x "ab${eol}cd" y`;
    // [line delta, character, length, type, modifiers]: `"ab` only, whatever the break
    expect(Array.from(encodeTokens(text, [{ start: 2, end: 7 + eol.length, type: 'string' }]))).toEqual([0, 2, 3, 5, 0]);
  });

  it('a rules string over a CRLF line break stays within its first line', () => {
    const text = 'http.host eq "a\r\nb" and ssl';
    const data = Array.from(rulesSemanticTokens(text));
    // the third token is the string: it starts at 13 of a 15-character line
    expect(data.slice(10, 13)).toEqual([0, 3, 2]);
  });

  it('a .rule file\'s # header lines are comments, their words not coloured as the language\'s', () => {
    const text = '# phase: http_request_firewall_custom\r\n# blocks http.host "x" and lower() 10\r\nssl';
    // comment (type 7) over each header line without its \r, then the field `ssl` (property, 2)
    expect(Array.from(rulesSemanticTokens(text))).toEqual([0, 0, 37, 7, 0, 1, 0, 37, 7, 0, 1, 0, 3, 2, 0]);
  });
});
