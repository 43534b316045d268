/**
 * Diagnostic codes of the rules language (docs/rules-language.md lists them). They share the Diagnostic
 * shape, severities and printing of lang/; the `rule-` prefix keeps them apart from the filter language's.
 */
import { diagnosticFactory } from '../lang/diagnostics.js';

export const RULE_DIAGNOSTIC_CODES = {
  'rule-syntax': 'error',
  'rule-empty': 'error',
  'rule-space': 'error',
  'rule-string': 'error',
  'rule-unknown-identifier': 'error',
  'rule-identifier-kind': 'error',
  'rule-unavailable-in-phase': 'error',
  'rule-value-only-function': 'error',
  'rule-missing-operator': 'error',
  'rule-boolean-operator': 'error',
  'rule-operator-type': 'error',
  'rule-missing-value': 'error',
  'rule-value': 'error',
  'rule-field-value': 'error',
  'rule-list': 'error',
  'rule-index': 'error',
  'rule-map-each': 'error',
  'rule-type': 'error',
  'rule-arguments': 'error',
  'rule-argument-kind': 'error',
  'rule-argument-type': 'error',
  'rule-argument-value': 'error',
  'rule-once-per-expression': 'error',
  'rule-wildcard': 'error',
  'rule-regex': 'error',
  'rule-too-long': 'error',
  'rule-too-deep': 'error',
  'rule-unknown-phase': 'error',
  'rule-unknown-action': 'error',
  'rule-eval': 'error',
  'rule-deprecated-field': 'warning',
  'rule-ip-ordering': 'warning',
  'rule-empty-list': 'warning',
} as const;

export type RuleDiagnosticCode = keyof typeof RULE_DIAGNOSTIC_CODES;

/** The rules language's diagnostic constructor (its codes registered in the shared registry). */
export const ruleDiag = diagnosticFactory(RULE_DIAGNOSTIC_CODES);
