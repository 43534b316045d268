/** The one walk over an expression tree: pre-order in text order, and no recursion on deep trees. */
import { describe, expect, it } from 'vitest';
import type { Expr } from '../src/filter/ast.js';
import { parse } from '../src/index.js';
import { conditionsIn, walkExpr } from '../src/filter/walk.js';

describe('walkExpr / conditionsIn', () => {
  it('visits nodes in pre-order and conditions in the order of the text', () => {
    const text = 'a == 1 or not (b == 2 and (c == 3 or d == 4)) or e == 5';
    const { file } = parse(`dataset any\n${text}`);
    const kinds: string[] = [];
    walkExpr(file.expr, (n) => kinds.push(n.kind));
    expect(kinds).toEqual(['or', 'condition', 'not', 'group', 'and', 'condition', 'group', 'or', 'condition', 'condition', 'condition']);
    expect(conditionsIn(file.expr).map((c) => c.field.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(conditionsIn(undefined)).toEqual([]);
  });

  it('walks a tree far deeper than the call stack', () => {
    const leaf: Expr = parse('dataset any\nx == 1').file.expr!;
    let e: Expr = leaf;
    for (let i = 0; i < 200_000; i++) e = { kind: 'not', expr: e, start: 0, end: 1 } as Expr;
    expect(conditionsIn(e)).toEqual([leaf]);
  });
});
