/**
 * The filter language's diagnostic codes (docs/language.md#diagnostics), registered in the shared registry
 * (lang/diagnostics.ts), and its `diag`. The shape and the helpers are the shared ones, re-exported here so
 * that the filter's modules import their diagnostics from one place.
 */
import { diagnosticFactory, type Diagnostic as LangDiagnostic, type Severity } from '../lang/diagnostics.js';

export { clipLongWords, dedupeDiagnostics, hasErrors, MAX_MESSAGE_WORD, sortDiagnostics } from '../lang/diagnostics.js';
export type { DiagnosticExtra, Fix, RelatedInformation, Severity, TextEdit } from '../lang/diagnostics.js';

/** Codes of docs/language.md#diagnostics: those of source, plus the structural codes of JSON input (decompile and check). */
export const FILTER_DIAGNOSTIC_CODES = {
  // source errors (docs/language.md#diagnostics)
  syntax: 'error',
  'unknown-dataset': 'error',
  'unknown-field': 'error',
  'removed-field': 'error',
  'unfilterable-field': 'error',
  'operator-type': 'error',
  'value-type': 'error',
  'in-needs-list': 'error',
  'empty-list': 'error',
  'empty-filter': 'error',
  'too-many-operators': 'error',
  'too-large': 'error',
  'too-deep': 'error',
  // source warnings
  'deprecated-field': 'warning',
  'numeric-string': 'warning',
  'unknown-value': 'warning',
  'duplicate-condition': 'warning',
  'always-false': 'warning',
  'float-field': 'warning',
  // JSON input (decompile, check)
  'invalid-json': 'error',
  'missing-where': 'error',
  'unknown-operator': 'error',
  'missing-key': 'error',
  'missing-operator': 'error',
  'missing-value': 'error',
  'conflicting-keys': 'error',
  'invalid-node': 'error',
  'unknown-property': 'warning',
  /** JSON-encoded filter text pasted without its quotes (`{\"where\":…}`): read as the string it spells. */
  'escaped-json': 'warning',
} as const satisfies Record<string, Severity>;

export type FilterDiagnosticCode = keyof typeof FILTER_DIAGNOSTIC_CODES;

/** A diagnostic of the filter language. */
export type Diagnostic = LangDiagnostic<FilterDiagnosticCode>;

export const diag = diagnosticFactory(FILTER_DIAGNOSTIC_CODES);
