/**
 * Sound raw-text prefilters. From a filter's plan (plan.ts) we derive literals that the raw text of every
 * matching line must contain, in CNF: an `and` of clauses, each clause an `or` of needles. A line that
 * satisfies no needle of some clause cannot match and need not be parsed.
 *
 * Each condition's needles are in its plan node (condition-needles.ts says why each is necessary). A line can
 * only match when it contains a needle, or an escape that decodes to one of the needle's characters (its
 * "triggers"). Escapes of other characters (Go writes `&` as `\u0026` in every URL) do not make a line a
 * candidate. Key order, whitespace, duplicate keys and values in other fields only add candidates, which the
 * full parse then rejects.
 */
import type { FilterDocument } from '../filter/filter.js';
import type { Needle } from './condition-needles.js';
import { evalPlan, expectFilterDocument, isEvalPlan, type EvalPlan, type PlanNode } from './plan.js';

export interface NeedleClause {
  /** The needles as text (for decoded lines). */
  readonly texts: readonly string[];
  /** The needles as UTF-8 bytes (for raw lines). */
  readonly bytes: readonly Uint8Array[];
  /** UTF-16 code units whose escape could stand for a character of a needle. */
  readonly triggers: ReadonlySet<number>;
}

/** An `and` of clauses; empty when the filter gives no necessary literal (every line is a candidate). */
export type NeedlePlan = NeedleClause[];

const encoder = new TextEncoder();

function clauseOf(needles: readonly Needle[]): NeedleClause {
  const texts = [...new Set(needles.map((n) => n.text))];
  const triggers = new Set<number>();
  for (const n of needles) for (let i = 0; i < n.inner.length; i++) triggers.add(n.inner.charCodeAt(i));
  return { texts, bytes: texts.map((t) => encoder.encode(t)), triggers };
}

function mergeClauses(parts: NeedleClause[]): NeedleClause {
  const texts = [...new Set(parts.flatMap((p) => p.texts))];
  const triggers = new Set<number>();
  for (const p of parts) for (const t of p.triggers) triggers.add(t);
  return { texts, bytes: texts.map((t) => encoder.encode(t)), triggers };
}

/** Most clauses an `or` may expand into (the cross product of its children's clauses). */
const MAX_OR_CLAUSES = 16;

function nodePlan(n: PlanNode): NeedlePlan {
  if (n.kind === 'condition') return n.needles ? [clauseOf(n.needles)] : [];
  if (n.kind === 'and') return n.children.flatMap(nodePlan);
  if (n.kind === 'or') {
    const kids = n.children.map(nodePlan);
    if (kids.length === 0 || kids.some((k) => k.length === 0)) return [];
    // (A1 ∧ A2) ∨ (B1) ⇒ (A1 ∨ B1) ∧ (A2 ∨ B1): every combination is a necessary clause.
    let combos: NeedleClause[][] = [[]];
    for (const k of kids) {
      const next: NeedleClause[][] = [];
      for (const combo of combos) for (const c of k) next.push([...combo, c]);
      combos = next.length <= MAX_OR_CLAUSES ? next : combos.map((combo) => [...combo, k[0]!]);
    }
    return combos.map(mergeClauses);
  }
  return [];
}

/** The necessary literals of a filter (see the file comment), from its document or its plan (plan.ts). */
export function needlePlan(filter: FilterDocument | EvalPlan): NeedlePlan {
  expectFilterDocument(filter, 'needlePlan', true);
  return nodePlan((isEvalPlan(filter) ? filter : evalPlan(filter)).root);
}
