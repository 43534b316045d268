/**
 * The fix of a duplicate condition: remove it with the `and`/`or` that joins it to its neighbour. It needs
 * the source text (the tree has no spans for the words between conditions), so compile() adds it after the
 * checks; a duplicate whose joining word is not found (inside a group of its own) gets no fix. The words are
 * found among the tokens (a comment saying "and" is no joining word), and a comment between the condition and
 * its neighbour stays where it is: then only the word and the condition go, each with the spaces after it.
 */
import type { Diagnostic, TextEdit } from '../diagnostics.js';
// through the fast-path module: the CLI's start-up bundles load Chevrotain's lexer only when a duplicate is found
import { lexJoins } from '../syntax/parse-with-fast-path.js';

type Token = ReturnType<typeof lexJoins>['tokens'][number];
const isJoin = (t: Token | undefined) => t !== undefined && t.join;
const end = (t: Token) => t.end;

export function withDuplicateFixes(diagnostics: Diagnostic[], text: string): Diagnostic[] {
  if (!diagnostics.some((d) => d.code === 'duplicate-condition')) return diagnostics;
  const { tokens, comments } = lexJoins(text);
  const commentIn = (from: number, to: number) => comments.some((c) => c >= from && c < to);
  // a span and the spaces and tabs after it (never a line break: a comment before it must stay ended)
  const withSpaces = (start: number, stop: number): TextEdit => ({ start, end: stop + (/^[ \t]*/.exec(text.slice(stop))?.[0].length ?? 0), newText: '' });
  return diagnostics.map((d) => {
    if (d.code !== 'duplicate-condition') return d;
    const first = tokens.findIndex((t) => t.start >= d.start);
    if (first < 0) return d;
    let last = first;
    while (last + 1 < tokens.length && end(tokens[last + 1]) <= d.end) last++;
    let edits: TextEdit[] | undefined;
    if (isJoin(tokens[first - 1]) && first >= 2) {
      const join = tokens[first - 1];
      const from = end(tokens[first - 2]);
      edits = commentIn(from, d.end) ? [withSpaces(join.start, end(join)), withSpaces(d.start, d.end)] : [{ start: from, end: d.end, newText: '' }];
    } else if (isJoin(tokens[last + 1]) && last + 2 < tokens.length) {
      const join = tokens[last + 1];
      const to = tokens[last + 2].start;
      edits = commentIn(d.start, to) ? [withSpaces(d.start, d.end), withSpaces(join.start, end(join))] : [{ start: d.start, end: to, newText: '' }];
    }
    if (!edits) return d;
    return { ...d, fixes: [...(d.fixes ?? []), { title: 'Remove the duplicate condition', edits, preferred: true }] };
  });
}
