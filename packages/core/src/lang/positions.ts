/**
 * Places in a text, as both languages report them: UTF-16 offsets (end exclusive), a JSON path for a place in
 * a JSON document, and 1-based lines and columns for the edges that print them (the LSP uses its own).
 */

/** Where in a JSON document (e.g. `["where","and",1,"operator"]`). */
export type JsonPath = (string | number)[];

/** A range of UTF-16 offsets, end exclusive. */
export interface Span {
  start: number;
  end: number;
}

export interface LineColumn {
  line: number;
  column: number;
  offset: number;
}

/** Offsets where the lines of `text` start (`\n`, `\r\n` and a lone `\r` end a line). */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

/** 1-based line and column of a UTF-16 offset, from the text's `lineStarts`. */
export function lineColumn(starts: readonly number[], offset: number): LineColumn {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: offset - starts[lo] + 1, offset };
}
