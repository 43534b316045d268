/**
 * @logfilter/core — the pure core of Logfilter: parse, check, compile, decompile, format and evaluate
 * log export filters. No I/O: the CLI, the language server and the VS Code extension adapt it.
 */
export { compile, type CompileResult } from './entry/compile.js';
export { decompile, type DecompileOptions, type DecompileResult } from './entry/decompile.js';
export { check, type CheckResult } from './entry/check.js';
export { format, type FormatResult } from './entry/format.js';
export { formatRange, formatEdits, type RangeFormatResult } from './entry/format-range.js';
export { parse, type ParseResult } from './syntax/parse.js';
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, MAX_DEPTH } from './limits.js';
export { type CheckOptions, type CompileOptions, type Stats } from './entry/analyze.js';
export { operatorsFor } from './check/fields.js';
export { toFilterString, toTerraform, pretty, utf8Length } from './compile/serialize.js';
export { normalizeFilter, filtersEqual } from './compile/structural.js';
export { printField, printCondition, printInline, LINE_WIDTH } from './format/print.js';
export { getLexer, KEYWORDS } from './syntax/tokens.js';
export * from './operators.js';
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
export { diag, FILTER_DIAGNOSTIC_CODES, type FilterDiagnosticCode } from './diagnostics.js';
export { DIAGNOSTIC_CODES, type Diagnostic, type DiagnosticCode } from './codes.js';
export { applyEdits, lineHunks, minimalEdit } from './format/edits.js';
export type * from './ast.js';
export * from './filter.js';
export * from './datasets/index.js';
export { closest, editDistance } from './lang/closest.js';
export {
  FILTER_DOCUMENT_SCHEMA,
  validateFilterDocument,
  readFilterInput,
  parseJson,
  type FilterInputForm,
  type ReadFilterResult,
  type SchemaError,
  type SchemaValidation,
} from './json/index.js';
export * from './eval/index.js';
export * from './completion/index.js';
export * from './hover/index.js';
export * from './refactor/index.js';
export * from './highlight/index.js';
export * from './rules/index.js';
export * from './sql/index.js';
