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
  // not a field of the dataset: the standard `variable` class, so it is not coloured like a known field
  'unknown-field': 'variable',
  dataset: 'namespace',
  string: 'string',
  number: 'number',
  comment: 'comment',
};
const TYPES = Object.keys(LSP_TYPE) as HighlightType[];
const TYPE_INDEX = new Map(TYPES.map((t, i) => [t, i]));

// `function` is the rules language's (rules.ts); appended so the filter language's indexes stay
export const LEGEND: SemanticTokensLegend = { tokenTypes: [...TYPES.map((t) => LSP_TYPE[t]), 'function'], tokenModifiers: ['deprecated'] };

/**
 * The LSP relative encoding, from plain offsets → lines, as a typed array: the worker hands it to the main
 * thread without a copy (a 1 MB document has some 600,000 numbers, which cost the main thread tens of
 * milliseconds to receive as a plain array).
 */
export function encodeSemanticTokens(text: string, dataset: string): Uint32Array {
  let data = new Uint32Array(4096);
  let n = 0;
  const lines = lineStarts(text);
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of highlightTokens(text, dataset)) {
    while (line + 1 < lines.length && lines[line + 1] <= t.start) line++;
    const character = t.start - lines[line];
    if (n + 5 > data.length) {
      const bigger = new Uint32Array(data.length * 2);
      bigger.set(data);
      data = bigger;
    }
    data[n++] = line - prevLine;
    data[n++] = line === prevLine ? character - prevChar : character;
    data[n++] = t.end - t.start;
    data[n++] = TYPE_INDEX.get(t.type)!;
    data[n++] = t.deprecated ? 1 : 0;
    prevLine = line;
    prevChar = character;
  }
  return data.slice(0, n);
}

/** The plain array the protocol sends (JSON has no typed arrays). */
export function toNumbers(data: Uint32Array): number[] {
  const out = new Array<number>(data.length);
  for (let i = 0; i < data.length; i++) out[i] = data[i];
  return out;
}
