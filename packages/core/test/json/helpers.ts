/** Helpers shared by the JSON reader tests. */
import { expect } from 'vitest';
import type { Diagnostic, Fix } from '../../src/lang/diagnostics.js';
import type { ReadFilterResult } from '../../src/filter/json/index.js';
import { applyEdits } from '../../src/filter/format/edits.js';

/** Applies a fix's edits (non-overlapping, any order) to `text`. */
export function applyFix(text: string, fix: Fix): string {
  return applyEdits(text, fix.edits);
}

export function codes(r: ReadFilterResult): string[] {
  return r.diagnostics.map((d) => d.code);
}

/** The one diagnostic with `code` (fails when there are none or several). */
export function one(r: ReadFilterResult, code: string): Diagnostic {
  const found = r.diagnostics.filter((d) => d.code === code);
  expect(found, `${code} in ${JSON.stringify(r.diagnostics)}`).toHaveLength(1);
  return found[0];
}

/** [start, end) of the first occurrence of `part` in `text` at or after `from`. */
export function rangeOf(text: string, part: string, from = 0): [number, number] {
  const at = text.indexOf(part, from);
  expect(at, `${part} in ${text}`).toBeGreaterThanOrEqual(0);
  return [at, at + part.length];
}

export function range(d: { start: number; end: number }): [number, number] {
  return [d.start, d.end];
}
