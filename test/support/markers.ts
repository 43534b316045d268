/**
 * Cursor and range markers in test texts, Langium-style: `<|>` marks a cursor, `<|` … `|>` a range. They
 * cannot be mistaken for the language's own `|`, `[` or `]`. Offsets are UTF-16, ends exclusive, in the
 * text without its markers. Core completion and hover tests and the language server's LSP tests share it.
 */
export interface Marked {
  /** The text with every marker removed. */
  text: string;
  /** Offsets of the `<|>` cursors, in order. */
  cursors: number[];
  /** The `<|...|>` ranges, in the order they open (they may not nest). */
  ranges: { start: number; end: number }[];
}

const MARKER = /<\|>|<\||\|>/g;

export function markers(marked: string): Marked {
  let text = '';
  let last = 0;
  const cursors: number[] = [];
  const ranges: { start: number; end: number }[] = [];
  let open: number | undefined;
  for (const m of marked.matchAll(MARKER)) {
    text += marked.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '<|>') cursors.push(text.length);
    else if (m[0] === '<|') {
      if (open !== undefined) throw new Error(`nested range markers in ${JSON.stringify(marked)}`);
      open = text.length;
    } else {
      if (open === undefined) throw new Error(`|> without <| in ${JSON.stringify(marked)}`);
      ranges.push({ start: open, end: text.length });
      open = undefined;
    }
  }
  if (open !== undefined) throw new Error(`<| without |> in ${JSON.stringify(marked)}`);
  return { text: text + marked.slice(last), cursors, ranges };
}

/** The text and the offset of its one `<|>` cursor. */
export function cursor(marked: string): { text: string; offset: number } {
  const m = markers(marked);
  if (m.cursors.length !== 1) throw new Error(`one <|> cursor expected in ${JSON.stringify(marked)}`);
  return { text: m.text, offset: m.cursors[0] };
}
