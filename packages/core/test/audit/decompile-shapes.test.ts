/**
 * Acceptance audit of decompile (docs/language.md#decompiling-and-formatting) on JSON shapes the compiler
 * never emits: one-item and/or nodes, and/or nested in the same connective. Canonical source adds only the
 * parentheses precedence needs, and compiling it gives the filter back.
 */
import { describe, expect, it } from 'vitest';
import { compile, decompile, filtersEqual, type FilterNode } from '@logfilter/core';

const c = (key: string, value: number): FilterNode => ({ key, operator: 'eq', value });

describe('decompile of shapes the compiler never emits', () => {
  it.each([
    [{ and: [c('b', 1), { or: [c('a', 1)] }] }, 'b == 1 and a == 1'],
    [{ or: [c('b', 1), { and: [{ or: [c('a', 1), c('c', 1)] }] }] }, 'b == 1 or a == 1 or c == 1'],
    [{ and: [{ and: [{ or: [c('a', 1)] }] }] }, 'a == 1'],
    [{ and: [{ or: [{ and: [c('a', 1), c('b', 1)] }] }, c('c', 1)] }, 'a == 1 and b == 1 and c == 1'],
    [{ and: [{ or: [{ or: [c('a', 1), c('b', 1)] }] }, c('c', 1)] }, '(a == 1 or b == 1) and c == 1'],
    [{ or: [{ and: [c('a', 1)] }, { and: [c('b', 1), c('c', 1)] }] }, 'a == 1 or b == 1 and c == 1'],
  ] as [FilterNode, string][])('%j prints with only the parentheses precedence needs', (where, source) => {
    const r = decompile({ where }, { dataset: 'any' });
    expect(r.ok).toBe(true);
    expect(r.source).toBe(`dataset any\n\n${source}\n`);
    const back = compile(r.source!);
    expect(back.ok).toBe(true);
    expect(filtersEqual(JSON.parse(back.json!), { where })).toBe(true);
  });
});
