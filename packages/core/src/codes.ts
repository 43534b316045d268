/**
 * Every diagnostic code of the project's languages in one table (docs/language.md and
 * docs/rules-language.md list them): what programs see of the registry, for the tools that serve both.
 */
import type { Diagnostic as LangDiagnostic } from './lang/diagnostics.js';
import { FILTER_DIAGNOSTIC_CODES } from './filter/diagnostics.js';
import { RULE_DIAGNOSTIC_CODES } from './rules/codes.js';

export const DIAGNOSTIC_CODES = { ...FILTER_DIAGNOSTIC_CODES, ...RULE_DIAGNOSTIC_CODES } as const;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A diagnostic of either language. */
export type Diagnostic = LangDiagnostic<DiagnosticCode>;
