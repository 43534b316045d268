/**
 * The one semantic-token encoder: each language's highlight classes onto the server's one legend, in the
 * LSP's relative encoding. Pure (no server state), so it runs in the worker for large documents.
 */
import { highlightTokens, lineStarts, readRuleFileHeader, ruleHighlightTokens, type HighlightType, type RuleHighlightType } from '@logfilter/core';
import type { SemanticTokensLegend } from 'vscode-languageserver/node.js';

/** The LSP standard token type of each filter class (the legend follows this table's order). */
const FILTER_TYPE: Record<HighlightType, string> = {
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

/** The LSP standard token type of each rules class (`function` is the rules language's own). */
const RULES_TYPE: Record<RuleHighlightType, string> = { keyword: 'keyword', operator: 'operator', field: 'property', function: 'function', string: 'string', number: 'number' };

// `function` is appended after the filter language's types so their indexes stay
export const LEGEND: SemanticTokensLegend = { tokenTypes: [...new Set([...Object.values(FILTER_TYPE), ...Object.values(RULES_TYPE)])], tokenModifiers: ['deprecated'] };
const TYPE_INDEX = new Map(LEGEND.tokenTypes.map((t, i) => [t, i]));

/** A token in plain offsets, classed by its LSP type. */
export interface ClassedToken {
  start: number;
  end: number;
  type: string;
  deprecated?: boolean;
}

export function filterSemanticTokens(text: string, dataset: string): Uint32Array {
  return encodeTokens(text, classed(highlightTokens(text, dataset), FILTER_TYPE));
}

/** A `.rule` file's `# …` header lines are comments; the expression's tokens are read with the header blanked. */
export function rulesSemanticTokens(text: string): Uint32Array {
  const header = readRuleFileHeader(text);
  return encodeTokens(text, concat(headerComments(text, header.headerLength), classed(ruleHighlightTokens(header.text), RULES_TYPE)));
}

/** One comment token per `#` line of a header `text.slice(0, length)`, from the `#` to the line end. */
function* headerComments(text: string, length: number): Iterable<ClassedToken> {
  let at = 0;
  while (at < length) {
    const nl = text.indexOf('\n', at);
    const end = nl < 0 || nl > length ? length : nl;
    const hash = text.indexOf('#', at);
    if (hash >= 0 && hash < end) yield { start: hash, end: text.charCodeAt(end - 1) === 13 ? end - 1 : end, type: 'comment' };
    at = end + 1;
  }
}

function* concat<T>(...parts: Iterable<T>[]): Iterable<T> {
  for (const p of parts) yield* p;
}

/** A language's tokens with their LSP types, one at a time (a 1 MB document has some 120,000 tokens). */
function* classed<T extends string>(tokens: Iterable<{ start: number; end: number; type: T; deprecated?: boolean }>, table: Record<T, string>): Iterable<ClassedToken> {
  for (const t of tokens) yield { start: t.start, end: t.end, type: table[t.type], deprecated: t.deprecated };
}

/**
 * The LSP relative encoding, from plain offsets → lines, as a typed array: the worker hands it to the main
 * thread without a copy (a 1 MB document has some 600,000 numbers, which cost the main thread tens of
 * milliseconds to receive as a plain array). A token never spans lines, except a string with a line break:
 * it is cut at its line's end (clients without multiline token support would drop it).
 */
export function encodeTokens(text: string, tokens: Iterable<ClassedToken>): Uint32Array {
  let data = new Uint32Array(4096);
  let n = 0;
  const lines = lineStarts(text);
  let line = 0;
  let prevLine = 0;
  let prevChar = 0;
  for (const t of tokens) {
    while (line + 1 < lines.length && lines[line + 1] <= t.start) line++;
    const character = t.start - lines[line];
    let lineEnd = line + 1 < lines.length ? lines[line + 1] - 1 : text.length;
    // a CRLF line ends before its `\r` (the token must not reach past the line the client has)
    if (lineEnd > lines[line] && text.charCodeAt(lineEnd) === 10 && text.charCodeAt(lineEnd - 1) === 13) lineEnd--;
    if (n + 5 > data.length) {
      const bigger = new Uint32Array(data.length * 2);
      bigger.set(data);
      data = bigger;
    }
    data[n++] = line - prevLine;
    data[n++] = line === prevLine ? character - prevChar : character;
    data[n++] = Math.min(t.end, lineEnd) - t.start;
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
