/**
 * Text edits: applying them (fixes, refactors, formatting) to the text their offsets refer to, and the
 * edits between a text and its formatted version: one edit for the changed middle (cursors and folds
 * outside it stay put), or line hunks for range formatting. Line hunks come from a Myers diff (the `diff`
 * package): O((n+m)·d) where d is the number of changed lines, where the quadratic table it replaced took
 * over half a second and 36 MB at 3,000 lines.
 */
import { diffLines } from 'diff';
import type { TextEdit } from '../diagnostics.js';

/** The one edit that turns `a` into `b`, or none. */
export function minimalEdit(a: string, b: string): TextEdit | undefined {
  if (a === b) return undefined;
  let p = 0;
  const max = Math.min(a.length, b.length);
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { start: p, end: a.length - s, newText: b.slice(p, b.length - s) };
}

/**
 * Past this many changed lines the diff gives up (undefined) and callers use `minimalEdit`. Myers' cost
 * grows with the square of the changes: on a 1 MB text (28,000 lines) giving up takes 150 ms at 500, 1.1 s at
 * 2,000 and 72 s at 20,000 (measured on the development machine, loaded). Range formatting wants few hunks.
 */
export const MAX_CHANGED_LINES = 500;

/** Line hunks turning `a` into `b`, as edits on `a` in order; undefined when the texts differ in too many lines. */
export function lineHunks(a: string, b: string): TextEdit[] | undefined {
  const changes = diffLines(a, b, { maxEditLength: MAX_CHANGED_LINES });
  if (!changes) return undefined;
  const hunks: TextEdit[] = [];
  let offset = 0;
  let open: TextEdit | undefined;
  for (const c of changes) {
    if (!c.added && !c.removed) {
      if (open) hunks.push(open);
      open = undefined;
      offset += c.value.length;
      continue;
    }
    open ??= { start: offset, end: offset, newText: '' };
    if (c.removed) {
      offset += c.value.length;
      open.end = offset;
    } else open.newText += c.value;
  }
  if (open) hunks.push(open);
  return hunks;
}

/** `edits` (not overlapping) applied to `text`. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = '';
  let at = 0;
  for (const e of [...edits].sort((x, y) => x.start - y.start)) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}
