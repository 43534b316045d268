/**
 * The budget: operators and bytes used against the limits, as a code lens on the first line. The lens is
 * display-only (empty command), which VS Code, Neovim and Helix render as plain text.
 */
import type { CodeLens, CodeLensParams } from 'vscode-languageserver/node.js';
import type { ServerContext } from './context.js';
import type { Analysis } from './jobs.js';

export function budgetTitle(a: Analysis): string {
  const s = a.stats;
  return `${s.operators}/${s.maxOperators} operators · ${s.bytes}/${s.maxBytes} bytes${a.ok ? '' : ' (has errors)'}`;
}

export async function codeLens(ctx: ServerContext, params: CodeLensParams): Promise<CodeLens[] | null> {
  const doc = ctx.documents.get(params.textDocument.uri);
  if (!doc) return null;
  const analysis = await ctx.analyses.get(doc);
  return [
    {
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      command: { title: budgetTitle(analysis), command: '' },
      data: { operators: analysis.stats.operators, bytes: analysis.stats.bytes },
    },
  ];
}
