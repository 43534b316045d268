/** textDocument/completion: the core's pure situation and items, mapped onto LSP items with text edits. */
import { completionItems, completionSituation } from '@logfilter/core';
import { CompletionTriggerKind, type CompletionList, type CompletionParams } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { toCompletionItems } from './completion-items.js';
import { toRange } from './convert.js';
import { withoutTypedWord } from './typed-word.js';

/**
 * Characters after which the editor asks for items by itself. Not `(`: Enter after `(` must open an
 * indented line, not accept the field list that would pop up (fields come as soon as a letter is typed).
 */
export const TRIGGER_CHARACTERS = [' ', '[', ',', '"'];

export function completion(ctx: ServerContext, doc: TextDocument, params: CompletionParams): CompletionList {
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
  const entries = withoutTypedWord(completionItems(situation), text.slice(situation.replace.start, offset));
  // the typed prefix may include the opening quote of a value: filter on the inserted text
  // (and without the leading space a keyword brings after a value)
  const filterText = (e: { filterText?: string; insertText: string }) => e.filterText ?? e.insertText.replace(/\$\{\d+\|[^|]*\|\}|\$\d+/g, '').trimStart();
  return { isIncomplete: false, items: toCompletionItems(entries, range, { filterText }) };
}
