/** Applying text edits (fixes, refactors, formatting) to the text their offsets refer to. */
import type { TextEdit } from '../diagnostics.js';

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
