/** Applying text edits (fixes, refactors, formatting) to the text their offsets refer to. */
import type { TextEdit } from './diagnostics.js';

/**
 * `text` with `edits` applied. The edits must not overlap; their order does not matter, since each is applied
 * from the end of the text backwards so that earlier offsets stay valid.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
