/**
 * Acceptance audit of list syntax (docs/language.md#lexical-rules): `[v, v, ...]` with one optional trailing comma.
 * An empty slot (`[a,,b]`, `[a,,]`) is a syntax error at the extra comma.
 */
import { describe, expect, it } from 'vitest';
import { compile, format } from '@logfilter/core';

const syntax = (src: string) => compile(src, { dataset: 'any' }).diagnostics.filter((d) => d.code === 'syntax').map((d) => [d.start, d.end]);

describe('list commas', () => {
  it.each([
    ['a in [1, 2]', '[1,2]'],
    ['a in [1, 2,]', '[1,2]'],
    ['a in [1,]', '[1]'],
    ['a in [\n  1,\n  2,\n]', '[1,2]'],
  ])('%j compiles', (src, list) => {
    const r = compile(src, { dataset: 'any' });
    expect(r.diagnostics).toEqual([]);
    expect(r.json).toBe(`{"where":{"key":"a","operator":"in","value":${list}}}`);
  });
  it.each([
    ['a in [1,,]', 8],
    ['a in [1,, 2]', 8],
    ['a in [1, 2,,]', 11],
    ['a in ["x",,,]', 10],
  ])('%j is a syntax error at the extra comma (offset %i)', (src, at) => {
    expect(syntax(src)[0]).toEqual([at, at + 1]);
    expect(compile(src, { dataset: 'any' }).ok).toBe(false);
    expect(format(src).ok).toBe(false);
  });
});
