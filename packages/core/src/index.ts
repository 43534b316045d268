/**
 * @logfilter/core — the pure core of Logfilter: parse, check, compile, decompile, format and evaluate
 * log export filters. No I/O: the CLI, the language server and the VS Code extension adapt it.
 */
export { compile, type CompileResult } from './filter/entry/compile.js';
export { decompile, type DecompileOptions, type DecompileResult } from './filter/entry/decompile.js';
export { check, inputKind, type CheckInputOptions, type CheckResult, type FilterInputKind } from './filter/entry/check.js';
export { format, type FormatResult } from './filter/entry/format.js';
export { formatRange, formatEdits, type RangeFormatResult } from './filter/entry/format-range.js';
export { parse, type ParseResult } from './filter/syntax/parse-with-fast-path.js';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, FILTER_PARSER_SETTINGS, MAX_DEPTH } from './filter/limits.js';
export type { ParserSettings } from './lang/settings.js';
export { type CheckOptions, type CompileOptions, type Stats } from './filter/entry/analyze.js';
export { operatorsFor } from './filter/check/fields.js';
export { toFilterString, toTerraform, pretty, utf8Length } from './filter/compile/serialize.js';
export { normalizeFilter, filtersEqual } from './filter/compile/structural.js';
export { printField, printCondition, printInline, LINE_WIDTH } from './filter/format/print.js';
export { getLexer, KEYWORDS } from './filter/syntax/tokens.js';
export * from './filter/operators.js';
export {
  clipLongWords,
  dedupeDiagnostics,
  hasErrors,
  MAX_MESSAGE_WORD,
  severityOf,
  sortDiagnostics,
  type DiagnosticExtra,
  type Fix,
  type RelatedInformation,
  type Severity,
  type TextEdit,
} from './lang/diagnostics.js';
export { lineColumn, lineStarts, type LineColumn } from './lang/positions.js';
export { diag, FILTER_DIAGNOSTIC_CODES, type FilterDiagnosticCode } from './filter/diagnostics.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from './codes.js';
export { applyEdits, lineHunks, minimalEdit } from './filter/format/edits.js';
export type * from './filter/ast.js';
export * from './filter/filter.js';
export * from './filter/datasets/index.js';
export { closest, editDistance } from './lang/closest.js';
export { holdsLoneSurrogate } from './lang/surrogates.js';
export {
  FILTER_DOCUMENT_SCHEMA,
  validateFilterDocument,
  readFilterInput,
  parseJson,
  jsonErrorPlace,
  type FilterInputForm,
  type ReadFilterResult,
  type SchemaError,
  type SchemaValidation,
} from './filter/json/index.js';
export * from './eval/index.js';
export * from './filter/completion/index.js';
export * from './filter/hover/index.js';
export * from './filter/refactor/index.js';
export * from './filter/highlight/index.js';
export * from './rules/index.js';
export * from './sql/index.js';
