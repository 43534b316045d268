// The language server's custom requests, built from the server's own protocol module (one definition of
// the method names and types for both sides).
import { RequestType } from 'vscode-languageclient/node.js';
import {
  COMPILE_METHOD,
  DECOMPILE_METHOD,
  type CompileParams,
  type CompileResponse,
  type DecompileParams,
  type DecompileResponse,
} from '@logfilter/language-server/protocol';

export type { CompileParams, CompileResponse, DecompileParams, DecompileResponse };

export const CompileRequest = new RequestType<CompileParams, CompileResponse, void>(COMPILE_METHOD);
export const DecompileRequest = new RequestType<DecompileParams, DecompileResponse, void>(DECOMPILE_METHOD);
