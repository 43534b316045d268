/**
 * `createMatcher`: a filter document compiled once (its plan, plan.ts) into a predicate on parsed log objects.
 * Groups become short-circuiting closures over their children's closures; nothing walks the filter JSON per line.
 */
import type { FilterDocument } from '../filter/filter.js';
import type { ObjectTest } from './conditions.js';
import { evalPlan, expectFilterDocument, type PlanNode } from './plan.js';

export interface Matcher {
  /** True when the value is a JSON object (not null, not an array) that the filter keeps. */
  test(value: unknown): boolean;
  /** The top-level fields the filter reads, in order of first use. */
  readonly fields: readonly string[];
}

/** True for a parsed value that is a JSON object (a log line must be one). */
export function isLogObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The plan's node as a predicate on the log object. */
export function compileNode(node: PlanNode): ObjectTest {
  if (node.kind === 'condition') return node.object;
  // Not a node of the document grammar: the checker rejects it; it never matches here.
  if (node.kind === 'never') return () => false;
  const parts = node.children.map(compileNode);
  if (parts.length === 1) return parts[0]!;
  if (node.kind === 'and') {
    if (parts.length === 2) {
      const [a, b] = parts as [ObjectTest, ObjectTest];
      return (o) => a(o) && b(o);
    }
    return (o) => {
      for (let i = 0; i < parts.length; i++) if (!parts[i]!(o)) return false;
      return true;
    };
  }
  if (parts.length === 2) {
    const [a, b] = parts as [ObjectTest, ObjectTest];
    return (o) => a(o) || b(o);
  }
  return (o) => {
    for (let i = 0; i < parts.length; i++) if (parts[i]!(o)) return true;
    return false;
  };
}

/** The fields a filter reads, in document order, without duplicates. */
export function filterFields(filter: FilterDocument): string[] {
  expectFilterDocument(filter, 'filterFields');
  return [...evalPlan(filter).fields];
}

/**
 * A matcher for a filter document: `{ test(value), fields }`, where `test` is the predicate over parsed log
 * objects. It takes the parsed document only (`compile(src).filter`, `decompile(json).filter`, or `JSON.parse` of
 * filter JSON); anything else (the JSON text itself, a job object) is a TypeError saying what to pass, not a
 * failure deep inside.
 */
export function createMatcher(filter: FilterDocument): Matcher {
  expectFilterDocument(filter, 'createMatcher');
  const plan = evalPlan(filter);
  const root = compileNode(plan.root);
  return {
    test: (value) => isLogObject(value) && root(value),
    fields: [...plan.fields],
  };
}
