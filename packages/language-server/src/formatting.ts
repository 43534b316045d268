/**
 * Document and range formatting through the core formatter. Range formatting keeps only the changed line
 * hunks that touch the range, and only when the result still compiles to the same filter; otherwise it
 * formats the whole document (the core formatter works on whole files).
 */
import { applyEdits, compile, parse, hasErrors } from '@logfilter/core';
import type { DocumentFormattingParams, DocumentRangeFormattingParams, TextEdit } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';
import { lineHunks, minimalEdit, type OffsetEdit } from './text-diff.js';

export async function formatDocument(ctx: ServerContext, params: DocumentFormattingParams): Promise<TextEdit[] | null> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  const formatted = await formatted_(ctx, doc);
  if (formatted === undefined) return [];
  const edit = minimalEdit(doc.getText(), formatted);
  return edit ? [toEdit(doc, edit)] : [];
}

export async function formatRange(ctx: ServerContext, params: DocumentRangeFormattingParams): Promise<TextEdit[] | null> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  const text = doc.getText();
  const formatted = await formatted_(ctx, doc);
  if (formatted === undefined || formatted === text) return [];
  const start = doc.offsetAt(params.range.start);
  const end = doc.offsetAt(params.range.end);
  const hunks = lineHunks(text, formatted);
  if (hunks) {
    const chosen = hunks.filter((h) => h.start <= end && h.end >= start);
    if (chosen.length === 0) return [];
    const result = applyEdits(text, chosen);
    if (sameFilter(text, result)) return chosen.map((h) => toEdit(doc, h));
  }
  const edit = minimalEdit(text, formatted);
  return edit ? [toEdit(doc, edit)] : [];
}

async function formatted_(ctx: ServerContext, doc: TextDocument): Promise<string | undefined> {
  const r = await ctx.runner.run({ kind: 'format', text: doc.getText() }, doc);
  // a text with syntax errors is never reformatted
  return r.ok ? r.text : undefined;
}

function toEdit(doc: TextDocument, e: OffsetEdit): TextEdit {
  return { range: toRange(doc, e.start, e.end), newText: e.newText };
}

/** A partial format must not change meaning (a paren removed on one line and kept on another would). */
function sameFilter(before: string, after: string): boolean {
  if (hasErrors(parse(after).diagnostics)) return false;
  const opts = { dataset: 'any', maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };
  return compile(before, opts).json === compile(after, opts).json;
}
