// The language server's custom requests (packages/language-server), as the client sees them.
import { RequestType } from 'vscode-languageclient/node.js';

/** A diagnostic as the server sends it inside custom responses (LSP shape; severity 1 = error). */
export interface WireDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  message: string;
}

export interface CompileParams {
  textDocument: { uri: string };
}

export interface CompileResponse {
  /** Canonical compact filter JSON; null when the filter has errors. */
  json: string | null;
  /** The JSON-encoded string for a job body's `filter` field; null when the filter has errors. */
  string: string | null;
  operators: number;
  bytes: number;
  maxOperators: number;
  maxBytes: number;
  diagnostics: WireDiagnostic[];
}

export interface DecompileParams {
  text: string;
}

export interface DecompileResponse {
  /** Canonical source; null when the input is not a valid filter. */
  source: string | null;
  diagnostics: WireDiagnostic[];
}

export const CompileRequest = new RequestType<CompileParams, CompileResponse, void>('logfilter/compile');
export const DecompileRequest = new RequestType<DecompileParams, DecompileResponse, void>('logfilter/decompile');

const ERROR = 1;

export function errorsOf(diagnostics: readonly WireDiagnostic[]): WireDiagnostic[] {
  return diagnostics.filter((d) => (d.severity ?? ERROR) === ERROR);
}

/** `3:7 unknown-field: ...` — 1-based like the editor's own status bar, so the user can find the spot. */
export function describeDiagnostic(d: WireDiagnostic): string {
  const code = d.code === undefined ? '' : `${d.code}: `;
  return `${d.range.start.line + 1}:${d.range.start.character + 1} ${code}${d.message}`;
}
