/**
 * The three faces of one filter the page keeps side by side: the source, the compiled `where` JSON and the
 * escaped string a job body carries in its `filter` field. Each is computed by the core (compile, decompile,
 * toFilterString), so the page shows exactly what the CLI would write. Pure.
 */
import { compile, decompile, pretty, toFilterString, type Diagnostic, type Stats } from '@logfilter/core';

export interface Compiled {
  ok: boolean;
  /** Indented JSON, for reading and editing ('' when the source has errors). */
  json: string;
  /** The compact JSON as a JSON string literal, as it appears in a job body ('' on errors). */
  escaped: string;
  /** The compact JSON ('' on errors): what `logfilter compile` prints and what the evaluator runs. */
  compact: string;
  stats: Stats;
  /** The dataset the filter was checked against: its `dataset` line, else the page's choice. */
  dataset: string;
  diagnostics: Diagnostic[];
}

/** The compile options the page sets (its toolbar): those of `logfilter compile`. */
export interface CompileChoices {
  optimize?: boolean;
  maxOperators?: number;
  maxBytes?: number;
}

export function compileView(source: string, dataset: string, choices: CompileChoices = {}): Compiled {
  const r = compile(source, { dataset, ...choices });
  const compact = r.ok ? r.json! : '';
  return {
    ok: r.ok,
    json: r.ok ? pretty(compact) : '',
    escaped: r.ok ? toFilterString(compact) : '',
    compact,
    stats: r.stats,
    dataset: r.dataset,
    diagnostics: r.diagnostics,
  };
}

export interface Decompiled {
  ok: boolean;
  source?: string;
  diagnostics: Diagnostic[];
}

/**
 * JSON pasted into either the JSON or the escaped-string box (a filter, its JSON string, a whole job or an API
 * response: whatever `decompile` reads) → source. The source keeps a dataset: the job's own when the JSON is a
 * job, else the one chosen on the page (written as a `dataset` line unless it is the default, which needs none).
 */
export function decompileView(text: string, dataset: string): Decompiled {
  const r = decompile(text, { dataset });
  if (!r.ok) return { ok: false, diagnostics: r.diagnostics };
  return { ok: true, source: r.source, diagnostics: r.diagnostics };
}
