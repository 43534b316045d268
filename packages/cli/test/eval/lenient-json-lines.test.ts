/** The lines DuckDB's JSON reader takes and JSON.parse does not, found over chunks cut anywhere. */
import { describe, expect, it } from 'vitest';
import { hasLoneSurrogate, isLenientLine, LenientLineFinder } from '../../src/eval/lenient-json-lines.js';

const find = (text: string, cut: number) => {
  const bytes = Buffer.from(text, 'latin1');
  const f = new LenientLineFinder();
  for (let i = 0; i < bytes.length; i += cut) f.push(bytes.subarray(i, i + cut));
  return f.end();
};

describe('lenient JSON lines', () => {
  it('tells tokens outside strings from the same letters inside them', () => {
    const table: [string, boolean][] = [
      ['{"a":NaN}', true],
      ['{"a":-inf}', true],
      ['{"a":INFINITY}', true],
      ['{"a":1,}', true],
      ['{"a":[1,\t]}', true],
      ['{"a":"NaN","b":"info ,}","c":"\\" inf"}', false],
      ['{"info":1,"nan":[1,2]}', false],
      ['{"a":1}', false],
    ];
    expect(table.map(([line]) => [line, isLenientLine(line)])).toEqual(table);
  });

  it('tells an unpaired surrogate in a JSON object from a pair, an escaped backslash and a malformed line', () => {
    const table: [string, boolean][] = [
      ['{"a":"\\ud800"}', true],
      ['{"a":["x","\\udc00"]}', true],
      ['{"\\uD800x":1}', true],
      ['{"a":"\\ud83d\\ude00"}', false],
      ['{"a":"\\\\ud800"}', false],
      ['{"a":"\\ud800",}', false],
      ['["\\ud800"]', false],
    ];
    expect(table.map(([line]) => [line, hasLoneSurrogate(line)])).toEqual(table);
  });

  it('finds one across chunk edges, in a last line without \\n too', () => {
    const clean = '{"a":"inf"}\n{"b":[1, 2]}\n'.repeat(5);
    for (const cut of [1, 3, 7, 1000]) {
      expect(find(clean, cut), `clean, ${cut}`).toBe(false);
      expect(find(`${clean}{"c":1,}\n${clean}`, cut), `middle, ${cut}`).toBe(true);
      expect(find(`${clean}{"c":nan}`, cut), `last, ${cut}`).toBe(true);
    }
  });
});
