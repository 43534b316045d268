/**
 * check(): every check of docs/language.md#diagnostics on an existing JSON filter (any form `decompile` accepts), located by
 * JSON path and by offset in the given text.
 */
import { analyze, type CheckOptions, type Stats } from './analyze.js';
import { DEFAULT_DATASET } from '../datasets/index.js';
import { type Diagnostic, hasErrors } from '../diagnostics.js';
import type { FilterInputForm } from '../json/read-filter.js';
import { readFilter } from './read.js';

export interface CheckResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Operators and bytes of the canonical form of the filter (when it could be read). */
  stats?: Stats;
  form?: FilterInputForm;
  dataset: string;
}

export function check(input: string | unknown, options: CheckOptions = {}): CheckResult {
  const read = readFilter(input);
  // a job names its dataset: its fields are checked against it (the option is the fallback, as for source)
  if (read.dataset !== undefined) options = { ...options, dataset: read.dataset };
  const endOffset = typeof input === 'string' ? input.length : 0;
  if (!read.expr) {
    return { ok: false, diagnostics: read.diagnostics, form: read.form, dataset: options.dataset ?? DEFAULT_DATASET };
  }
  const a = analyze({ expr: read.expr, diagnostics: read.diagnostics, endOffset }, options);
  return { ok: !hasErrors(a.diagnostics), diagnostics: a.diagnostics, stats: a.stats, form: read.form, dataset: a.dataset };
}
