/**
 * textDocument/codeAction: the core's fixes behind each diagnostic as quick fixes, and the core's
 * refactors (`in` lists, `not` normalisation). The server adds no fix of its own.
 */
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
} from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic as CoreDiagnostic } from '@logfilter/core';
import type { ServerContext } from './context.js';
import { sameDiagnostic, toDiagnostic, toTextEdit } from './convert.js';

export const CODE_ACTION_KINDS = [CodeActionKind.QuickFix, CodeActionKind.RefactorRewrite];

export async function codeActions(ctx: ServerContext, doc: TextDocument, params: CodeActionParams): Promise<CodeAction[]> {
  const only = params.context.only;
  const wants = (kind: string) => wantsKind(only, kind);
  const start = doc.offsetAt(params.range.start);
  const end = doc.offsetAt(params.range.end);
  const uri = doc.uri;
  const actions: CodeAction[] = [];

  if (wants(CodeActionKind.QuickFix)) {
    const analysis = await ctx.analyses.get(doc);
    actions.push(...quickFixes(doc, analysis.diagnostics, params.context.diagnostics ?? [], start, end));
  }

  if (wants(CodeActionKind.RefactorRewrite)) {
    const fixes = await ctx.runner.run({ kind: 'refactor', text: doc.getText(), start, end }, doc);
    for (const fix of fixes) {
      actions.push({ title: fix.title, kind: CodeActionKind.RefactorRewrite, edit: { changes: { [uri]: fix.edits.map((e) => toTextEdit(doc, e)) } } });
    }
  }
  return actions;
}

/** Whether a client's `only` list asks for actions of `kind` (a listed kind covers its sub-kinds). */
export function wantsKind(only: readonly string[] | undefined, kind: string): boolean {
  return !only || only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/**
 * The core's fixes behind each diagnostic as quick fixes, for either language: for the diagnostics the client
 * sent back, or, when it sent none, for every published diagnostic the range touches (by offsets, before any
 * conversion; `diagnostics` holds only the published ones).
 */
export function quickFixes(doc: TextDocument, diagnostics: readonly CoreDiagnostic[], sent: readonly Diagnostic[], start: number, end: number): CodeAction[] {
  const actions: CodeAction[] = [];
  for (const d of diagnostics) {
    if (!d.fixes?.length) continue;
    if (sent.length === 0 && (d.end < start || d.start > end)) continue;
    const lsp = toDiagnostic(doc, d);
    const matched = sent.find((s) => sameDiagnostic(s, lsp));
    if (!matched && sent.length > 0) continue;
    for (const fix of d.fixes) {
      actions.push({
        title: fix.title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [matched ?? lsp],
        isPreferred: fix.preferred ?? false,
        edit: { changes: { [doc.uri]: fix.edits.map((e) => toTextEdit(doc, e)) } },
      });
    }
  }
  return actions;
}
