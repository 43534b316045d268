/**
 * The one mapping of the core's completion entries onto LSP items, for both languages: kind, detail,
 * documentation, a text edit over the range being replaced, snippet format and the deprecated tag.
 */
import type { CompletionEntry } from '@logfilter/core';
import { CompletionItemKind, CompletionItemTag, InsertTextFormat, MarkupKind, type CompletionItem, type Range } from 'vscode-languageserver/node.js';

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  field: CompletionItemKind.Field,
  operator: CompletionItemKind.Operator,
  value: CompletionItemKind.Value,
  keyword: CompletionItemKind.Keyword,
  dataset: CompletionItemKind.Module,
  snippet: CompletionItemKind.Snippet,
};

/** What a language says about its entries where the two differ. */
export interface ItemStyle {
  /** The text the editor filters the typed prefix against. */
  filterText(e: CompletionEntry): string;
  /** The LSP kind of a `snippet` entry (the rules language's are its functions). */
  snippetKind?: CompletionItemKind;
  /** The text inserted, from the entry's (e.g. JSON-escaped inside a JSON string); snippets stay snippets unless it says `plain`. */
  insert?: (e: CompletionEntry) => { text: string; plain?: boolean };
}

export function toCompletionItems(entries: readonly CompletionEntry[], range: Range, style: ItemStyle): CompletionItem[] {
  return entries.map((e): CompletionItem => {
    const insert = style.insert?.(e) ?? { text: e.insertText };
    return {
      label: e.label,
      kind: e.kind === 'snippet' && style.snippetKind !== undefined ? style.snippetKind : KIND[e.kind],
      detail: e.detail,
      ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
      textEdit: { range, newText: insert.text },
      filterText: style.filterText(e),
      insertTextFormat: e.snippet && !insert.plain ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      sortText: e.sortText,
      ...(e.deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
    };
  });
}
