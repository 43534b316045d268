/**
 * The fix of a duplicate condition: remove it with the `and`/`or` that joins it to its neighbour. It needs
 * the source text (the tree has no spans for the words between conditions), so compile() adds it after the
 * checks; a duplicate whose joining word is not found (inside a group of its own) gets no fix. The words are
 * found among the tokens (a comment saying "and" is no joining word), and a comment between the condition and
 * its neighbour stays where it is: then only the word and the condition go, each with the spaces after it.
 */
import { tokenMatcher, type IToken } from 'chevrotain';
import type { Diagnostic, TextEdit } from '../diagnostics.js';
import * as T from '../syntax/tokens.js';

const isJoin = (t: IToken | undefined) => t !== undefined && (tokenMatcher(t, T.And) || tokenMatcher(t, T.Or));
const end = (t: IToken) => t.startOffset + t.image.length;

export function withDuplicateFixes(diagnostics: Diagnostic[], text: string): Diagnostic[] {
  if (!diagnostics.some((d) => d.code === 'duplicate-condition')) return diagnostics;
  const lexed = T.getLexer().tokenize(text);
  const tokens = lexed.tokens;
  const comments = (lexed.groups.comments ?? []) as IToken[];
  const commentIn = (from: number, to: number) => comments.some((c) => c.startOffset >= from && c.startOffset < to);
  // a span and the spaces and tabs after it (never a line break: a comment before it must stay ended)
  const withSpaces = (start: number, stop: number): TextEdit => ({ start, end: stop + (/^[ \t]*/.exec(text.slice(stop))?.[0].length ?? 0), newText: '' });
  return diagnostics.map((d) => {
    if (d.code !== 'duplicate-condition') return d;
    const first = tokens.findIndex((t) => t.startOffset >= d.start);
    if (first < 0) return d;
    let last = first;
    while (last + 1 < tokens.length && end(tokens[last + 1]) <= d.end) last++;
    let edits: TextEdit[] | undefined;
    if (isJoin(tokens[first - 1]) && first >= 2) {
      const join = tokens[first - 1];
      const from = end(tokens[first - 2]);
      edits = commentIn(from, d.end) ? [withSpaces(join.startOffset, end(join)), withSpaces(d.start, d.end)] : [{ start: from, end: d.end, newText: '' }];
    } else if (isJoin(tokens[last + 1]) && last + 2 < tokens.length) {
      const join = tokens[last + 1];
      const to = tokens[last + 2].startOffset;
      edits = commentIn(d.start, to) ? [withSpaces(d.start, d.end), withSpaces(join.startOffset, end(join))] : [{ start: d.start, end: to, newText: '' }];
    }
    if (!edits) return d;
    return { ...d, fixes: [...(d.fixes ?? []), { title: 'Remove the duplicate condition', edits, preferred: true }] };
  });
}
