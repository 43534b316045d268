/**
 * Reading filter input for decompile and check: the four forms of docs/language.md#decompiling-and-formatting, plus two
 * spellings people paste from job bodies and Terraform files — the JSON-encoded string without its
 * surrounding quotes (`{\"where\":...}`), and an assignment `filter = "{\"where\":...}"`. Offsets still
 * point into the text as given.
 */
import type { Diagnostic } from '../diagnostics.js';
import { readFilterInput, type ReadFilterResult } from '../json/read-filter.js';
import { shiftExpr } from './shift.js';

export function readFilter(input: string | unknown): ReadFilterResult {
  const first = readFilterInput(input);
  if (typeof input !== 'string' || first.expr || !first.diagnostics.some((d) => d.code === 'invalid-json')) return first;
  const text = input;
  // Escaped JSON without its quotes is read by readFilterInput itself (with an escaped-json warning).
  const assign = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*=\s*(?="|jsonencode\()/.exec(text);
  const attempt = assign ? { text: text.slice(assign[0].length), shift: assign[0].length } : undefined;
  if (!attempt) return first;
  const second = readFilterInput(attempt.text);
  if (!second.expr && second.diagnostics.some((d) => d.code === 'invalid-json')) return first;
  const shift = (d: Diagnostic): Diagnostic => ({
    ...d,
    start: clamp(d.start + attempt.shift, text.length),
    end: clamp(d.end + attempt.shift, text.length),
    related: d.related?.map((r) => ({ ...r, start: clamp(r.start + attempt.shift, text.length), end: clamp(r.end + attempt.shift, text.length) })),
    fixes: undefined,
  });
  return {
    ...second,
    text,
    diagnostics: second.diagnostics.map(shift),
    expr: second.expr ? shiftExpr(second.expr, attempt.shift) : undefined,
  };
}

function clamp(n: number, max: number): number {
  return Math.max(0, Math.min(n, max));
}
