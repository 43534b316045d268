/**
 * The fix of a duplicate condition: remove it with the `and`/`or` that joins it to its neighbour. It needs
 * the source text (the tree has no spans for the words between conditions), so compile() adds it after the
 * checks; a duplicate whose joining word is not found (inside a group of its own) gets no fix.
 */
import type { Diagnostic } from '../diagnostics.js';

export function withDuplicateFixes(diagnostics: Diagnostic[], text: string): Diagnostic[] {
  return diagnostics.map((d) => {
    if (d.code !== 'duplicate-condition') return d;
    const before = /\s+(?:and|or)\s+$/.exec(text.slice(Math.max(0, d.start - 256), d.start));
    const after = before ? undefined : /^\s+(?:and|or)\s+/.exec(text.slice(d.end, d.end + 256));
    const span = before ? { start: d.start - before[0].length, end: d.end } : after ? { start: d.start, end: d.end + after[0].length } : undefined;
    if (!span) return d;
    return { ...d, fixes: [...(d.fixes ?? []), { title: 'Remove the duplicate condition', edits: [{ ...span, newText: '' }], preferred: true }] };
  });
}
