/** Walking an expression tree: the one pre-order walk that every pass over its nodes or conditions uses. */
import type { Condition, Expr } from './ast.js';

/**
 * Calls `visit` on every node of `e` in pre-order, left to right (the order of the text). An explicit stack,
 * not recursion: trees read from JSON input can be deeper than the call stack.
 */
export function walkExpr(e: Expr | undefined, visit: (n: Expr) => void): void {
  if (!e) return;
  const stack: Expr[] = [e];
  while (stack.length) {
    const n = stack.pop()!;
    if (!n) continue; // a tree built during error recovery may have holes
    visit(n);
    if (n.kind === 'group' || n.kind === 'not') stack.push(n.expr);
    else if (n.kind === 'and' || n.kind === 'or') for (let i = n.items.length - 1; i >= 0; i--) stack.push(n.items[i]);
  }
}

/** The conditions of `e`, in the order of the text. */
export function conditionsIn(e: Expr | undefined): Condition[] {
  const found: Condition[] = [];
  walkExpr(e, (n) => {
    if (n.kind === 'condition') found.push(n);
  });
  return found;
}
