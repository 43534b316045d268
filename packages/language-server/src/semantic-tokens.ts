/** textDocument/semanticTokens/full: the core's highlight classes, encoded as LSP relative tokens. */
import { highlightTokens, lineStarts, type HighlightType } from '@logfilter/core';
import type { SemanticTokens, SemanticTokensLegend, SemanticTokensParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';

const TYPES: HighlightType[] = ['keyword', 'operator', 'field', 'dataset', 'string', 'number', 'comment'];
/** LSP standard names for the core's classes, in the order of TYPES. */
export const LEGEND: SemanticTokensLegend = {
  // `function` is the rules language's (rules.ts); appended so the filter language's indexes stay
  tokenTypes: ['keyword', 'operator', 'property', 'namespace', 'string', 'number', 'comment', 'function'],
  tokenModifiers: ['deprecated'],
};

export async function semanticTokens(ctx: ServerContext, params: SemanticTokensParams): Promise<SemanticTokens> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return { data: [] };
  return { data: await ctx.runner.run({ kind: 'highlight', text: doc.getText(), dataset: ctx.settings().dataset }, doc) };
}

/** The LSP relative encoding (runs in the worker for large documents, so it uses plain offsets → lines). */
export function encodeSemanticTokens(text: string, dataset: string): number[] {
  const data: number[] = [];
  const lines = lineStarts(text);
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of highlightTokens(text, dataset)) {
    while (line + 1 < lines.length && lines[line + 1] <= t.start) line++;
    const character = t.start - lines[line];
    data.push(line - prevLine, line === prevLine ? character - prevChar : character, t.end - t.start, TYPES.indexOf(t.type), t.deprecated ? 1 : 0);
    prevLine = line;
    prevChar = character;
  }
  return data;
}
