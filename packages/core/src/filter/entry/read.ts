/**
 * Reading filter input for decompile and check: the four forms of docs/language.md#decompiling-and-formatting, plus the
 * spellings people paste from job bodies and Terraform files — the JSON-encoded string without its
 * surrounding quotes (`{\"where\":...}`), an assignment `filter = "{\"where\":...}"`, and the
 * `jsonencode(...)` expression `--format terraform` writes (alone or assigned). Offsets still point into the
 * text as given.
 */
import type { Diagnostic } from '../diagnostics.js';
import { readFilterInput, type ReadFilterResult } from '../json/read-filter.js';
import { shiftExpr } from './shift.js';

export function readFilter(input: string | unknown): ReadFilterResult {
  const first = readFilterInput(input);
  if (typeof input !== 'string' || first.expr || !first.diagnostics.some((d) => d.code === 'invalid-json')) return first;
  const text = input;
  // Escaped JSON without its quotes is read by readFilterInput itself (with an escaped-json warning).
  const assign = /^\s*[A-Za-z_][A-Za-z0-9_]*\s*=\s*(?="|jsonencode\()/.exec(text);
  const attempt = terraform(text, assign ? assign[0].length : /^\s*/.exec(text)![0].length) ?? (assign ? { text: text.slice(assign[0].length), at: (o: number) => o + assign[0].length } : undefined);
  if (!attempt) return first;
  const second = readFilterInput(attempt.text);
  if (!second.expr && second.diagnostics.some((d) => d.code === 'invalid-json')) return first;
  const to = (o: number) => clamp(attempt.at(o), text.length);
  const shift = (d: Diagnostic): Diagnostic => ({
    ...d,
    start: to(d.start),
    end: to(d.end),
    related: d.related?.map((r) => ({ ...r, start: to(r.start), end: to(r.end) })),
    fixes: undefined,
  });
  return {
    ...second,
    text,
    diagnostics: second.diagnostics.map(shift),
    expr: second.expr ? shiftExpr(second.expr, attempt.at) : undefined,
  };
}

/**
 * The JSON inside `jsonencode(...)` starting at `from`, with the HCL template escapes of its strings (`$${`,
 * `%%{`: what toTerraform writes for `${` and `%{`) decoded, and the map from its offsets to the text's.
 * Undefined when the text there is not such an expression.
 */
function terraform(text: string, from: number): { text: string; at: (offset: number) => number } | undefined {
  if (!text.startsWith('jsonencode(', from)) return undefined;
  const open = from + 'jsonencode('.length;
  const close = text.trimEnd().length - 1;
  if (close < open || text[close] !== ')') return undefined;
  let out = '';
  const origin: number[] = [];
  let inString = false;
  for (let i = open; i < close; i++) {
    const c = text[i];
    if (inString && (c === '$' || c === '%') && text[i + 1] === c && text[i + 2] === '{') continue;
    origin.push(i);
    out += c;
    if (c === '"') inString = !inString;
    else if (c === '\\' && inString) {
      origin.push(++i);
      out += text[i] ?? '';
    }
  }
  origin.push(close);
  return { text: out, at: (o) => origin[Math.min(Math.max(o, 0), origin.length - 1)] };
}

function clamp(n: number, max: number): number {
  return Math.max(0, Math.min(n, max));
}
