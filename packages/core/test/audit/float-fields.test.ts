/**
 * Acceptance audit of float fields (docs/language.md#types): they take numbers with `eq !eq lt leq gt geq` only,
 * with a `float-field` warning. Every other operator is `operator-type`, as the message's own list says.
 */
import { describe, expect, it } from 'vitest';
import { check, compile } from '@logfilter/core';

const F = 'EdgeResponseCompressionRatio';
const codes = (src: string) => compile(src).diagnostics.map((d) => d.code).sort();

describe('operators on a float field', () => {
  it.each(['==', '!=', '<', '<=', '>', '>=', 'eq', '!eq', 'lt', 'leq', 'gt', 'geq'])('%s is allowed (float-field warning only)', (op) => {
    expect(codes(`${F} ${op} 1.5`)).toEqual(['float-field']);
  });
  it.each(['in', 'not in', '!in'])('%s [..] is operator-type, at the operator', (op) => {
    const src = `${F} ${op} [1.5, 2]`;
    const r = compile(src);
    const d = r.diagnostics.find((x) => x.code === 'operator-type')!;
    expect(codes(src)).toEqual(['float-field', 'operator-type']);
    expect([d.start, d.end]).toEqual([F.length + 1, F.length + 1 + op.length]);
  });
  it.each(['contains', 'startsWith', 'endsWith', 'not contains'])('%s is operator-type', (op) => {
    expect(codes(`${F} ${op} "1"`)).toEqual(['float-field', 'operator-type']);
  });
  it('the same from JSON', () => {
    const r = check(`{"where":{"key":"${F}","operator":"in","value":[1.5]}}`);
    expect(r.diagnostics.map((d) => [d.code, d.path?.join('.')])).toEqual([
      ['float-field', 'where.key'],
      ['operator-type', 'where.operator'],
    ]);
  });
});
