/**
 * What both languages' completion leaves out while typing, whatever the core offers: the item that is
 * exactly the word already typed (Enter at the end of `dataset http_requests` must make a new line, not
 * accept `http_requests` again). (Nothing is offered inside a string either: the core's rules situation
 * and the filter completion see to that.)
 */
import type { CompletionEntry } from '@logfilter/core';

/**
 * Drops the items whose plain text is the word typed before the cursor (an operator's trailing space aside;
 * `and` that brings a leading space changes the text, so it stays).
 */
export function withoutTypedWord(entries: CompletionEntry[], typed: string): CompletionEntry[] {
  if (typed === '') return entries;
  return entries.filter((e) => e.snippet || e.insertText.trimEnd() !== typed);
}
