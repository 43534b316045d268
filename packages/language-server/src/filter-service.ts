/**
 * The filter language (`.logfilter`): the compilation shared by diagnostics, fixes, the budget lens and
 * `logfilter/compile` (analyses.ts), the core's completion and hover, formatting, refactors and folding,
 * run in the worker for large documents (runner.ts).
 */
import { codeLens } from './budget.js';
import { codeActions } from './code-actions.js';
import { completion } from './completion.js';
import type { ServerContext } from './context.js';
import { editorDiagnostics } from './diagnostics.js';
import { folding } from './folding.js';
import { formatDocument, formatRange } from './formatting.js';
import { hover } from './hover.js';
import type { LanguageService } from './language-service.js';

export function filterService(ctx: ServerContext): LanguageService {
  return {
    async diagnostics(doc) {
      const analysis = await ctx.analyses.get(doc);
      return { kept: [...editorDiagnostics(doc.getText(), analysis.diagnostics)], omitted: analysis.omitted };
    },
    completion: (doc, params) => completion(ctx, doc, params),
    hover: (doc, params) => hover(ctx, doc, params),
    formatting: (doc, params) => formatDocument(ctx, doc, params),
    rangeFormatting: (doc, params) => formatRange(ctx, doc, params),
    semanticTokens: (doc) => ctx.runner.run({ kind: 'highlight', text: doc.getText(), dataset: ctx.settings().dataset }, doc),
    codeActions: (doc, params) => codeActions(ctx, doc, params),
    folding: (doc) => folding(ctx, doc),
    codeLens: (doc) => codeLens(ctx, doc),
  };
}
