/**
 * The evaluation plan: a filter document compiled once. Each condition becomes one plan node that holds what
 * every evaluation path needs of it: its operator (the operator table's row), its value, its test on a log
 * object (conditions.ts), the literals a matching line must contain (condition-needles.ts) and what the bytes
 * of its value decide on the line kernel's spans (span-decision.ts). The object matcher (matcher.ts), the span
 * scanner (span-conditions.ts), explain (explain.ts) and the prefilter (needles.ts) are derived from the plan;
 * none of them reads the filter document, so they cannot disagree on what a condition is.
 */
import type { FilterCondition, FilterDocument, FilterNode } from '../filter/filter.js';
import { isCondition } from '../filter/filter.js';
import { OPERATOR_BY_NAME, type OperatorInfo } from '../filter/operators.js';
import { conditionNeedles, type Needle } from './condition-needles.js';
import { objectTest, positiveTest, type ObjectTest } from './conditions.js';
import { spanDecision, type SpanDecision } from './span-decision.js';
import type { ValueTest } from './values.js';

export interface PlanCondition {
  readonly kind: 'condition';
  /** JSON Pointer of the condition in the filter document (`/where/and/1`). */
  readonly id: string;
  /** The condition as the document gives it (explain reports its key, operator and value). */
  readonly source: FilterCondition;
  readonly key: string;
  /** Index of the key in the plan's `fields`. */
  readonly field: number;
  /** The operator's row of the operator table; undefined for an unknown operator, which never matches. */
  readonly operator: OperatorInfo | undefined;
  /** The positive operator's test on a present, non-null log value. */
  readonly test: ValueTest;
  /** The condition's test on a log object (absent and null fields included). */
  readonly object: ObjectTest;
  /** Literals one of which the text of a matching line must contain; null when the condition gives none. */
  readonly needles: readonly Needle[] | null;
  /** What the bytes of the value decide on the line kernel's spans; undefined when the value must be decoded. */
  readonly span: SpanDecision | undefined;
}

export interface PlanGroup {
  readonly kind: 'and' | 'or';
  readonly id: string;
  readonly children: readonly PlanNode[];
}

/** A node outside the document grammar (the checker rejects it): it never holds. */
export interface PlanNever {
  readonly kind: 'never';
  readonly id: string;
  /** The group name the node carries, if any (`{"and": null}`), for explain to show. */
  readonly group: 'and' | 'or';
}

export type PlanNode = PlanCondition | PlanGroup | PlanNever;

export interface EvalPlan {
  readonly root: PlanNode;
  /** The top-level fields the filter reads, in document order, without duplicates. */
  readonly fields: readonly string[];
}

const NEVER = (): boolean => false;

function planCondition(c: FilterCondition, id: string, field: number): PlanCondition {
  const operator = OPERATOR_BY_NAME.get(c.operator);
  if (!operator) return { kind: 'condition', id, source: c, key: c.key, field, operator, test: NEVER, object: NEVER, needles: null, span: undefined };
  const test = positiveTest(operator.positive, c.value);
  return {
    kind: 'condition',
    id,
    source: c,
    key: c.key,
    field,
    operator,
    test,
    object: objectTest(c.key, operator.negative, test),
    needles: conditionNeedles(operator, c.value),
    span: spanDecision(operator, c.value),
  };
}

/**
 * Each evaluator entry takes the parsed document only (`compile(src).filter`, `exactFilter(json)`, `JSON.parse`
 * of filter JSON), or, where said, its plan: anything else (the JSON text itself, a job object) is a TypeError
 * saying what to pass, not a failure deep inside (lang/guards.ts).
 */
export function expectFilterDocument(filter: unknown, fn: string, planToo = false): void {
  const where = typeof filter === 'object' && filter !== null ? (filter as { where?: unknown }).where : undefined;
  if (typeof where === 'object' && where !== null && !Array.isArray(filter)) return;
  if (planToo && typeof filter === 'object' && filter !== null && isEvalPlan(filter as EvalPlan)) return;
  const got =
    typeof filter === 'string'
      ? 'a string (parse filter JSON first: exactFilter(json), JSON.parse, or decompile(json).filter)'
      : filter === null
        ? 'null'
        : Array.isArray(filter)
          ? 'an array'
          : typeof filter === 'object'
            ? 'an object without "where"'
            : typeof filter;
  throw new TypeError(`${fn} takes a filter document (an object with "where")${planToo ? ' or its evalPlan' : ''}; got ${got}`);
}

/** The plan of a filter document. */
export function evalPlan(filter: FilterDocument): EvalPlan {
  expectFilterDocument(filter, 'evalPlan');
  const fields: string[] = [];
  const index = new Map<string, number>();
  const build = (n: FilterNode, id: string): PlanNode => {
    if (isCondition(n)) {
      let field = index.get(n.key);
      if (field === undefined) {
        field = fields.push(n.key) - 1;
        index.set(n.key, field);
      }
      return planCondition(n, id, field);
    }
    // `and` before `or`, and only over an array: a node with neither never holds.
    const kind = 'and' in n && Array.isArray(n.and) ? 'and' : 'or' in n && Array.isArray(n.or) ? 'or' : undefined;
    if (kind === undefined) return { kind: 'never', id, group: 'and' in n ? 'and' : 'or' };
    const items = kind === 'and' ? (n as { and: FilterNode[] }).and : (n as { or: FilterNode[] }).or;
    return { kind, id, children: items.map((c, i) => build(c, `${id}/${kind}/${i}`)) };
  };
  const root = build(filter.where, '/where');
  return { root, fields };
}

/** True for a plan (rather than the filter document it was compiled from). */
export function isEvalPlan(x: FilterDocument | EvalPlan): x is EvalPlan {
  return typeof x === 'object' && x !== null && (x as EvalPlan).root !== undefined && (x as FilterDocument).where === undefined;
}
