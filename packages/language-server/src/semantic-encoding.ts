/**
 * The core's highlight classes in the LSP's relative encoding. Pure (no server state), so it runs in the
 * worker for large documents; `semantic-tokens.ts` is the request handler.
 */
import { highlightTokens, lineStarts, type HighlightType } from '@logfilter/core';
import type { SemanticTokensLegend } from 'vscode-languageserver/node.js';

/** The LSP standard token type of each core class (one table: the legend and the encoding follow it). */
const LSP_TYPE: Record<HighlightType, string> = {
  keyword: 'keyword',
  operator: 'operator',
  field: 'property',
  dataset: 'namespace',
  string: 'string',
  number: 'number',
  comment: 'comment',
};
const TYPES = Object.keys(LSP_TYPE) as HighlightType[];
const TYPE_INDEX = new Map(TYPES.map((t, i) => [t, i]));

export const LEGEND: SemanticTokensLegend = { tokenTypes: TYPES.map((t) => LSP_TYPE[t]), tokenModifiers: ['deprecated'] };

/** The LSP relative encoding, from plain offsets → lines. */
export function encodeSemanticTokens(text: string, dataset: string): number[] {
  const data: number[] = [];
  const lines = lineStarts(text);
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of highlightTokens(text, dataset)) {
    while (line + 1 < lines.length && lines[line + 1] <= t.start) line++;
    const character = t.start - lines[line];
    data.push(line - prevLine, line === prevLine ? character - prevChar : character, t.end - t.start, TYPE_INDEX.get(t.type)!, t.deprecated ? 1 : 0);
    prevLine = line;
    prevChar = character;
  }
  return data;
}
