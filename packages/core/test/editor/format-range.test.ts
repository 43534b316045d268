/** Range formatting: the line hunks touching the range (a Myers line diff), only when meaning is kept. */
import { describe, expect, it } from 'vitest';
import { applyEdits, compile, format, formatRange, lineHunks, minimalEdit } from '../../src/index.js';
import { markers } from '../../../../test/support/markers.js';

describe('lineHunks', () => {
  it('gives the changed line runs as edits on the first text', () => {
    const a = 'one\ntwo\nthree\nfour\nfive\n';
    const b = 'one\nTWO\nthree\nfour\nFIVE\nsix\n';
    const hunks = lineHunks(a, b)!;
    expect(hunks).toEqual([
      { start: 4, end: 8, newText: 'TWO\n' },
      { start: 19, end: 24, newText: 'FIVE\nsix\n' },
    ]);
    expect(applyEdits(a, hunks)).toBe(b);
  });

  it('handles a last line without its line break, and equal texts', () => {
    expect(applyEdits('a\nb', lineHunks('a\nb', 'a\nc\n')!)).toBe('a\nc\n');
    expect(lineHunks('same\n', 'same\n')).toEqual([]);
  });

  it('stays linear in the text for few changes (30,000 lines, one changed)', () => {
    const lines = Array.from({ length: 30_000 }, (_, i) => `and ClientRequestHost == "h${i}.example.com"\n`);
    const a = lines.join('');
    const b = [...lines.slice(0, 15_000), 'and   x == 1\n', ...lines.slice(15_001)].join('');
    const hunks = lineHunks(a, b)!;
    expect(hunks).toHaveLength(1);
    expect(applyEdits(a, hunks)).toBe(b);
  });
});

describe('formatRange', () => {
  it('formats only the lines the range touches', () => {
    const { text, ranges } = markers(
      'ClientRequestHost == "api.example.com"\nand <|EdgeResponseStatus   >=|> 500\nand ClientCountry in ["us", "ca"]\nand ClientRequestPath   not startsWith "/static/"\n',
    );
    const r = formatRange(text, ranges[0].start, ranges[0].end);
    expect(r.ok).toBe(true);
    expect(r.whole).toBe(false);
    expect(applyEdits(text, r.edits)).toBe(text.replace('EdgeResponseStatus   >=', 'EdgeResponseStatus >='));
  });

  it('never changes what the filter means, whatever line the range is on', () => {
    const text = '# hosts\nClientRequestHost ==   "api.example.com" or (ClientRequestHost == "b.example.com"\n   and EdgeResponseStatus >= 500)\nand ( ClientCountry in ["us","ca"] )\nand not   (BotScore < 30)\n';
    const meaning = compile(text, { dataset: 'any' }).json;
    let at = 0;
    for (const line of text.split('\n')) {
      const r = formatRange(text, at, at + line.length);
      expect(r.ok).toBe(true);
      const out = applyEdits(text, r.edits);
      expect(compile(out, { dataset: 'any' }).json, JSON.stringify(line)).toBe(meaning);
      if (r.whole) expect(out).toBe(format(text).text);
      at += line.length + 1;
    }
  });

  it('returns nothing for a formatted text and refuses a text with a syntax error', () => {
    const text = format('x == 1 and y == 2').text;
    expect(formatRange(text, 0, text.length)).toMatchObject({ ok: true, edits: [] });
    const broken = formatRange('x == 1 and', 0, 3);
    expect(broken.ok).toBe(false);
    expect(broken.edits).toEqual([]);
    expect(broken.diagnostics.map((d) => d.code)).toEqual(['syntax']);
  });
});

describe('minimalEdit', () => {
  it('is the changed middle', () => {
    expect(minimalEdit('abcXYdef', 'abcZdef')).toEqual({ start: 3, end: 5, newText: 'Z' });
    expect(minimalEdit('same', 'same')).toBeUndefined();
  });
});
