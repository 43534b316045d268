/**
 * check(): every check of docs/language.md#diagnostics on a filter, and the one entry for filter input of
 * either kind. JSON (any form `decompile` accepts) is located by JSON path and by offset in the given text;
 * with `accept: 'json-or-source'`, text that is not JSON (inputKind) is read as `.logfilter` source and
 * compiled. The result says which kind the input was and carries the canonical compact JSON it computed
 * (integers beyond 2^53 exact), so no caller has to sniff the input or go through source to reach JSON.
 */
import { analyze, type CheckOptions, type Stats } from './analyze.js';
import { compile } from './compile.js';
import { DEFAULT_DATASET } from '../datasets/index.js';
import { type Diagnostic, hasErrors } from '../diagnostics.js';
import type { FilterInputForm } from '../json/read-filter.js';
import { readFilter } from './read.js';
import { expectLimit, expectOptionalString, optionsOf } from '../../lang/guards.js';

export type FilterInputKind = 'json' | 'source';

export interface CheckResult {
  ok: boolean;
  diagnostics: Diagnostic[];
  /** Operators and bytes of the canonical form of the filter (when it could be read). */
  stats?: Stats;
  /** The JSON form the filter was found in (JSON input only). */
  form?: FilterInputForm;
  dataset: string;
  /** Whether the input was read as filter JSON or as `.logfilter` source. */
  input: FilterInputKind;
  /** The canonical compact filter JSON (as `compile` writes it, integers exact); only when `ok`. */
  json?: string;
}

export interface CheckInputOptions extends CheckOptions {
  /**
   * `json` (the default): the input is filter JSON, anything else is `invalid-json` (what an API checks).
   * `json-or-source`: text that is not JSON by inputKind is `.logfilter` source (what a user's file may be).
   */
  accept?: 'json' | 'json-or-source';
}

/**
 * Whether a text is filter JSON or `.logfilter` source, by its first character after white space: `{` (a
 * filter, a job, an API answer) or `"` (the filter's JSON-encoded string) is JSON, and so is a Terraform-style
 * assignment of either. No source starts so.
 */
export function inputKind(text: string): FilterInputKind {
  return /^\s*[{"]/.test(text) || TERRAFORM_ASSIGNMENT.test(text) ? 'json' : 'source';
}

/**
 * `filter = "{\"where\":…}"`, as Terraform files hold it, and `jsonencode({…})` as `--format terraform` writes
 * it, alone or assigned (read.ts reads them). The value must open an object, so a source with the `=` typo
 * (`ClientCountry = "us"`) stays source.
 */
const TERRAFORM_ASSIGNMENT = /^\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*=\s*)?(?:"\{|jsonencode\(\s*\{)/;

export function check(input: string | unknown, options?: CheckInputOptions): CheckResult {
  const { accept = 'json', ...limits } = optionsOf(options, 'check') as CheckInputOptions;
  if (accept !== 'json' && accept !== 'json-or-source') throw new RangeError(`check: accept must be 'json' or 'json-or-source'; got ${String(accept)}`);
  expectOptionalString(limits.dataset, 'check', 'dataset');
  expectLimit(limits.maxOperators, 'check', 'maxOperators');
  expectLimit(limits.maxBytes, 'check', 'maxBytes');
  if (accept === 'json-or-source' && typeof input === 'string' && inputKind(input) === 'source') {
    const r = compile(input, limits);
    return { ok: r.ok, diagnostics: r.diagnostics, stats: r.stats, dataset: r.dataset, input: 'source', ...(r.json !== undefined ? { json: r.json } : {}) };
  }
  options = limits;
  const read = readFilter(input);
  // a job names its dataset: its fields are checked against it (the option is the fallback, as for source)
  if (read.dataset !== undefined) options = { ...options, dataset: read.dataset };
  const endOffset = typeof input === 'string' ? input.length : 0;
  if (!read.expr) {
    return { ok: false, diagnostics: read.diagnostics, form: read.form, dataset: options.dataset ?? DEFAULT_DATASET, input: 'json' };
  }
  const at = read.datasetAt;
  const decl = at && read.dataset !== undefined ? { name: read.dataset, nameStart: at.start, nameEnd: at.end, start: at.start, end: at.end } : undefined;
  const a = analyze({ dataset: decl, expr: read.expr, diagnostics: read.diagnostics, endOffset }, options, 'check');
  // located like every JSON diagnostic: by its JSON path too
  if (at) for (const d of a.diagnostics) if (d.code === 'unknown-dataset') d.path = at.path;
  const ok = !hasErrors(a.diagnostics);
  const json = ok ? a.serialized?.json : undefined;
  return { ok, diagnostics: a.diagnostics, stats: a.stats, form: read.form, dataset: a.dataset, input: 'json', ...(json !== undefined ? { json } : {}) };
}
