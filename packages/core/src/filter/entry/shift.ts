/**
 * Moves every offset of a tree by `delta`, or through a map of offsets (for input read from a slice of the text
 * the user gave, or from a decoded copy of it).
 */
import type { Expr, Value } from '../ast.js';

export function shiftExpr(e: Expr, delta: number | ((offset: number) => number)): Expr {
  const to = typeof delta === 'number' ? (o: number) => o + delta : delta;
  const s = <T extends { start: number; end: number }>(n: T): T => ({ ...n, start: to(n.start), end: to(n.end) });
  const value = (v: Value): Value => (v.kind === 'list' ? { ...s(v), items: v.items.map(s) } : s(v));
  switch (e.kind) {
    case 'condition':
      return { ...s(e), field: s(e.field), operator: s(e.operator), value: value(e.value) };
    case 'not':
    case 'group':
      return { ...s(e), expr: shiftExpr(e.expr, delta) };
    default:
      return { ...s(e), items: e.items.map((i) => shiftExpr(i, delta)) };
  }
}
