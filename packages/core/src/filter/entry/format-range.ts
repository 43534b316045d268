/**
 * formatRange(): the canonical style applied to the lines a range touches. The formatter works on whole
 * files; of its changes, the line hunks touching the range are kept, and only when applying just those
 * still compiles to the same filter (a parenthesis removed on one line and kept on another would not).
 * Otherwise the whole document is formatted.
 */
import { type Diagnostic, type TextEdit } from '../diagnostics.js';
import { applyEdits, lineHunks, minimalEdit } from '../format/edits.js';
import { compile } from './compile.js';
import { format } from './format.js';

export interface RangeFormatResult {
  /** False when the text has syntax errors: nothing is formatted, `diagnostics` says why. */
  ok: boolean;
  /** Edits on the text, in order, not overlapping (empty when nothing in the range changes). */
  edits: TextEdit[];
  /** True when the edits format the whole text (the range alone could not be formatted safely). */
  whole: boolean;
  /** Syntax diagnostics. */
  diagnostics: Diagnostic[];
}

/** Formats the lines that `[start, end)` touches (UTF-16 offsets). */
export function formatRange(source: string, start: number, end: number): RangeFormatResult {
  const r = format(source);
  if (!r.ok) return { ok: false, edits: [], whole: false, diagnostics: r.diagnostics };
  if (!r.changed) return { ok: true, edits: [], whole: false, diagnostics: r.diagnostics };
  const hunks = lineHunks(source, r.text);
  if (hunks) {
    const chosen = hunks.filter((h) => h.start <= end && h.end >= start);
    if (chosen.length === 0 || sameFilter(source, applyEdits(source, chosen))) return { ok: true, edits: chosen, whole: false, diagnostics: r.diagnostics };
  }
  const edit = minimalEdit(source, r.text);
  return { ok: true, edits: edit ? [edit] : [], whole: true, diagnostics: r.diagnostics };
}

/** The formatter's edits for the whole text as one minimal edit (none when it is formatted already). */
export function formatEdits(source: string): { ok: boolean; edits: TextEdit[]; diagnostics: Diagnostic[] } {
  const r = format(source);
  const edit = r.ok ? minimalEdit(source, r.text) : undefined;
  return { ok: r.ok, edits: edit ? [edit] : [], diagnostics: r.diagnostics };
}

/** Both texts compile to the same filter, whatever the dataset and limits (meaning, not checks). */
function sameFilter(before: string, after: string): boolean {
  const opts = { dataset: 'any', maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };
  const a = compile(before, opts);
  const b = compile(after, opts);
  return a.ok && b.ok && a.json === b.json;
}
