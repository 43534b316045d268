/**
 * Explain data: for every condition and group of a filter, on how many log objects it held. Nodes are
 * identified by their JSON Pointer in the filter document (`/where`, `/where/and/1`, `/where/and/1/or/0`), so the
 * CLI and the VS Code extension render the same tree and can point back into the source.
 *
 * Counting evaluates every node on every object (no short-circuit), so each node's count is independent of
 * the order of its siblings. The nodes and their tests are the filter's plan (plan.ts).
 */
import type { FilterDocument, FilterScalar, FilterValue } from '../filter/filter.js';
import type { OperatorName } from '../filter/operators.js';
import { evalPlan, expectFilterDocument, isEvalPlan, type EvalPlan, type PlanNode } from './plan.js';

export interface ExplainNode {
  /** JSON Pointer of the node in the filter document. */
  id: string;
  kind: 'condition' | 'and' | 'or';
  key?: string;
  operator?: OperatorName;
  value?: FilterValue;
  /** Log objects the node was evaluated on (every object line). */
  evaluated: number;
  /** Log objects for which the node held. */
  held: number;
  /**
   * Log objects the node rejected on its own: it was false while every group above it is an `and`, so the
   * line could not match because of it. 0 for nodes under an `or`.
   */
  rejected: number;
  children?: ExplainNode[];
}

export interface ExplainReport {
  /** Log objects evaluated (malformed lines are not objects and are not counted here). */
  evaluated: number;
  matched: number;
  root: ExplainNode;
  /** The node (other than the root group) that rejected the most lines; absent when nothing was rejected. */
  mostRejecting?: { id: string; rejected: number };
}

export interface Explainer {
  /** Evaluates every node on one log object, counts, and returns whether the filter matched. */
  add(o: Record<string, unknown>): boolean;
  /** Adds the counts of another explainer built from the same filter (e.g. from a worker). */
  merge(counts: readonly number[]): void;
  /** Raw counters, in a fixed node order, for sending between threads. */
  counts(): number[];
  report(): ExplainReport;
}

interface Slot {
  node: ExplainNode;
  /** True when every ancestor is an `and` (or there is none): a false here rejects the line. */
  blocking: boolean;
}

/** An explainer of a filter, from its document or its plan (plan.ts). */
export function createExplainer(filter: FilterDocument | EvalPlan): Explainer {
  expectFilterDocument(filter, 'createExplainer', true);
  const plan = isEvalPlan(filter) ? filter : evalPlan(filter);
  const slots: Slot[] = [];
  /**
   * The value as the report shows it: JSON-safe, so an exact integer (a bigint from exactFilter) is shown as the
   * JSON number it was in the document; the counting itself compares it exactly.
   */
  const reported = (v: FilterValue): FilterValue => {
    const one = (x: unknown) => (typeof x === 'bigint' ? Number(x) : x) as FilterScalar;
    return Array.isArray(v) ? v.map(one) : one(v);
  };
  // counters[3*i] = evaluated, [3*i+1] = held, [3*i+2] = rejected, for slot i.
  let counters: number[] = [];

  const build = (n: PlanNode, blocking: boolean): { node: ExplainNode; eval: (o: Record<string, unknown>) => boolean } => {
    const index = slots.length;
    if (n.kind === 'condition') {
      const c = n.source;
      const node: ExplainNode = { id: n.id, kind: 'condition', key: c.key, operator: c.operator, value: reported(c.value), evaluated: 0, held: 0, rejected: 0 };
      slots.push({ node, blocking });
      const test = n.object;
      return { node, eval: (o) => count(index, blocking, test(o)) };
    }
    const kind = n.kind === 'never' ? n.group : n.kind;
    const node: ExplainNode = { id: n.id, kind, evaluated: 0, held: 0, rejected: 0, children: [] };
    slots.push({ node, blocking });
    // A node outside the grammar (the checker rejects it) has no children and never holds, as in the matcher.
    if (n.kind === 'never') return { node, eval: () => count(index, blocking, false) };
    const kids = n.children.map((c) => build(c, blocking && kind === 'and'));
    node.children = kids.map((k) => k.node);
    const evals = kids.map((k) => k.eval);
    return {
      node,
      eval: (o) => {
        let all = true;
        let any = false;
        for (let i = 0; i < evals.length; i++) {
          if (evals[i]!(o)) any = true;
          else all = false;
        }
        return count(index, blocking, kind === 'and' ? all : any);
      },
    };
  };
  const count = (i: number, blocking: boolean, held: boolean): boolean => {
    counters[3 * i]++;
    if (held) counters[3 * i + 1]++;
    else if (blocking) counters[3 * i + 2]++;
    return held;
  };

  const root = build(plan.root, true);
  counters = new Array(slots.length * 3).fill(0);
  let evaluated = 0;
  let matched = 0;

  return {
    add(o) {
      evaluated++;
      const ok = root.eval(o);
      if (ok) matched++;
      return ok;
    },
    counts: () => [evaluated, matched, ...counters],
    merge(other) {
      evaluated += other[0] ?? 0;
      matched += other[1] ?? 0;
      for (let i = 0; i < counters.length; i++) counters[i] += other[i + 2] ?? 0;
    },
    report() {
      let most: { id: string; rejected: number } | undefined;
      slots.forEach((s, i) => {
        s.node.evaluated = counters[3 * i]!;
        s.node.held = counters[3 * i + 1]!;
        s.node.rejected = counters[3 * i + 2]!;
        // The root group rejects every unmatched line by definition; name the part inside it instead.
        const skip = i === 0 && s.node.kind !== 'condition';
        if (!skip && s.node.rejected > 0 && (!most || s.node.rejected > most.rejected)) {
          most = { id: s.node.id, rejected: s.node.rejected };
        }
      });
      return { evaluated, matched, root: root.node, ...(most ? { mostRejecting: most } : {}) };
    },
  };
}
