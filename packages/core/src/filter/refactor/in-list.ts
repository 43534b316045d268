/**
 * Refactor: `x == a or x == b or ...` → `x in [a, b, ...]`, and `x != a and x != b` → `x not in [a, b]`.
 * Both mean the same on every log line (docs/language.md#evaluation: `in` holds when the value equals a member;
 * `!eq`/`!in` hold for absent fields). Pure text edits on the parsed source.
 */
import type { Comment, Condition, Expr, FileNode } from '../ast.js';
import type { Fix } from '../diagnostics.js';
import { walkExpr } from '../walk.js';

/**
 * The merges offered for the range `start..end` of `text` (a cursor is an empty range): one per run of
 * two or more adjacent equality conditions on one field in an `or` (inequalities in an `and`) that the
 * range touches. Values are copied as written, each once; booleans and decimals are left alone (`in` does not take them).
 * A comment between two conditions ends a run, so that no merge deletes it.
 */
export function inListRefactors(file: FileNode, text: string, start: number, end: number): Fix[] {
  const fixes: Fix[] = [];
  walkExpr(file.expr, (e) => {
    if (e.kind !== 'and' && e.kind !== 'or') return;
    for (const run of runs(e.items, e.kind === 'or' ? 'eq' : '!eq', file.comments)) {
      const first = run[0];
      const last = run[run.length - 1];
      if (last.end < start || first.start > end) continue;
      const field = text.slice(first.field.start, first.field.end);
      // each value once, as first written (`"us"` and `"\u0075s"`, `500` and `0500` are one value)
      const seen = new Set<string>();
      const values = run.filter((c) => !seen.has(valueKey(c)) && seen.add(valueKey(c))).map((c) => text.slice(c.value.start, c.value.end));
      const op = e.kind === 'or' ? 'in' : 'not in';
      fixes.push({
        title: `Merge into ${field} ${op} [${values.join(', ')}]`,
        edits: [{ start: first.start, end: last.end, newText: `${field} ${op} [${values.join(', ')}]` }],
      });
    }
  });
  return fixes;
}

/** What a list value is, whatever its spelling. */
function valueKey(c: Condition): string {
  const v = c.value;
  return v.kind === 'string' ? `s${v.value}` : v.kind === 'int' ? `i${BigInt(v.raw)}` : `${v.kind}${v.start}`;
}

/**
 * Maximal runs (length ≥ 2) of adjacent conditions with operator `op` on the same field and list-able values,
 * with no comment between two of them.
 */
function runs(items: readonly Expr[], op: 'eq' | '!eq', comments: readonly Comment[]): Condition[][] {
  const out: Condition[][] = [];
  let run: Condition[] = [];
  const flush = () => {
    if (run.length >= 2) out.push(run);
    run = [];
  };
  for (const item of items) {
    const ok = item.kind === 'condition' && item.operator.name === op && (item.value.kind === 'string' || item.value.kind === 'int');
    if (!ok) {
      flush();
      continue;
    }
    const prev = run[run.length - 1];
    if (prev && (prev.field.name !== item.field.name || comments.some((c) => c.start >= prev.end && c.start < item.start))) flush();
    run.push(item);
  }
  flush();
  return out;
}
