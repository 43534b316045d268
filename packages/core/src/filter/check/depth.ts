/** `too-deep` (docs/language.md#limits). */
import type { Expr } from '../ast.js';
import { diag, type Diagnostic } from '../diagnostics.js';
import { MAX_DEPTH } from '../limits.js';

/**
 * Nesting deeper than 64 groups: parenthesised groups in source, and/or nodes in JSON (where the tree came
 * from a document, its nodes carry a `path`).
 */
export function checkDepth(e: Expr, out: Diagnostic[]): boolean {
  const stack: { n: Expr; depth: number }[] = [{ n: e, depth: 0 }];
  while (stack.length) {
    const { n, depth } = stack.pop()!;
    if (!n) continue;
    let d = depth;
    if (n.kind === 'group' || ((n.kind === 'and' || n.kind === 'or') && n.path)) {
      d++;
      if (d > MAX_DEPTH) {
        const end = n.kind === 'group' ? n.start + 1 : n.end;
        out.push(diag('too-deep', `nesting deeper than ${MAX_DEPTH} groups`, n.start, end, { path: n.kind !== 'group' ? n.path : undefined }));
        return true;
      }
    }
    if (n.kind === 'group' || n.kind === 'not') stack.push({ n: n.expr, depth: d });
    else if (n.kind === 'and' || n.kind === 'or') for (const i of n.items) stack.push({ n: i, depth: d });
  }
  return false;
}
