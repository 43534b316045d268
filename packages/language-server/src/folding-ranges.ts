/**
 * Folding ranges from tokens, so they work while typing: groups `( ... )` spanning lines and runs of comment
 * lines. Pure, so it runs in the worker for large documents; `folding.ts` is the request handler.
 */
import { editorTokens, lineColumn, lineStarts } from '@logfilter/core';
import { FoldingRangeKind, type FoldingRange } from 'vscode-languageserver/node.js';

export function foldingRanges(text: string): FoldingRange[] {
  const starts = lineStarts(text);
  const lineOf = (offset: number) => lineColumn(starts, offset).line - 1;
  const ranges: FoldingRange[] = [];
  const open: number[] = [];
  let commentStart = -1;
  let commentEnd = -1;
  const flushComments = () => {
    if (commentStart >= 0 && commentEnd > commentStart) ranges.push({ startLine: commentStart, endLine: commentEnd, kind: FoldingRangeKind.Comment });
    commentStart = commentEnd = -1;
  };
  for (const t of editorTokens(text)) {
    if (t.kind === 'comment') {
      const line = lineOf(t.start);
      if (commentStart >= 0 && line === commentEnd + 1) commentEnd = line;
      else {
        flushComments();
        commentStart = commentEnd = line;
      }
      continue;
    }
    if (t.kind === 'lparen') open.push(lineOf(t.start));
    else if (t.kind === 'rparen' && open.length) {
      const startLine = open.pop()!;
      // the closing line stays visible, as editors do for brackets
      const endLine = lineOf(t.start) - 1;
      if (endLine > startLine) ranges.push({ startLine, endLine });
    }
  }
  flushComments();
  return ranges.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
}
