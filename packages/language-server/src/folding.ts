/** textDocument/foldingRange: computed by `folding-ranges.ts` (in the worker for large documents). */
import type { FoldingRange } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';

export function folding(ctx: ServerContext, doc: TextDocument): Promise<FoldingRange[]> {
  return ctx.runner.run({ kind: 'folding', text: doc.getText() }, doc);
}
