import { describe, expect, it } from 'vitest';
import type { Condition, Logical } from '../../src/filter/ast.js';
import { readFilterInput } from '../../src/filter/json/index.js';
import { applyFix, codes, one, range, rangeOf } from './helpers.js';

describe('missing-where', () => {
  it('on an object without where', () => {
    const text = '{"filter_by":1}';
    const d = one(readFilterInput(text), 'missing-where');
    expect([d.path, ...range(d)]).toEqual([[], 0, text.length]);
    expect(d.fixes).toBeUndefined();
  });

  it.each([
    ['a bare condition', ' {"key":"A","operator":"eq","value":"x"}'],
    ['a bare and node', '{"and":[{"key":"A","operator":"eq","value":"x"}]}'],
    ['a bare or node', '{"or":[{"key":"A","operator":"eq","value":"x"}]}'],
  ])('on %s, with a fix that wraps it', (_what, text) => {
    const r = readFilterInput(text);
    const d = one(r, 'missing-where');
    expect([d.path, ...range(d)]).toEqual([[], text.indexOf('{'), text.length]);
    expect(r.expr).toBeUndefined();
    const fixed = readFilterInput(applyFix(text, d.fixes![0]));
    expect(fixed.diagnostics).toEqual([]);
    expect((fixed.expr as Condition | Logical).path).toEqual(['where']);
  });

  it('still reads the bare node for its own problems', () => {
    const text = '{"key":"BotScore","operator":"lte","value":"30"}';
    const r = readFilterInput(text);
    expect(codes(r)).toEqual(['missing-where', 'unknown-operator']);
    expect(one(r, 'unknown-operator').path).toEqual(['operator']);
  });

  it('suggests the right spelling of where', () => {
    const text = '{"Where":{"key":"A","operator":"eq","value":1}}';
    const d = one(readFilterInput(text), 'missing-where');
    expect([d.path, ...range(d), d.suggestions]).toEqual([['Where'], 1, 8, ['where']]);
    expect(readFilterInput(applyFix(text, d.fixes![0])).diagnostics).toEqual([]);
  });
});

describe('missing key, operator, value', () => {
  it.each([
    ['{"where":{"operator":"eq","value":1}}', 'missing-key'],
    ['{"where":{"key":"ClientRequestPath"}}', 'missing-operator'],
    ['{"where":{"key":"ClientRequestPath","operator":"contains"}}', 'missing-value'],
  ])('%s', (text, code) => {
    const r = readFilterInput(text);
    const d = one(r, code);
    expect([d.path, ...range(d)]).toEqual([['where'], 9, text.length - 1]);
    expect(r.expr).toBeUndefined();
  });

  it('reports each missing part', () => {
    expect(codes(readFilterInput('{"where":{"key":"A"}}'))).toEqual(['missing-operator', 'missing-value']);
  });

  it('{} as a node is missing-key, and only that', () => {
    const text = '{"where":{"and":[{"key":"A","operator":"eq","value":1},{}]}}';
    const r = readFilterInput(text);
    expect(codes(r)).toEqual(['missing-key']);
    expect([r.diagnostics[0].path, ...range(r.diagnostics[0])]).toEqual([['where', 'and', 1], ...rangeOf(text, '{}')]);
  });
});

describe('conflicting-keys', () => {
  it.each([
    ['and with or', '{"where":{"and":[{"key":"A","operator":"eq","value":1}],"or":[{"key":"A","operator":"eq","value":1}]}}', 'or'],
    ['and with key', '{"where":{"and":[{"key":"A","operator":"eq","value":1}],"key":"Key"}}', 'key'],
    ['key before or', '{"where":{"value":"V","or":[{"key":"A","operator":"eq","value":1}]}}', 'or'],
    ['a key set twice', '{"where":{"key":"A","operator":"eq","value":1,"key":"B"}}', 'key'],
  ])('%s: at the second key', (_what, text, second) => {
    const r = readFilterInput(text);
    const d = one(r, 'conflicting-keys');
    expect(d.path).toEqual(['where', second]);
    const at = text.lastIndexOf(`"${second}"`);
    expect(range(d)).toEqual([at, at + second.length + 2]);
    expect(d.related).toHaveLength(1);
    expect(r.expr).toBeUndefined();
  });

  it('still reads the group items', () => {
    const text = '{"where":{"and":[{"key":"A","operator":"neq","value":1}],"key":"K"}}';
    expect(codes(readFilterInput(text)).sort()).toEqual(['conflicting-keys', 'unknown-operator']);
  });
});

describe('unknown-operator', () => {
  it.each([
    ['neq', '!eq'],
    ['lte', 'leq'],
    ['gte', 'geq'],
    ['greater_than', 'gt'],
    ['equals', 'eq'],
    ['==', 'eq'],
    ['not_in', '!in'],
    ['StartsWith', 'startsWith'],
    ['CONTAINS', 'contains'],
  ])('%s: the canonical name, with a preferred fix', (written, canonical) => {
    const text = `{"where":{"key":"A","operator":${JSON.stringify(written)},"value":1}}`;
    const d = one(readFilterInput(text), 'unknown-operator');
    expect(d.path).toEqual(['where', 'operator']);
    expect(range(d)).toEqual(rangeOf(text, JSON.stringify(written)));
    expect(d.suggestions).toEqual([canonical]);
    expect(d.fixes).toHaveLength(1);
    expect(d.fixes![0]).toMatchObject({ preferred: true, edits: [{ ...rangeOfEdit(text, written), newText: JSON.stringify(canonical) }] });
    const fixed = readFilterInput(applyFix(text, d.fixes![0]));
    expect((fixed.expr as Condition).operator.name).toBe(canonical);
  });

  it('otherwise suggests the closest names, without a preferred fix', () => {
    const d = one(readFilterInput('{"where":{"key":"A","operator":"contain","value":"x"}}'), 'unknown-operator');
    expect(d.suggestions?.[0]).toBe('contains');
    expect(d.fixes?.every((f) => !f.preferred)).toBe(true);
    expect(d.fixes?.length).toBe(d.suggestions?.length);
  });

  it('suggests nothing when nothing is close', () => {
    const d = one(readFilterInput('{"where":{"key":"A","operator":"<strong>eq</strong>","value":"x"}}'), 'unknown-operator');
    expect(d.suggestions).toEqual([]);
    expect(d.fixes).toEqual([]);
  });

  it('accepts every operator of the table as written', () => {
    for (const op of ['eq', '!eq', 'lt', 'leq', 'gt', 'geq', 'startsWith', 'endsWith', '!startsWith', '!endsWith', 'contains', '!contains']) {
      const r = readFilterInput(`{"where":{"key":"A","operator":"${op}","value":"1"}}`);
      expect((r.expr as Condition).operator).toMatchObject({ name: op, spelling: op });
    }
  });
});

describe('invalid-node', () => {
  it.each([
    ['key not a string', '{"where":{"key":5,"operator":"eq","value":1}}', ['where', 'key'], '5'],
    ['operator not a string', '{"where":{"key":"A","operator":["eq"],"value":1}}', ['where', 'operator'], '["eq"]'],
    ['value null', '{"where":{"key":"A","operator":"eq","value":null}}', ['where', 'value'], 'null'],
    ['value an object', '{"where":{"key":"A","operator":"eq","value":{"x":1}}}', ['where', 'value'], '{"x":1}'],
    ['a nested list', '{"where":{"key":"A","operator":"in","value":[1,[2]]}}', ['where', 'value', 1], '[2]'],
    ['null in a list', '{"where":{"key":"A","operator":"in","value":["a",null]}}', ['where', 'value', 1], 'null'],
    ['node a string', '{"where":{"or":["A == 1"]}}', ['where', 'or', 0], '"A == 1"'],
    ['where null', '{"where":null}', ['where'], 'null'],
    ['and not a list', '{"where":{"and":{"key":"A","operator":"eq","value":1}}}', ['where', 'and'], '{"key":"A","operator":"eq","value":1}'],
    ['a nested empty group', '{"where":{"and":[{"key":"A","operator":"eq","value":1},{"or":[]}]}}', ['where', 'and', 1, 'or'], '[]'],
    ['the document a list', ' [{"where":1}]', [], '[{"where":1}]'],
  ])('%s', (_what, text, path, offending) => {
    const r = readFilterInput(text);
    expect(codes(r)).toEqual(['invalid-node']);
    expect(r.diagnostics[0].path).toEqual(path);
    expect(range(r.diagnostics[0])).toEqual(rangeOf(text, offending, path.length ? 8 : 0));
  });
});

describe('empty-filter', () => {
  it.each(['and', 'or'])('an empty top-level %s', (kind) => {
    const text = `{"where":{"${kind}":[ ]}}`;
    const d = one(readFilterInput(text), 'empty-filter');
    expect([d.path, ...range(d)]).toEqual([['where', kind], ...rangeOf(text, '[ ]')]);
  });
});

describe('unknown-property', () => {
  it('warns about extra properties and still gives the expression', () => {
    const text = '{"where":{"key":"A","operator":"eq","value":1,"comment":"x"},"dataset":"http_requests"}';
    const r = readFilterInput(text);
    expect(r.diagnostics.map((d) => [d.code, d.severity, d.path, ...range(d)])).toEqual([
      ['unknown-property', 'warning', ['where', 'comment'], ...rangeOf(text, '"comment"')],
      ['unknown-property', 'warning', ['dataset'], ...rangeOf(text, '"dataset"')],
    ]);
    expect(r.expr?.kind).toBe('condition');
  });

  it('suggests the lower-case name of a capitalised key', () => {
    const text = '{"where":{"Key":"A","operator":"eq","value":1}}';
    const r = readFilterInput(text);
    expect(codes(r)).toEqual(['missing-key', 'unknown-property']);
    const d = one(r, 'unknown-property');
    expect(d.suggestions).toEqual(['key']);
    expect(readFilterInput(applyFix(text, d.fixes![0])).diagnostics).toEqual([]);
  });
});

describe('several problems', () => {
  it('each get their own diagnostic, in text order', () => {
    const text =
      '{"where":{"or":[{"key":"A","operator":"neq","value":1},{"key":"B","value":2},' +
      '{"and":[{"key":3,"operator":"eq","value":1},{"key":"C","operator":"gte","value":null}]}]}}';
    const r = readFilterInput(text);
    expect(r.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['unknown-operator', ['where', 'or', 0, 'operator']],
      ['missing-operator', ['where', 'or', 1]],
      ['invalid-node', ['where', 'or', 2, 'and', 0, 'key']],
      ['unknown-operator', ['where', 'or', 2, 'and', 1, 'operator']],
      ['invalid-node', ['where', 'or', 2, 'and', 1, 'value']],
    ]);
    expect(r.expr).toBeUndefined();
  });

  it('the valid parts of an invalid tree are not returned', () => {
    const r = readFilterInput('{"where":{"and":[{"key":"A","operator":"eq","value":1},{"key":"B"}]}}');
    expect(r.expr).toBeUndefined();
    expect((readFilterInput('{"where":{"and":[{"key":"A","operator":"eq","value":1}]}}').expr as Logical).items).toHaveLength(1);
  });
});

function rangeOfEdit(text: string, written: string) {
  const [start, end] = rangeOf(text, JSON.stringify(written));
  return { start, end };
}
