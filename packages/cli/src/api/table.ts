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
