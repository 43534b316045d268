/**
 * What editors get from either language, in the same shape: completion entries, hover information, and the
 * parts of a quoted string a highlighter colours as text (its escapes apart). No LSP types: the language
 * server maps these onto the protocol.
 */

export type CompletionItemKind = 'field' | 'operator' | 'value' | 'keyword' | 'dataset' | 'snippet';

export interface CompletionEntry {
  label: string;
  kind: CompletionItemKind;
  /** One line shown beside the label (a field's type, an operator's JSON name). */
  detail: string;
  /** Markdown. */
  documentation: string;
  /** Replaces the situation's `replace` span. */
  insertText: string;
  /** `insertText` is a snippet (`$0`, `${1:x}`, `${1|a,b|}`). */
  snippet?: boolean;
  deprecated?: boolean;
  /** Orders items the way a user wants them, whatever the client's label sort. */
  sortText: string;
  /**
   * What clients filter on, where the inserted text starts with punctuation the user types anyway: a list
   * open on `[]` would stay open when `[` is typed and take the next Enter, so it filters on a word.
   */
  filterText?: string;
}

export interface HoverInfo {
  /** The span the hover is about (UTF-16 offsets, end exclusive). */
  start: number;
  end: number;
  markdown: string;
}

/** Spans of a string literal's image outside its escape sequences (offsets inside the image). */
export function unescapedParts(image: string): { start: number; end: number }[] {
  const parts: { start: number; end: number }[] = [];
  let from = 0;
  for (let i = 0; i < image.length; i++) {
    if (image[i] !== '\\') continue;
    const length = image[i + 1] === 'u' && /^[0-9a-fA-F]{4}$/.test(image.slice(i + 2, i + 6)) ? 6 : Math.min(2, image.length - i);
    if (i > from) parts.push({ start: from, end: i });
    from = i + length;
    i = from - 1;
  }
  if (from < image.length) parts.push({ start: from, end: image.length });
  return parts;
}
