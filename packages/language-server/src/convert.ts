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
  if (d.code === 'deprecated-field') out.tags = [DiagnosticTag.Deprecated];
  return out;
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
