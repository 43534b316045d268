/**
 * Diagnostics at the edge: offsets become 1-based lines and columns here, printed like a compiler
 * (`file:line:col: severity code: message`, the source line, a caret underline) or as a JSON array.
 */
import pc from 'picocolors';
import { type Diagnostic, lineColumn, type LineColumn, lineStarts } from '@logfilter/core';

export interface JsonDiagnostic {
  file: string;
  code: string;
  severity: string;
  message: string;
  range: { start: LineColumn; end: LineColumn };
  path?: (string | number)[];
  suggestions?: string[];
}

export function toJsonDiagnostics(file: string, text: string, diagnostics: readonly Diagnostic[]): JsonDiagnostic[] {
  const starts = lineStarts(text);
  return diagnostics.map((d) => ({
    file,
    code: d.code,
    severity: d.severity,
    message: d.message,
    range: { start: lineColumn(starts, d.start), end: lineColumn(starts, d.end) },
    ...(d.path ? { path: d.path } : {}),
    ...(d.suggestions?.length ? { suggestions: d.suggestions } : {}),
  }));
}

export function formatDiagnostics(file: string, text: string, diagnostics: readonly Diagnostic[], color: boolean): string {
  const c = pc.createColors(color);
  const starts = lineStarts(text);
  let out = '';
  for (const d of diagnostics) {
    const s = lineColumn(starts, d.start);
    const sev = d.severity === 'error' ? c.red(c.bold('error')) : d.severity === 'warning' ? c.yellow(c.bold('warning')) : c.cyan('info');
    out += `${c.bold(`${file}:${s.line}:${s.column}`)}: ${sev} ${c.dim(d.code)}: ${shown(d.message).text}\n`;
    const lineStart = starts[s.line - 1];
    const nextStart = s.line < starts.length ? starts[s.line] : text.length;
    let line = text.slice(lineStart, nextStart).replace(/\r?\n$|\r$/, '');
    // long lines (1 MB of minified JSON) are cut around the problem
    let col = s.column - 1;
    if (line.length > 160) {
      const from = Math.max(0, col - 60);
      line = (from > 0 ? '…' : '') + line.slice(from, from + 150) + (from + 150 < line.length ? '…' : '');
      col = col - from + (from > 0 ? 1 : 0);
    }
    // the caret goes under the problem as the terminal shows the line: in columns, not UTF-16 units
    col = Math.max(0, col);
    const underlined = line.slice(col, col + Math.max(0, Math.min(d.end - d.start, line.length - col)));
    const width = Math.max(1, shown(underlined).width);
    const gutter = String(s.line).padStart(4);
    out += `${c.dim(`${gutter} |`)} ${shown(line).text}\n`;
    const mark = d.severity === 'error' ? c.red : c.yellow;
    out += `${c.dim(`${' '.repeat(4)} |`)} ${' '.repeat(shown(line.slice(0, col)).width)}${mark(`^${'~'.repeat(width - 1)}`)}\n`;
    for (const r of d.related ?? []) {
      const rs = lineColumn(starts, r.start);
      out += `${' '.repeat(4)} ${c.dim('=')} ${file}:${rs.line}:${rs.column}: ${shown(r.message).text}\n`;
    }
  }
  return out;
}

/**
 * Text as a terminal shows it, and its width in columns. Control characters are written as their visible symbols
 * (a source may hold an escape sequence, which would otherwise drive the terminal; a tab is one space, so columns
 * stay countable), bidirectional overrides as U+FFFD; combining marks take no column, wide characters two.
 */
export function shown(text: string): { text: string; width: number } {
  let out = '';
  let width = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp === 9) {
      out += ' ';
      width += 1;
    } else if (cp < 32 || cp === 0x7f) {
      out += String.fromCodePoint(cp === 0x7f ? 0x2421 : 0x2400 + cp);
      width += 1;
    } else if ((cp >= 0x80 && cp < 0xa0) || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
      out += '\uFFFD';
      width += 1;
    } else {
      out += ch;
      width += ZERO_WIDTH.test(ch) ? 0 : isWide(cp) || EMOJI.test(ch) ? 2 : 1;
    }
  }
  return { text: out, width };
}

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;

/** East Asian Wide and Fullwidth characters (Unicode's EastAsianWidth W and F, the main blocks). */
function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0x303e) ||
    (cp >= 0x3041 && cp <= 0x33ff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0xa000 && cp <= 0xa4cf) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe10 && cp <= 0xfe19) ||
    (cp >= 0xfe30 && cp <= 0xfe6f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1b000 && cp <= 0x1b2ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

export function summary(diagnostics: readonly Diagnostic[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const d of diagnostics) {
    if (d.severity === 'error') errors++;
    else if (d.severity === 'warning') warnings++;
  }
  return { errors, warnings };
}
