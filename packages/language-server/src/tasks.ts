/**
 * The work that may take long on a large document, as plain-data tasks, so the same function runs inline
 * for small documents and in the worker thread for large ones (see runner.ts). Tasks import only pure
 * modules, never the server's handlers.
 */
import { compile, formatEdits, formatRange, inListRefactors, notRefactors, parse, type Diagnostic, type Fix, type Stats, type TextEdit } from '@logfilter/core';
import { rulesDiagnostics, type RulesDocumentKind } from './rules-check.js';
import type { FoldingRange } from 'vscode-languageserver/node.js';
import { selectPublished, type Published } from './convert.js';
import { foldingRanges } from './folding-ranges.js';
import { filterSemanticTokens, rulesSemanticTokens } from './semantic-encoding.js';
import type { Settings } from './settings.js';

/** What the server keeps of a compilation: plain data (it crosses the worker boundary). */
export interface Analysis {
  ok: boolean;
  json?: string;
  /** The diagnostics that are published (at most MAX_PUBLISHED, see convert.ts), and how many were not. */
  diagnostics: Diagnostic[];
  omitted?: Published['omitted'];
  stats: Stats;
  dataset: string;
  /**
   * The text parsed, so `stats` describe it. False with syntax errors: the core then counts nothing, and
   * the budget shows the last parsed version's figures instead (marked stale).
   */
  parsed: boolean;
}

/** Diagnostics that stop the core before it counts operators and bytes. */
const UNPARSED = new Set(['syntax', 'too-deep']);

export type Task =
  | { kind: 'compile'; text: string; settings: Settings }
  | { kind: 'format'; text: string }
  | { kind: 'format-range'; text: string; start: number; end: number }
  | { kind: 'refactor'; text: string; start: number; end: number }
  | { kind: 'highlight'; text: string; dataset: string }
  | { kind: 'folding'; text: string }
  /** The rules language: a `.rule` expression or a `*.ruleset.json` document, in `phase` when it names none. */
  | { kind: 'rules-check'; text: string; document: RulesDocumentKind; phase?: string; uri?: string }
  | { kind: 'rules-highlight'; text: string };

/** A formatting answer: the edits, or why there are none (the first syntax error). */
export interface FormatOutcome {
  ok: boolean;
  edits: TextEdit[];
  firstError?: Diagnostic;
}

export interface TaskResults {
  compile: Analysis;
  format: FormatOutcome;
  'format-range': FormatOutcome;
  refactor: Fix[];
  highlight: Uint32Array;
  folding: FoldingRange[];
  'rules-check': RulesCheck;
  'rules-highlight': Uint32Array;
}

/** What the server keeps of a rules check: the published diagnostics (plain data, as `Analysis`). */
export interface RulesCheck {
  diagnostics: Diagnostic[];
  omitted?: Published['omitted'];
}

export function runTask(task: Task): TaskResults[Task['kind']] {
  switch (task.kind) {
    case 'compile': {
      const r = compile(task.text, { dataset: task.settings.dataset, maxOperators: task.settings.maxOperators, maxBytes: task.settings.maxBytes });
      const parsed = !r.diagnostics.some((d) => d.severity === 'error' && UNPARSED.has(d.code));
      const { kept, omitted } = selectPublished(r.diagnostics);
      return { ok: r.ok, json: r.json, diagnostics: kept, ...(omitted ? { omitted } : {}), stats: r.stats, dataset: r.dataset, parsed };
    }
    case 'format':
      return outcome(formatEdits(task.text));
    case 'format-range':
      return outcome(formatRange(task.text, task.start, task.end));
    case 'refactor': {
      const { file } = parse(task.text);
      return [...inListRefactors(file, task.text, task.start, task.end), ...notRefactors(file, task.text, task.start, task.end)];
    }
    case 'highlight':
      return filterSemanticTokens(task.text, task.dataset);
    case 'folding':
      return foldingRanges(task.text);
    case 'rules-check': {
      const { kept, omitted } = selectPublished(rulesDiagnostics(task.text, task.document, task.phase, task.uri));
      return { diagnostics: kept, ...(omitted ? { omitted } : {}) };
    }
    case 'rules-highlight':
      return rulesSemanticTokens(task.text);
  }
}

function outcome(r: { ok: boolean; edits: TextEdit[]; diagnostics: Diagnostic[] }): FormatOutcome {
  const firstError = r.ok ? undefined : r.diagnostics.find((d) => d.severity === 'error');
  return { ok: r.ok, edits: r.edits, ...(firstError ? { firstError } : {}) };
}
