// How the evaluation panel writes a condition: the language's own spelling (docs/language.md#lexical-rules),
// so a field whose name is a keyword or an operator word, or no identifier at all, is backquoted as in source.
import { describe, expect, it } from 'vitest';
import { compile, type ExplainNode } from '@logfilter/core';
import { conditionText } from '../src/condition-text.js';

const node = (key: string, operator: ExplainNode['operator'], value: ExplainNode['value']): ExplainNode => ({ id: '/where', kind: 'condition', key, operator, value, evaluated: 0, held: 0, rejected: 0 });

describe('conditionText', () => {
  it.each([
    [node('ClientRequestPath', '!startsWith', '/static/'), 'ClientRequestPath not startsWith "/static/"'],
    [node('in', 'eq', 1), '`in` == 1'],
    [node('contains', 'eq', 'x'), '`contains` == "x"'],
    [node('not', 'in', ['a', 'b']), '`not` in ["a", "b"]'],
    [node('x-custom', 'eq', true), '`x-custom` == true'],
  ])('%j → %s', (n, want) => {
    const text = conditionText(n);
    expect(text).toBe(want);
    // what it writes compiles back to the same condition
    expect(compile(text, { dataset: 'any' }).filter?.where).toEqual({ key: n.key, operator: n.operator, value: n.value });
  });
});
