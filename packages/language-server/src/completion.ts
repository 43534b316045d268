/** textDocument/completion: the core's pure situation and items, mapped onto LSP items with text edits. */
import { completionItems, completionSituation, type CompletionEntry } from '@logfilter/core';
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
} from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';

export const TRIGGER_CHARACTERS = [' ', '[', ',', '"', '('];

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  field: CompletionItemKind.Field,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  keyword: CompletionItemKind.Keyword,
  dataset: CompletionItemKind.Module,
  snippet: CompletionItemKind.Snippet,
};

export function completion(ctx: ServerContext, params: CompletionParams): CompletionList | null {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  const text = doc.getText();
  const situation = completionSituation(text, doc.offsetAt(params.position), ctx.settings().dataset);
  const range = toRange(doc, situation.replace.start, situation.replace.end);
  const items = completionItems(situation).map(
    (e): CompletionItem => ({
      label: e.label,
      kind: KIND[e.kind],
      detail: e.detail,
      ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
      textEdit: { range, newText: e.insertText },
      // the typed prefix may include the opening quote of a value: filter on the inserted text
      filterText: e.insertText.replace(/\$\{\d+\|[^|]*\|\}|\$\d+/g, ''),
      insertTextFormat: e.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      sortText: e.sortText,
      ...(e.deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
    }),
  );
  return { isIncomplete: false, items };
}
