/** textDocument/foldingRange: groups that span lines, and runs of comment lines. From tokens, so it works while typing. */
import { editorTokens, lineColumn, lineStarts } from '@logfilter/core';
import { FoldingRangeKind, type FoldingRange, type FoldingRangeParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';

export async function folding(ctx: ServerContext, params: FoldingRangeParams): Promise<FoldingRange[] | null> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  return ctx.runner.run({ kind: 'folding', text: doc.getText() }, doc);
}

/** Runs in the worker for large documents: plain offsets → lines. */
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
