/** textDocument/completion: the core's pure situation and items, mapped onto LSP items with text edits. */
import { completionItems, completionSituation, type CompletionEntry } from '@logfilter/core';
import {
  CompletionItemKind,
  CompletionItemTag,
  CompletionTriggerKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionList,
  type CompletionParams,
} from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';
import { toRange } from './convert.js';
import { withoutTypedWord } from './typed-word.js';

/**
 * Characters after which the editor asks for items by itself. Not `(`: Enter after `(` must open an
 * indented line, not accept the field list that would pop up (fields come as soon as a letter is typed).
 */
export const TRIGGER_CHARACTERS = [' ', '[', ',', '"'];

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
  // `and`/`or` never pop up by themselves on a punctuation trigger (the `"` that closes a value, a stray
  // `,`): Enter would accept one glued to the value. Asked for (Ctrl+Space) or after a space, they come.
  const trigger = params.context?.triggerKind === CompletionTriggerKind.TriggerCharacter ? params.context.triggerCharacter : undefined;
  if (situation.kind === 'connective' && trigger !== undefined && trigger !== ' ') return { isIncomplete: false, items: [] };
  // Inside a string nothing pops up by itself (a space or `,` typed in `"a b"`, the `"` that opens it):
  // asked for (Ctrl+Space), the documented values come, each replacing the whole string.
  if (situation.kind === 'value' && situation.prefix.startsWith('"') && trigger !== undefined) return { isIncomplete: false, items: [] };
  const range = toRange(doc, situation.replace.start, situation.replace.end);
  const offset = doc.offsetAt(params.position);
  const items = withoutTypedWord(completionItems(situation), text.slice(situation.replace.start, offset)).map(
    (e): CompletionItem => ({
      label: e.label,
      kind: KIND[e.kind],
      detail: e.detail,
      ...(e.documentation ? { documentation: { kind: MarkupKind.Markdown, value: e.documentation } } : {}),
      textEdit: { range, newText: e.insertText },
      // the typed prefix may include the opening quote of a value: filter on the inserted text
      // (and without the leading space a keyword brings after a value)
      filterText: e.filterText ?? e.insertText.replace(/\$\{\d+\|[^|]*\|\}|\$\d+/g, '').trimStart(),
      insertTextFormat: e.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      sortText: e.sortText,
      ...(e.deprecated ? { tags: [CompletionItemTag.Deprecated] } : {}),
    }),
  );
  return { isIncomplete: false, items };
}
