/**
 * Custom requests for editors that show the compiled filter:
 *   logfilter/compile   { textDocument: { uri } } → { json, string, operators, bytes, stale, maxOperators, maxBytes, diagnostics }
 *   logfilter/decompile { text, dataset? }        → { source, dataset, diagnostics }
 * Their types are in protocol.ts, which clients import.
 * Diagnostics are LSP diagnostics (ranges in the document, or in `text` for decompile), at most MAX_PUBLISHED.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { decompile, toFilterString } from '@logfilter/core';
import { ErrorCodes, RequestType, ResponseError } from 'vscode-languageserver/node.js';
import { languageOf } from './language-service.js';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import { publishedDiagnostics, toDiagnostics } from './convert.js';
import {
  COMPILE_METHOD,
  DECOMPILE_METHOD,
  type CompileParams,
  type CompileResponse,
  type DecompileParams,
  type DecompileResponse,
} from './protocol.js';

export type { CompileParams, CompileResponse, DecompileParams, DecompileResponse };

export const CompileRequest = new RequestType<CompileParams, CompileResponse, void>(COMPILE_METHOD);
export const DecompileRequest = new RequestType<DecompileParams, DecompileResponse, void>(DECOMPILE_METHOD);

export async function compileRequest(ctx: ServerContext, params: CompileParams): Promise<CompileResponse> {
  const uri = params?.textDocument?.uri;
  if (typeof uri !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'textDocument.uri is required');
  const doc = ctx.documents.get(uri) ?? (await readClosed(uri));
  // a rules expression or ruleset compiles to no filter: read as one it would only give syntax errors
  if (languageOf(doc) !== 'filter') throw new ResponseError(ErrorCodes.InvalidParams, `${uri} is a rules-language document; logfilter/compile takes a filter (.logfilter)`);
  const a = await ctx.analyses.get(doc);
  const json = a.ok && a.json !== undefined ? a.json : null;
  const budget = ctx.analyses.budget(doc.uri, a);
  return {
    json,
    string: json === null ? null : toFilterString(json),
    operators: budget.operators,
    bytes: budget.bytes,
    stale: budget.stale,
    maxOperators: a.stats.maxOperators,
    maxBytes: a.stats.maxBytes,
    diagnostics: publishedDiagnostics(doc, { kept: a.diagnostics, omitted: a.omitted }),
  };
}

/** A file the editor has not opened is read from disk (version -1, so it never collides with an open one). */
async function readClosed(uri: string): Promise<TextDocument> {
  if (!uri.startsWith('file:')) throw new ResponseError(ErrorCodes.InvalidParams, `document not open: ${uri}`);
  try {
    return TextDocument.create(uri, 'logfilter', -1, await readFile(fileURLToPath(uri), 'utf8'));
  } catch (e) {
    throw new ResponseError(ErrorCodes.InvalidParams, `cannot read ${uri}: ${(e as Error).message}`);
  }
}

export function decompileRequest(_ctx: ServerContext, params: DecompileParams): DecompileResponse {
  if (typeof params?.text !== 'string') throw new ResponseError(ErrorCodes.InvalidParams, 'text is required');
  const r = decompile(params.text, typeof params.dataset === 'string' ? { dataset: params.dataset } : {});
  const doc = TextDocument.create('untitled:decompile', 'json', 0, params.text);
  const ok = r.ok && r.source !== undefined;
  return { source: ok ? r.source! : null, dataset: ok ? r.dataset ?? null : null, diagnostics: toDiagnostics(doc, r.diagnostics) };
}
