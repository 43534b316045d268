/**
 * Document and range formatting through the core (`formatEdits`, `formatRange`: the range's line hunks
 * when applying only them keeps the filter's meaning, else the whole document), run in the worker for
 * large documents. A text with a syntax error is left as it is, and the editor is told why with a
 * message, once per document version (format on save would repeat it otherwise).
 */
import { MessageType, type DocumentFormattingParams, type DocumentRangeFormattingParams, type TextEdit } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { toTextEdit } from './convert.js';
import type { FormatOutcome } from './tasks.js';

export async function formatDocument(ctx: ServerContext, doc: TextDocument, _params: DocumentFormattingParams): Promise<TextEdit[]> {
  return answer(ctx, doc, await ctx.runner.run({ kind: 'format', text: doc.getText() }, doc));
}

export async function formatRange(ctx: ServerContext, doc: TextDocument, params: DocumentRangeFormattingParams): Promise<TextEdit[]> {
  const start = doc.offsetAt(params.range.start);
  const end = doc.offsetAt(params.range.end);
  return answer(ctx, doc, await ctx.runner.run({ kind: 'format-range', text: doc.getText(), start, end }, doc));
}

/** Versions already told about, per document: one message per version that cannot be formatted. */
const told = new WeakMap<ServerContext, Map<string, number>>();

function answer(ctx: ServerContext, doc: TextDocument, r: FormatOutcome): TextEdit[] {
  if (r.ok) return r.edits.map((e) => toTextEdit(doc, e));
  tellNotFormatted(ctx, doc, r.firstError);
  return [];
}

/** Tells the editor why a document is left as it is, once per version (the rules language too). */
export function tellNotFormatted(ctx: ServerContext, doc: TextDocument, firstError: { start: number; message: string } | undefined): void {
  const seen = told.get(ctx) ?? new Map<string, number>();
  told.set(ctx, seen);
  if (seen.get(doc.uri) === doc.version) return;
  seen.set(doc.uri, doc.version);
  void ctx.connection.sendNotification('window/showMessage', { type: MessageType.Warning, message: notFormatted(doc, firstError) });
}

/** `Not formatted: line 3, column 5 has a syntax error (expected …). Fix it, then format again.` */
function notFormatted(doc: TextDocument, d: { start: number; message: string } | undefined): string {
  if (!d) return 'Logfilter: not formatted: the text has a syntax error. Fix it, then format again.';
  const at = doc.positionAt(d.start);
  return `Logfilter: not formatted: line ${at.line + 1}, column ${at.character + 1} has a syntax error (${d.message}). Fix it, then format again.`;
}
