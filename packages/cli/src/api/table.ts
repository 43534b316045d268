/**
 * Text from the API shown on a terminal (observed script URLs, cookie names, rule descriptions): control
 * characters are written as escapes, so that data cannot set the window title (OSC), clear the screen, plant
 * an OSC 8 link, or break a table row with a line break. C0 controls and DEL as `\xHH` (`\n`, `\r`, `\t` by
 * name), C1 controls (0x80-0x9F, which some terminals take as ESC + a letter) as `\u00HH`. Backslashes stay
 * as they are (rule expressions hold them).
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    const code = c.charCodeAt(0);
    return code >= 0x80 ? `\\u00${code.toString(16)}` : `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

/** Human tables of the API commands: a header row and aligned columns; the last column is not padded. */
export function table(head: string[], cells: string[][]): string {
  const rows = cells.map((r) => r.map((c) => terminalSafe(c ?? '')));
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
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width)}${v === undefined || v === null ? '' : terminalSafe(String(v))}\n`).join('');
}

/** Quotes a word for a POSIX shell so a printed command line can be pasted as is. */
export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(s)) return s;
  if (!s.includes("'")) return `'${s}'`;
  if (!/["$`\\!]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
