/** One definition of how a field name is written: the lexer, printer, JSON reader and completion agree. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compile, completionItems, completionSituation, decompile, getLexer, KEYWORDS, OPERATORS, parse } from '../src/index.js';
import { isWritableField, needsBackquotes, readField, RESERVED_WORDS, writeField } from '../src/filter/syntax/field-names.js';

describe('field names', () => {
  it('reserves every keyword and every word spelling of the operator table', () => {
    const words = [...KEYWORDS, ...OPERATORS.flatMap((o) => o.words)];
    expect([...RESERVED_WORDS].sort()).toEqual([...new Set(words)].sort());
    for (const w of words) expect(writeField(w)).toBe(`\`${w}\``);
  });

  it('writes identifiers bare and everything else backquoted', () => {
    expect(writeField('ClientIP')).toBe('ClientIP');
    expect(writeField('_x9')).toBe('_x9');
    expect(writeField('x-custom')).toBe('`x-custom`');
    expect(writeField('9lives')).toBe('`9lives`');
    expect(writeField('Not')).toBe('Not'); // keywords are lower-case
    expect(isWritableField('a`b')).toBe(false);
    expect(isWritableField('')).toBe(false);
    expect(isWritableField('a\nb')).toBe(false);
    expect(isWritableField('\ud800x')).toBe(false);
    expect(isWritableField('\ud83d\ude00')).toBe(true);
  });

  it('reads back what it writes, and an unterminated backquoted name', () => {
    for (const name of ['ClientIP', 'in', 'x-custom', 'a b', '9']) expect(readField(writeField(name))).toBe(name);
    expect(readField('`x-y')).toBe('x-y');
    expect(readField('`')).toBe('');
    expect(readField('``')).toBe('');
    expect(parse('dataset any\n`x-custom` == 1').file.expr).toMatchObject({ kind: 'condition', field: { name: 'x-custom', quoted: true } });
  });

  it('bare names lex as one identifier token exactly when they need no backquotes', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/), (name) => {
        const tokens = getLexer().tokenize(name).tokens;
        const identifier = tokens.length === 1 && tokens[0]!.tokenType.name === 'Identifier';
        expect(identifier).toBe(!needsBackquotes(name));
      }),
    );
  });

  it('a field named like a reserved word survives decompile and compile', () => {
    for (const w of RESERVED_WORDS) {
      const json = JSON.stringify({ where: { key: w, operator: 'eq', value: 1 } });
      const d = decompile(json, { dataset: 'any' });
      expect(d.source).toContain(`\`${w}\``);
      const back = compile(d.source!);
      expect(back.json, w).toBe(json);
    }
  });

  it('the JSON reader marks the same names as quoted', () => {
    for (const [name, quoted] of [['in', true], ['x-y', true], ['ClientIP', false], ['dataset', true]] as const) {
      const d = decompile(JSON.stringify({ where: { key: name, operator: 'eq', value: 1 } }), { dataset: 'any' });
      const p = parse(d.source!);
      expect(p.diagnostics).toEqual([]);
      expect(d.source!.split('\n').at(-2)!.startsWith('`')).toBe(quoted);
    }
  });

  it('completion inserts field names the way the printer writes them', () => {
    const text = 'dataset http_requests\n';
    const items = completionItems(completionSituation(text, text.length));
    const fields = items.filter((i) => i.kind === 'field');
    expect(fields.length).toBeGreaterThan(10);
    for (const f of fields) expect(f.insertText).toBe(writeField(f.label));
  });
});
