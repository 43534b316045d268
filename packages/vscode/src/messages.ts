// What the extension writes for the user from the server's answers. No `vscode` import: unit-tested directly.
import type { CompileResponse } from '@logfilter/language-server/protocol';

/** A diagnostic as the server sends it inside custom responses (LSP shape; severity 1 = error). */
export type WireDiagnostic = CompileResponse['diagnostics'][number];

const ERROR = 1;

export function errorsOf(diagnostics: readonly WireDiagnostic[]): WireDiagnostic[] {
  return diagnostics.filter((d) => (d.severity ?? ERROR) === ERROR);
}

/** `3:7 unknown-field: ...` — 1-based like the editor's own status bar, so the user can find the spot. */
export function describeDiagnostic(d: WireDiagnostic): string {
  const code = d.code === undefined ? '' : `${d.code}: `;
  return `${d.range.start.line + 1}:${d.range.start.character + 1} ${code}${d.message}`;
}

/** Joins sentences, ending each with one stop: `did you mean "!eq"?` is not followed by a `.`. */
export function sentences(...parts: string[]): string {
  return parts
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => (/[.?!]$/.test(p) ? p : `${p}.`))
    .join(' ');
}

/** Why an import failed: up to three problems, where they are, and what was expected. */
export function importFailure(title: string, from: string, diagnostics: readonly WireDiagnostic[]): string {
  const errors = errorsOf(diagnostics);
  const detail = errors.slice(0, 3).map(describeDiagnostic).join('; ');
  return sentences(
    `${title}: the ${from} does not hold a valid filter (${errors.length} problem(s)): ${detail}`,
    'Expected a filter {"where": ...}, its JSON-encoded string, a job with "filter", or an API response holding a job.',
  );
}

/** The status bar's budget; `(stale)` when the figures are the last parsed version's (syntax error now). */
export function budgetText(r: Pick<CompileResponse, 'operators' | 'bytes' | 'maxOperators' | 'maxBytes' | 'stale'>): string {
  return `$(filter) ${r.operators}/${r.maxOperators} ops · ${r.bytes}/${r.maxBytes} B${r.stale ? ' (stale)' : ''}`;
}
