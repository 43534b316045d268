/** textDocument/semanticTokens/full: the core's highlight classes, encoded as LSP relative tokens. */
import { highlightTokens, type HighlightType } from '@logfilter/core';
import type { SemanticTokens, SemanticTokensLegend, SemanticTokensParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';

const TYPES: HighlightType[] = ['keyword', 'operator', 'field', 'dataset', 'string', 'number', 'comment'];
/** LSP standard names for the core's classes, in the order of TYPES. */
export const LEGEND: SemanticTokensLegend = {
  tokenTypes: ['keyword', 'operator', 'property', 'namespace', 'string', 'number', 'comment'],
  tokenModifiers: ['deprecated'],
};

export function semanticTokens(ctx: ServerContext, params: SemanticTokensParams): SemanticTokens {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return { data: [] };
  const data: number[] = [];
  let prevLine = 0;
  let prevChar = 0;
  for (const t of highlightTokens(doc.getText(), ctx.settings().dataset)) {
    const p = doc.positionAt(t.start);
    data.push(p.line - prevLine, p.line === prevLine ? p.character - prevChar : p.character, t.end - t.start, TYPES.indexOf(t.type), t.deprecated ? 1 : 0);
    prevLine = p.line;
    prevChar = p.character;
  }
  return { data };
}
