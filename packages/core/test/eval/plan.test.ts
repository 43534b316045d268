/**
 * The evaluation plan (eval/plan.ts): each condition compiled once into a node holding its operator, value,
 * needles and span decision; the object matcher, the span scanner, explain and the prefilter derive from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createBlockScanner, createExplainer, createMatcher, evalPlan, needlePlan } from '../../src/eval/index.js';
import type { PlanCondition, PlanNode } from '../../src/eval/plan.js';
import type { FilterDocument } from '../../src/filter/filter.js';

const encoder = new TextEncoder();
const text = (b: Uint8Array) => new TextDecoder().decode(b);

const FILTER = {
  where: {
    and: [
      { key: 'host', operator: 'eq', value: 'example.com' },
      { or: [{ key: 'status', operator: 'geq', value: 500 }, { key: 'path', operator: 'startsWith', value: '/api' }] },
      { key: 'host', operator: '!contains', value: 'test' },
      { key: 'tags', operator: 'in', value: ['a', 'b'] },
    ],
  },
} as FilterDocument;

function conditions(n: PlanNode): PlanCondition[] {
  if (n.kind === 'condition') return [n];
  return n.kind === 'never' ? [] : n.children.flatMap(conditions);
}

describe('evaluation plan', () => {
  const plan = evalPlan(FILTER);
  const conds = conditions(plan.root);

  it('names every node by its JSON Pointer and every field once, in document order', () => {
    expect(conds.map((c) => c.id)).toEqual(['/where/and/0', '/where/and/1/or/0', '/where/and/1/or/1', '/where/and/2', '/where/and/3']);
    expect(plan.fields).toEqual(['host', 'status', 'path', 'tags']);
    expect(conds.map((c) => c.field)).toEqual([0, 1, 2, 0, 3]);
    expect(conds.map((c) => c.operator?.name)).toEqual(['eq', 'geq', 'startsWith', '!contains', 'in']);
  });

  it('holds each condition\'s needles and span decision', () => {
    const [eq, geq, starts, notContains, inList] = conds as [PlanCondition, PlanCondition, PlanCondition, PlanCondition, PlanCondition];
    expect(eq.needles).toEqual([{ text: '"example.com"', inner: 'example.com' }]);
    expect(eq.span?.kind).toBe('equals');
    // a comparison gives no needle (a number has many spellings) and is decided on an integer's digits
    expect(geq.needles).toBeNull();
    expect(geq.span).toEqual({ kind: 'digits' });
    expect(starts.needles).toEqual([{ text: '"/api', inner: '/api' }]);
    expect(starts.span?.kind === 'startsWith' && text(starts.span.needle)).toBe('/api');
    // a negative operator holds on absent fields: no needle, but its bytes still decide
    expect(notContains.needles).toBeNull();
    expect(notContains.span?.kind === 'contains' && text(notContains.span.needle)).toBe('test');
    expect(inList.needles?.map((n) => n.text)).toEqual(['"a"', '"b"']);
    expect(inList.span?.kind === 'equals' && inList.span.members.map(text)).toEqual(['a', 'b']);
  });

  it('leaves to the decoded value what the bytes cannot decide', () => {
    const one = (operator: string, value: unknown) => conditions(evalPlan({ where: { key: 'k', operator, value } } as FilterDocument).root)[0]!;
    // a numeric string may equal a log number in any spelling; a lone surrogate has no UTF-8 spelling
    for (const c of [one('eq', '30'), one('contains', '\ud800'), one('in', ['a', 1])]) {
      expect(c.span).toBeUndefined();
      expect(c.needles).toBeNull();
    }
    const unknown = one('like', 'x');
    expect(unknown.operator).toBeUndefined();
    expect(unknown.object({ k: 'x' })).toBe(false);
  });

  it('is what the prefilter, the matcher, explain and the scanner are built from', () => {
    expect(needlePlan(plan)).toEqual(needlePlan(FILTER));
    expect(needlePlan(plan).map((c) => c.texts)).toEqual([['"example.com"'], ['"a"', '"b"']]);
    const lines = ['{"host":"example.com","status":503,"tags":["a"]}', '{"host":"example.com","path":"/api/x","tags":["c"]}', '{"host":"example.com","path":"/api","tags":"b"}'];
    const bytes = encoder.encode(lines.join('\n'));
    const fromPlan = createBlockScanner(plan).scan(bytes, 0, bytes.length);
    const fromDoc = createBlockScanner(FILTER).scan(bytes, 0, bytes.length);
    expect([fromPlan.matched, fromDoc.matched]).toEqual([2, 2]);
    const explainer = createExplainer(plan);
    const matcher = createMatcher(FILTER);
    for (const l of lines) expect(explainer.add(JSON.parse(l))).toBe(matcher.test(JSON.parse(l)));
    const report = explainer.report();
    const ids = (n: { id: string; children?: unknown[] }): string[] => [n.id, ...((n.children ?? []) as { id: string }[]).flatMap((c) => ids(c as never))];
    expect(ids(report.root)).toEqual(['/where', '/where/and/0', '/where/and/1', '/where/and/1/or/0', '/where/and/1/or/1', '/where/and/2', '/where/and/3']);
    expect(report.matched).toBe(2);
  });

  it('never holds a node outside the grammar, on every path alike', () => {
    for (const bad of [{ and: null }, { or: 'x' }, {}]) {
      const filter = { where: { or: [bad, { key: 'a', operator: 'eq', value: 1 }] } } as unknown as FilterDocument;
      const root = evalPlan(filter).root;
      expect(root.kind === 'or' && root.children[0]!.kind).toBe('never');
      const bytes = encoder.encode('{"a":2}\n{"a":1}');
      expect(createBlockScanner(filter).scan(bytes, 0, bytes.length).matched).toBe(1);
      expect(createBlockScanner(filter, { kernel: false }).scan(bytes, 0, bytes.length, { validate: true }).matched).toBe(1);
      expect(createMatcher(filter).test({ a: 2 })).toBe(false);
      const ex = createExplainer(filter);
      expect([ex.add({ a: 2 }), ex.add({ a: 1 })]).toEqual([false, true]);
      expect(ex.report().root.children![0]!.held).toBe(0);
    }
  });

  it('is the only module of the evaluator that walks the filter document', () => {
    const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/eval');
    const walkers = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ts') && /\bisCondition\b|'and' in /.test(fs.readFileSync(path.join(dir, f), 'utf8')));
    expect(walkers).toEqual(['plan.ts']);
  });
});
