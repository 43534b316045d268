/** textDocument/foldingRange: computed by `folding-ranges.ts` (in the worker for large documents). */
import type { FoldingRange, FoldingRangeParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';

export async function folding(ctx: ServerContext, params: FoldingRangeParams): Promise<FoldingRange[] | null> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  return ctx.runner.run({ kind: 'folding', text: doc.getText() }, doc);
}
