/**
 * Refactor: normalise `not` the way the compiler does (docs/language.md#compilation): `not (x == 1)` → `x != 1`,
 * `not not e` → `e`. The compiled filter is byte-identical before and after. Pure text edits; none is offered
 * over a comment it would delete.
 */
import type { Expr, FileNode } from '../ast.js';
import type { Fix } from '../diagnostics.js';
import { OPERATOR_BY_NAME } from '../operators.js';
import { walkExpr } from '../walk.js';

const unwrap = (e: Expr): Expr => (e.kind === 'group' ? unwrap(e.expr) : e);

/** The `not` rewrites offered for the range `start..end` of `text` (a cursor is an empty range). */
export function notRefactors(file: FileNode, text: string, start: number, end: number): Fix[] {
  const fixes: Fix[] = [];
  const commentIn = (from: number, to: number) => file.comments.some((c) => c.start >= from && c.start < to);
  walkExpr(file.expr, (e) => {
    if (e.kind === 'not' && e.start <= end && e.end >= start) {
      const inner = unwrap(e.expr);
      if (inner.kind === 'condition') {
        if (commentIn(e.start, e.end)) return;
        const negated = OPERATOR_BY_NAME.get(OPERATOR_BY_NAME.get(inner.operator.name)!.negation)!;
        const newText = `${text.slice(inner.field.start, inner.field.end)} ${negated.canonical} ${text.slice(inner.value.start, inner.value.end)}`;
        fixes.push({ title: `Push not into the condition: ${newText}`, edits: [{ start: e.start, end: e.end, newText }] });
      } else if (inner.kind === 'not') {
        if (commentIn(e.start, inner.expr.start) || commentIn(inner.expr.end, e.end)) return;
        const kept = text.slice(inner.expr.start, inner.expr.end);
        fixes.push({ title: 'Remove the double not', edits: [{ start: e.start, end: e.end, newText: kept }] });
      }
    }
  });
  return fixes;
}
