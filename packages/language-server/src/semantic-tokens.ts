/** textDocument/semanticTokens/full: the core's highlight classes, encoded (in the worker for large documents). */
import type { SemanticTokens, SemanticTokensParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';

import { toNumbers } from './semantic-encoding.js';

export { LEGEND } from './semantic-encoding.js';

export async function semanticTokens(ctx: ServerContext, params: SemanticTokensParams): Promise<SemanticTokens> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return { data: [] };
  return { data: toNumbers(await ctx.runner.run({ kind: 'highlight', text: doc.getText(), dataset: ctx.settings().dataset }, doc)) };
}
