/**
 * Diagnostics, the shape both languages report in: stable codes, severities, UTF-16 offsets. Each language
 * registers its own codes (`diagnosticFactory`), which gives it a `diag` typed by its codes; the registry
 * refuses a code registered twice with two severities. Tests assert codes and ranges, never messages.
 */
import type { JsonPath } from './positions.js';

export type Severity = 'error' | 'warning' | 'info';

/** Every code registered so far, with its severity (the languages register theirs when their modules load). */
const REGISTRY = new Map<string, Severity>();

/**
 * Registers a language's codes and returns its diagnostic constructor. A code already registered (the JSON
 * reader's codes, which both languages report) must keep its severity.
 */
export function diagnosticFactory<C extends string>(table: Readonly<Record<C, Severity>>) {
  for (const [code, severity] of Object.entries(table) as [C, Severity][]) {
    const known = REGISTRY.get(code);
    if (known !== undefined && known !== severity) throw new Error(`diagnostic code ${code} registered as ${known} and ${severity}`);
    REGISTRY.set(code, severity);
  }
  return function diag(code: C, message: string, start: number, end: number, extra: DiagnosticExtra = {}): Diagnostic<C> {
    return { code, severity: table[code], message: clipLongWords(message), start, end, ...extra };
  };
}

/** The severity of a registered code (undefined for a code no language registered). */
export function severityOf(code: string): Severity | undefined {
  return REGISTRY.get(code);
}

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

export interface Diagnostic<C extends string = string> {
  code: C;
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

/** What a diagnostic may carry beyond its code, message and range. */
export type DiagnosticExtra = Partial<Omit<Diagnostic, 'code' | 'severity' | 'message' | 'start' | 'end'>>;

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
export function sortDiagnostics<D extends Diagnostic>(diagnostics: D[]): D[] {
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return diagnostics.sort((a, b) => a.start - b.start || rank[a.severity] - rank[b.severity] || a.end - b.end);
}

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
