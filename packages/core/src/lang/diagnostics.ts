/**
 * Diagnostics: stable codes, severities, offsets. Tests assert codes and ranges, never messages.
 */
import type { JsonPath } from '../ast.js';
import { RULE_DIAGNOSTIC_CODES } from '../rules/codes.js';

export type Severity = 'error' | 'warning' | 'info';

/** Codes of docs/language.md#diagnostics: those of source, plus the structural codes of JSON input (decompile and check). */
export const DIAGNOSTIC_CODES = {
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
  // the rules language (rules/codes.ts)
  ...RULE_DIAGNOSTIC_CODES,
} as const satisfies Record<string, Severity>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/** A text edit on the text the diagnostic's offsets refer to. */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** A quick fix computed by the core; editors only adapt it. */
export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix that an editor may apply on "fix all" / save. */
  preferred?: boolean;
}

export interface RelatedInformation {
  message: string;
  start: number;
  end: number;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** UTF-16 offset, inclusive. */
  start: number;
  /** UTF-16 offset, exclusive. Equal to start only for a point at the end of input. */
  end: number;
  /** For JSON input: where in the document (e.g. `["where","and",1,"operator"]`). */
  path?: JsonPath;
  related?: RelatedInformation[];
  /** Names a user probably meant (closest fields, canonical operator, replacement field). */
  suggestions?: string[];
  fixes?: Fix[];
}

export function diag(
  code: DiagnosticCode,
  message: string,
  start: number,
  end: number,
  extra: Partial<Omit<Diagnostic, 'code' | 'severity' | 'message' | 'start' | 'end'>> = {},
): Diagnostic {
  return { code, severity: DIAGNOSTIC_CODES[code], message: clipLongWords(message), start, end, ...extra };
}

/** Words (runs without white space) longer than this are cut in messages; the range still covers all of it. */
export const MAX_MESSAGE_WORD = 120;

/**
 * A message names what it is about (a field, a dataset, an operator), but a megabyte-long unknown name must not
 * come back whole in every message, log line and editor hover: long words are cut, saying how long they were.
 */
export function clipLongWords(message: string): string {
  if (message.length <= MAX_MESSAGE_WORD) return message;
  return message.replace(new RegExp(`\\S{${MAX_MESSAGE_WORD + 1},}`, 'g'), (w) => `${w.slice(0, 60)}…(${w.length} characters)`);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/** Sorted by position, errors first at equal positions: the order every tool prints them in. */
export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return diagnostics.sort((a, b) => a.start - b.start || rank[a.severity] - rank[b.severity] || a.end - b.end);
}

/** 1-based line and column of a UTF-16 offset. For the edges (CLI printing); the LSP uses its own. */
/** Parser recovery can report the same spot twice: one diagnostic per range and code (both languages' parsers). */
export function dedupeDiagnostics<D extends Diagnostic>(ds: D[]): D[] {
  const seen = new Set<string>();
  return ds.filter((d) => {
    const k = `${d.start}:${d.end}:${d.code}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export interface LineColumn {
  line: number;
  column: number;
  offset: number;
}

export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

export function lineColumn(starts: readonly number[], offset: number): LineColumn {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1, offset };
}
