/**
 * The custom requests of the server, as plain types: the one definition that the server and the VS Code
 * extension (and any other client) import. No runtime dependency: each side builds its own RequestType
 * from these names and types with its own LSP library.
 */
import type { Diagnostic } from 'vscode-languageserver/node.js';

export const COMPILE_METHOD = 'logfilter/compile';
export const DECOMPILE_METHOD = 'logfilter/decompile';

/**
 * Started as a worker thread (`new Worker(bundle, { workerData: { [SERVER_PORT_KEY]: port } })`), the server
 * speaks LSP over that MessagePort: how the VS Code extension runs it inside its extension host.
 */
export const SERVER_PORT_KEY = 'logfilterLspPort';

/** `logfilter/compile`: an open document, or a `file:` URI read from disk. */
export interface CompileParams {
  textDocument: { uri: string };
}

export interface CompileResponse {
  /** Canonical compact filter JSON; null when the filter has errors. */
  json: string | null;
  /** The JSON-encoded string for a job body's `filter` field; null when the filter has errors. */
  string: string | null;
  /**
   * Operators and bytes of the compiled filter. When this version has syntax errors (nothing is counted
   * then), those of the last version of the document that parsed, with `stale: true` (0 when none did).
   */
  operators: number;
  bytes: number;
  /** The figures are not this version's (see above). */
  stale: boolean;
  maxOperators: number;
  maxBytes: number;
  /** LSP diagnostics of the document, as published (at most 1000). */
  diagnostics: Diagnostic[];
}

/** `logfilter/decompile`: filter JSON in any accepted form (filter, encoded string, job, API answer). */
export interface DecompileParams {
  text: string;
  /** Dataset line to write when the input names none (a job's own `dataset` wins). */
  dataset?: string;
}

export interface DecompileResponse {
  /** Canonical source, starting with the `dataset` line when there is one; null when the input is not a valid filter. */
  source: string | null;
  /** The dataset of that line, if any. */
  dataset: string | null;
  /** Diagnostics with ranges inside `text`. */
  diagnostics: Diagnostic[];
}
