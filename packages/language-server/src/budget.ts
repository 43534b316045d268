/**
 * The budget: operators and bytes used against the limits, as a code lens on the first line. The lens is
 * display-only (empty command), which VS Code, Neovim and Helix render as plain text. During a syntax
 * error it keeps the last parsed version's figures, marked stale, instead of flickering to zero.
 */
import type { CodeLens } from 'vscode-languageserver/node.js';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { ServerContext } from './context.js';
import type { Budget } from './analyses.js';
import type { Analysis } from './tasks.js';

/**
 * `12/30 operators · 345/1000 bytes`, with `(has errors)`, or `(stale: syntax error)` for last good figures;
 * `(no condition yet)` for a new file, whose only problem (empty-filter) the editor does not list.
 */
export function budgetTitle(a: Analysis, b: Budget): string {
  const s = a.stats;
  const empty = !a.ok && a.diagnostics.every((d) => d.code === 'empty-filter' || d.severity !== 'error');
  const note = b.stale ? ' (stale: syntax error)' : a.ok ? '' : empty ? ' (no condition yet)' : ' (has errors)';
  return `${b.operators}/${s.maxOperators} operators · ${b.bytes}/${s.maxBytes} bytes${note}`;
}

export async function codeLens(ctx: ServerContext, doc: TextDocument): Promise<CodeLens[]> {
  const analysis = await ctx.analyses.get(doc);
  const budget = ctx.analyses.budget(doc.uri, analysis);
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      command: { title: budgetTitle(analysis, budget), command: '' },
      data: budget,
    },
  ];
}
