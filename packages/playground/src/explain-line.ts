/**
 * `explain` for one log line: which condition and group of the filter held on it, from the core's explainer
 * (the counts `logfilter eval --explain` prints, on a single object), rendered as indented rows.
 */
import { createExplainer, decompile, isLogObject, type ExplainNode, type FilterDocument } from '@logfilter/core';

export interface ExplainRow {
  /** JSON Pointer of the node (`/where/and/1`). */
  id: string;
  depth: number;
  /** `and`, `or`, or the condition as the language writes it (`BotScore < 30`, `` `in` == 1 ``). */
  label: string;
  held: boolean;
}

export type LineExplanation = { ok: true; matched: boolean; rows: ExplainRow[] } | { ok: false; error: string };

export function explainLine(filter: FilterDocument, line: string): LineExplanation {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, error: 'the line is not valid JSON' };
  }
  if (!isLogObject(value)) return { ok: false, error: 'the line is not a JSON object' };
  const explainer = createExplainer(filter);
  const matched = explainer.add(value);
  const rows: ExplainRow[] = [];
  const walk = (n: ExplainNode, depth: number) => {
    const label = n.kind === 'condition' ? conditionSource(n) : n.kind;
    rows.push({ id: n.id, depth, label, held: n.held > 0 });
    for (const c of n.children ?? []) walk(c, depth + 1);
  };
  walk(explainer.report().root, 0);
  return { ok: true, matched, rows };
}

/** A condition in canonical source, written by the core's decompiler (as the editor beside it shows it). */
function conditionSource(n: ExplainNode): string {
  const source = n.key !== undefined && n.operator !== undefined && n.value !== undefined ? decompile({ where: { key: n.key, operator: n.operator, value: n.value } }).source : null;
  return source?.trimEnd() ?? `${n.key} ${n.operator} ${JSON.stringify(n.value)}`;
}
