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
import { quickDiagnostics, type Checked } from './quick-diagnostics.js';

export function filterService(ctx: ServerContext): LanguageService {
  /** Per document, the latest version whose diagnostics were computed (whole or quick), for the next quick ones. */
  const checked = new Map<string, Checked>();
  const remember = (uri: string, c: Checked) => {
    const had = checked.get(uri);
    if (!had || had.version <= c.version) checked.set(uri, c);
  };
  return {
    async diagnostics(doc) {
      const { version } = doc;
      const text = doc.getText();
      const analysis = await ctx.analyses.get(doc);
      const kept = [...editorDiagnostics(text, analysis.diagnostics)];
      remember(doc.uri, { version, text, diagnostics: kept, ...(analysis.omitted ? { omitted: analysis.omitted } : {}), dataset: analysis.dataset });
      return { kept, omitted: analysis.omitted };
    },
    quickDiagnostics(doc) {
      const prev = checked.get(doc.uri);
      if (!prev || prev.version >= doc.version) return undefined;
      const text = doc.getText();
      const r = quickDiagnostics(prev, text);
      if (r) remember(doc.uri, { version: doc.version, text, diagnostics: r.kept, ...(r.omitted ? { omitted: r.omitted } : {}), dataset: prev.dataset });
      return r;
    },
    forget: (uri) => void checked.delete(uri),
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
