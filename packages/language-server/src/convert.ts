/** Core offsets → LSP positions (UTF-16 line/character), computed once here at the edge (DESIGN principle 3). */
import type { Diagnostic as CoreDiagnostic, TextEdit as CoreEdit } from '@logfilter/core';
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic, type Range, type TextEdit } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';

export const SOURCE = 'logfilter';

export function toRange(doc: TextDocument, start: number, end: number): Range {
  return { start: doc.positionAt(start), end: doc.positionAt(end) };
}

const SEVERITY = { error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information } as const;

export function toDiagnostic(doc: TextDocument, d: CoreDiagnostic): Diagnostic {
  const out: Diagnostic = {
    range: toRange(doc, d.start, d.end),
    severity: SEVERITY[d.severity] ?? DiagnosticSeverity.Error,
    code: d.code,
    source: SOURCE,
    message: d.message,
  };
  if (d.related?.length) {
    out.relatedInformation = d.related.map((r) => ({ location: { uri: doc.uri, range: toRange(doc, r.start, r.end) }, message: r.message }));
  }
  // struck through by the editor, in both languages
  if (DEPRECATIONS.has(d.code)) out.tags = [DiagnosticTag.Deprecated];
  return out;
}

/** Codes that report something deprecated: their diagnostics carry the Deprecated tag. */
const DEPRECATIONS = new Set(['deprecated-field', 'rule-deprecated-field']);

/**
 * At most this many diagnostics are published per document, as VS Code itself shows at most 1000 per file:
 * a pasted 1 MB filter can have ten thousand duplicates, and sending them all costs the server tens of
 * milliseconds of encoding and the editor far more, for a list nobody reads. The same cap applies to the
 * custom requests; `logfilter check` lists them all.
 */
export const MAX_PUBLISHED = 1000;

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** The diagnostics that are published, and how many were left out (with the first of them, for the note). */
export interface Published {
  kept: CoreDiagnostic[];
  omitted?: { count: number; first: CoreDiagnostic };
}

/**
 * Every diagnostic when there are few; otherwise the first `max` by severity (errors first) then position,
 * back in document order. Pure: the worker selects before sending, so a 1 MB document's tens of thousands
 * of diagnostics are never copied back to the main thread.
 */
export function selectPublished(all: readonly CoreDiagnostic[], max = MAX_PUBLISHED): Published {
  if (all.length <= max) return { kept: [...all] };
  const order = all.map((d, i) => i).sort((a, b) => RANK[all[a].severity] - RANK[all[b].severity] || a - b);
  const kept = order.slice(0, max).sort((a, b) => a - b);
  const firstLeftOut = order.slice(max).reduce((a, b) => Math.min(a, b));
  return { kept: kept.map((i) => all[i]), omitted: { count: all.length - max, first: all[firstLeftOut] } };
}

/** LSP diagnostics of a selection, with one note at the first left out saying how many were left out. */
export function publishedDiagnostics(doc: TextDocument, p: Published): Diagnostic[] {
  const out = p.kept.map((d) => toDiagnostic(doc, d));
  if (p.omitted) {
    const { count, first } = p.omitted;
    out.push({
      range: toRange(doc, first.start, first.end),
      severity: DiagnosticSeverity.Information,
      source: SOURCE,
      message: `${count} more problems are not shown (the first ${p.kept.length} are, errors first); \`logfilter check\` lists them all`,
    });
  }
  return out;
}

/** The diagnostics to send for `all`: `selectPublished`, then `publishedDiagnostics`. */
export function toDiagnostics(doc: TextDocument, all: readonly CoreDiagnostic[], max = MAX_PUBLISHED): Diagnostic[] {
  return publishedDiagnostics(doc, selectPublished(all, max));
}

export function toTextEdit(doc: TextDocument, e: CoreEdit): TextEdit {
  return { range: toRange(doc, e.start, e.end), newText: e.newText };
}

/** Same range and code: how a diagnostic sent back by the client in a code action request is recognised. */
export function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  return (
    a.code === b.code &&
    a.range.start.line === b.range.start.line &&
    a.range.start.character === b.range.start.character &&
    a.range.end.line === b.range.end.line &&
    a.range.end.character === b.range.end.character
  );
}
