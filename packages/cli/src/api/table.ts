/** Human tables of the API commands: a header row and aligned columns; the last column is not padded. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `${r.map((c, i) => (i === r.length - 1 ? c : (c ?? '').padEnd(widths[i]))).join('  ')}\n`;
  return [head, ...rows].map(line).join('');
}

/** One line of a long text: its first line, cut at `max` characters with an ellipsis. */
export function short(text: string | undefined, max = 60): string {
  const first = (text ?? '').split('\n')[0];
  return first.length > max || (text ?? '').includes('\n') ? `${first.slice(0, max - 1)}…` : first;
}

/** `key: value` lines with the values aligned. */
export function fields(pairs: [string, unknown][]): string {
  const width = Math.max(...pairs.map(([k]) => k.length)) + 2;
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width)}${v === undefined || v === null ? '' : String(v)}\n`).join('');
}

/** Quotes a word for a POSIX shell so a printed command line can be pasted as is. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s)) return s;
  if (!s.includes("'")) return `'${s}'`;
  if (!/["$`\\!]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
