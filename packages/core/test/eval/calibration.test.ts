/**
 * The scanner's prefilter keeps only selective clauses: a clause most lines satisfy is dropped once a sample of
 * lines (summed across small blocks) has been seen; counts stay exact either way.
 */
import { describe, expect, it } from 'vitest';
import { createBlockScanner } from '../../src/eval/index.js';
import { nodeHooks } from './harness.js';

const enc = new TextEncoder();
const block = (from: number, n: number) =>
  enc.encode(
    Array.from({ length: n }, (_, k) => {
      const i = from + k;
      return JSON.stringify({ h: i % 10 === 0 ? 'rare' : 'common', m: i % 10 === 9 ? 'PUT' : 'GET', s: 200 + (i % 7) });
    }).join('\n') + '\n',
  );

describe('prefilter calibration', () => {
  it('drops clauses that most lines satisfy and keeps selective ones, after a sample summed across blocks', () => {
    const filter = { where: { and: [{ key: 'h', operator: 'eq', value: 'rare' }, { key: 'm', operator: 'in', value: ['GET', 'POST'] }] } } as const;
    const scanner = createBlockScanner(filter as never, nodeHooks);
    let matched = 0;
    // 50-line blocks: no single block is a sample large enough to judge.
    for (let b = 0; b < 10; b++) {
      const bytes = block(b * 50, 50);
      matched += scanner.scan(bytes, 0, bytes.length).matched;
      if (b === 0) expect(scanner.plan().length).toBe(2);
    }
    expect(scanner.plan().map((c) => c.texts)).toEqual([['"rare"']]);
    // Lines 0, 10, 20, ... have h=rare; of those, m is GET unless i % 10 === 9 (never for them).
    expect(matched).toBe(50);
  });

  it('drops every clause when none is selective, and still counts exactly', () => {
    const filter = { where: { key: 'm', operator: 'eq', value: 'GET' } } as const;
    const scanner = createBlockScanner(filter as never, nodeHooks);
    const bytes = block(0, 1000);
    expect(scanner.scan(bytes, 0, bytes.length).matched).toBe(900);
    expect(scanner.plan()).toEqual([]);
    expect(scanner.scan(bytes, 0, bytes.length).matched).toBe(900);
  });

  it('estimates the share of lines the prefilter lets through from a sample of the first lines', () => {
    const bytes = block(0, 1000);
    const rare = createBlockScanner({ where: { key: 'h', operator: 'eq', value: 'rare' } } as never, nodeHooks);
    expect(rare.readShare(bytes, 0, bytes.length)).toBeCloseTo(0.1, 2);
    // the sample ordered and kept the clauses as a first scan would, and the counts are unchanged
    expect(rare.plan().map((c) => c.texts)).toEqual([['"rare"']]);
    expect(rare.scan(bytes, 0, bytes.length).matched).toBe(100);
    // an `and` of a rare clause and a common one: the rarest decides
    const both = createBlockScanner({ where: { and: [{ key: 'm', operator: 'in', value: ['GET', 'POST'] }, { key: 'h', operator: 'eq', value: 'rare' }] } } as never, nodeHooks);
    expect(both.readShare(bytes, 0, bytes.length)).toBeCloseTo(0.1, 2);
    // no clause at all (a negation): every line is read
    const not = createBlockScanner({ where: { key: 'h', operator: '!eq', value: 'rare' } } as never, nodeHooks);
    expect(not.readShare(bytes, 0, bytes.length)).toBe(1);
    // a clause most lines satisfy is dropped by the sample: every line is read
    const common = createBlockScanner({ where: { key: 'm', operator: 'eq', value: 'GET' } } as never, nodeHooks);
    expect(common.readShare(bytes, 0, bytes.length)).toBe(1);
  });
});


describe('the calibration sample', () => {
  it('stops searching a clause once more lines hold it than a full sample allows, and ends when every clause has', () => {
    let searches = 0;
    const counting = { ...nodeHooks, search: (...args: Parameters<typeof nodeHooks.search>) => (searches++, nodeHooks.search(...args)) };
    // h is 'common' on 9 lines in 10, m is GET or PUT on all: both clauses are held by most lines
    const filter = { where: { and: [{ key: 'h', operator: 'eq', value: 'common' }, { key: 'm', operator: 'in', value: ['GET', 'PUT'] }] } } as const;
    const scanner = createBlockScanner(filter as never, counting);
    const bytes = block(0, 1000);
    scanner.readShare(bytes, 0, bytes.length);
    expect(scanner.plan()).toEqual([]);
    // a full sample would search 500 lines for each clause's needles (1 + 2); it ends before 300 lines
    expect(searches).toBeGreaterThan(250);
    expect(searches).toBeLessThan(300 * 3);
    // a selective clause is still sampled in full, and kept
    searches = 0;
    const mixed = createBlockScanner({ where: { and: [{ key: 'h', operator: 'eq', value: 'rare' }, { key: 'm', operator: 'in', value: ['GET', 'PUT'] }] } } as never, counting);
    mixed.readShare(bytes, 0, bytes.length);
    expect(mixed.plan().map((c) => c.texts)).toEqual([['"rare"']]);
    expect(searches).toBeGreaterThanOrEqual(500);
  });
});

describe('a calibration handed to another scanner', () => {
  const filter = { where: { and: [{ key: 's', operator: 'in', value: [200, 201] }, { key: 'h', operator: 'eq', value: 'rare' }, { key: 'm', operator: 'eq', value: 'PUT' }] } } as const;

  it('is undefined before a sample, then the order of the kept clauses as indexes into the needle plan', () => {
    const scanner = createBlockScanner(filter as never, nodeHooks);
    expect(scanner.calibration()).toBeUndefined();
    const bytes = block(0, 600);
    scanner.readShare(bytes, 0, bytes.length);
    const kept = scanner.plan().map((c) => c.texts);
    expect(kept.length).toBeGreaterThan(0);
    const all = createBlockScanner(filter as never, nodeHooks).plan();
    expect(scanner.calibration()!.map((i) => all[i]!.texts)).toEqual(kept);
  });

  it('is taken as is by a new scanner, which then counts as the first does', () => {
    const first = createBlockScanner(filter as never, nodeHooks);
    const bytes = block(0, 3000);
    const want = first.scan(bytes, 0, bytes.length);
    const second = createBlockScanner(filter as never, nodeHooks, first.calibration());
    expect(second.plan()).toEqual(first.plan());
    expect(second.calibration()).toEqual(first.calibration());
    expect(second.scan(bytes, 0, bytes.length)).toEqual(want);
    // an empty order (no clause worth searching) is kept too: every line is read
    const none = createBlockScanner(filter as never, nodeHooks, []);
    expect(none.plan()).toEqual([]);
    expect(none.scan(bytes, 0, bytes.length).matched).toBe(want.matched);
  });

  it('is ignored when it does not fit the filter: the scanner samples lines itself', () => {
    for (const bad of [[7], [-1], [0.5]]) {
      const scanner = createBlockScanner(filter as never, nodeHooks, bad);
      expect(scanner.calibration()).toBeUndefined();
      expect(scanner.plan().length).toBe(createBlockScanner(filter as never, nodeHooks).plan().length);
    }
  });
});
