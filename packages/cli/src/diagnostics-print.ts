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
    out += `${c.bold(`${file}:${s.line}:${s.column}`)}: ${sev} ${c.dim(d.code)}: ${d.message}\n`;
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
    const width = Math.max(1, Math.min(d.end - d.start, line.length - col));
    const gutter = String(s.line).padStart(4);
    out += `${c.dim(`${gutter} |`)} ${line.replace(/\t/g, ' ')}\n`;
    const mark = d.severity === 'error' ? c.red : c.yellow;
    out += `${c.dim(`${' '.repeat(4)} |`)} ${' '.repeat(Math.max(0, col))}${mark(`^${'~'.repeat(width - 1)}`)}\n`;
    for (const r of d.related ?? []) {
      const rs = lineColumn(starts, r.start);
      out += `${' '.repeat(4)} ${c.dim('=')} ${file}:${rs.line}:${rs.column}: ${r.message}\n`;
    }
  }
  return out;
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
