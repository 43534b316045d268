/**
 * The API's error format for expressions (the edge where our UTF-16 offsets become its positions):
 *
 *   Filter parsing error (LINE:COL):
 *   <the source line>
 *   <COL-1 spaces><carets> <message>
 *
 * LINE is 1-based with lines split on "\n" only; COL is the 1-based UTF-8 byte column in that line; the
 * carets cover the span clipped to the line, at least one. The language stops at its first error, so the
 * API reports one: the error whose position comes first.
 */
import type { RuleDiagnostic } from './parse.js';
import { checkRule, type RuleCheckOptions } from './check.js';

export interface ApiLineColumn {
  line: number;
  /** 1-based, in UTF-8 bytes from the start of the line. */
  column: number;
}

function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** A UTF-16 offset as the API's (line, byte column). */
export function apiLineColumn(text: string, offset: number): ApiLineColumn {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  let line = 1;
  for (let i = 0; i < lineStart; i++) if (text.charCodeAt(i) === 10) line++;
  return { line, column: utf8Bytes(text.slice(lineStart, offset)) + 1 };
}

/** The inverse: the UTF-16 offset of an API (line, byte column), for reading API answers in an editor. */
export function offsetOfApiLineColumn(text: string, line: number, column: number): number {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return text.length;
    start = nl + 1;
  }
  const end = text.indexOf('\n', start) < 0 ? text.length : text.indexOf('\n', start);
  let bytes = 0;
  let i = start;
  while (i < end && bytes < column - 1) {
    bytes += utf8Bytes(text.slice(i, text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? i + 2 : i + 1));
    i += text.charCodeAt(i) >= 0xd800 && text.charCodeAt(i) <= 0xdbff ? 2 : 1;
  }
  return i;
}

/** The first error in the API's order (by the position it reports), or undefined. */
export function firstApiError(diagnostics: readonly RuleDiagnostic[]): RuleDiagnostic | undefined {
  let best: RuleDiagnostic | undefined;
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    const at = d.api?.start ?? d.start;
    if (!best || at < (best.api?.start ?? best.start)) best = d;
  }
  return best;
}

/** `Filter parsing error (L:C):\n<line>\n<carets> <message>` for one diagnostic. */
export function formatApiError(text: string, d: RuleDiagnostic): string {
  const start = Math.min(d.api?.start ?? d.start, text.length);
  const end = Math.max(start, Math.min(d.api?.end ?? d.end, text.length));
  const message = d.api?.message ?? d.message;
  const { line, column } = apiLineColumn(text, start);
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const nl = text.indexOf('\n', start);
  const lineEnd = nl < 0 ? text.length : nl;
  const source = text.slice(lineStart, lineEnd);
  const carets = Math.max(1, utf8Bytes(text.slice(start, Math.min(end, lineEnd))));
  return `Filter parsing error (${line}:${column}):\n${source}\n${' '.repeat(column - 1)}${'^'.repeat(carets)} ${message}`;
}

/**
 * What the API answers for an expression: undefined when it is accepted, else the `Filter parsing error`
 * text of its first error.
 */
export function ruleApiError(text: string, options: RuleCheckOptions = {}): string | undefined {
  const first = firstApiError(checkRule(text, options).diagnostics);
  return first ? formatApiError(text, first) : undefined;
}
