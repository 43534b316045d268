/** Moves every offset of a tree by `delta` (for input read from a slice of the text the user gave). */
import type { Expr, Value } from '../ast.js';

export function shiftExpr(e: Expr, delta: number): Expr {
  const s = <T extends { start: number; end: number }>(n: T): T => ({ ...n, start: n.start + delta, end: n.end + delta });
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
