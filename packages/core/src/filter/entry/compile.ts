/** compile(): `.logfilter` source → canonical filter JSON, with every check of docs/language.md#diagnostics. */
import type { FileNode } from '../ast.js';
import { analyze, type CompileOptions, type Stats } from './analyze.js';
import { toDocument } from '../compile/serialize.js';
import { type Diagnostic, hasErrors } from '../diagnostics.js';
import type { FilterDocument } from '../filter.js';
import { parse } from '../syntax/parse-with-fast-path.js';
import { withDuplicateFixes } from '../check/duplicate-fix.js';
import { expectText, kindOf, optionsOf } from '../../lang/guards.js';

export interface CompileResult {
  /** No error diagnostics (warnings allowed). */
  ok: boolean;
  /** The canonical compact filter JSON; only when `ok`. */
  json?: string;
  /** The same document as an object (numbers beyond 2^53 lose precision here; `json` is exact). */
  filter?: FilterDocument;
  diagnostics: Diagnostic[];
  /** The dataset the filter was checked against (`any`: no field checks). */
  dataset: string;
  stats: Stats;
  file: FileNode;
}

export function compile(source: string, options?: CompileOptions): CompileResult {
  // a filter object or its JSON would otherwise compile as nothing (empty-filter): say where it goes instead
  expectText(source, 'compile', '.logfilter source', kindOf(source) === 'an object' ? ' (filter JSON goes to check or decompile)' : '');
  const { file, diagnostics: syntax, conditions } = parse(source);
  const a = analyze({ dataset: file.dataset, expr: file.expr, diagnostics: syntax, endOffset: source.length, conditions }, optionsOf(options, 'compile'), 'compile');
  const ok = !hasErrors(a.diagnostics) && a.serialized !== undefined;
  return {
    ok,
    json: ok ? a.serialized!.json : undefined,
    filter: ok ? toDocument(a.tree!) : undefined,
    diagnostics: withDuplicateFixes(a.diagnostics, source),
    dataset: a.dataset,
    stats: a.stats,
    file,
  };
}
