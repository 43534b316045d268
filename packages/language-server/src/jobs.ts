/**
 * The work that may take long on a large document, as plain-data jobs, so the same function runs inline
 * for small documents and in the worker thread for large ones.
 */
import { compile, format, inListRefactors, notRefactors, parse, type Diagnostic, type Fix, type Stats } from '@logfilter/core';
import type { FoldingRange } from 'vscode-languageserver/node.js';
import type { Settings } from './settings.js';
import { encodeSemanticTokens } from './semantic-tokens.js';
import { foldingRanges } from './folding.js';

/** What the server keeps of a compilation: plain data (it crosses the worker boundary). */
export interface Analysis {
  ok: boolean;
  json?: string;
  diagnostics: Diagnostic[];
  stats: Stats;
  dataset: string;
}

export type Job =
  | { kind: 'compile'; text: string; settings: Settings }
  | { kind: 'format'; text: string }
  | { kind: 'refactor'; text: string; start: number; end: number }
  | { kind: 'highlight'; text: string; dataset: string }
  | { kind: 'folding'; text: string };

export interface JobResults {
  compile: Analysis;
  format: { ok: boolean; text: string };
  refactor: Fix[];
  highlight: number[];
  folding: FoldingRange[];
}

export function runJob(job: Job): JobResults[Job['kind']] {
  switch (job.kind) {
    case 'compile': {
      const r = compile(job.text, { dataset: job.settings.dataset, maxOperators: job.settings.maxOperators, maxBytes: job.settings.maxBytes });
      return { ok: r.ok, json: r.json, diagnostics: r.diagnostics, stats: r.stats, dataset: r.dataset };
    }
    case 'format': {
      const r = format(job.text);
      return { ok: r.ok, text: r.text };
    }
    case 'refactor': {
      const { file } = parse(job.text);
      return [...inListRefactors(file, job.text, job.start, job.end), ...notRefactors(file, job.text, job.start, job.end)];
    }
    case 'highlight':
      return encodeSemanticTokens(job.text, job.dataset);
    case 'folding':
      return foldingRanges(job.text);
  }
}
