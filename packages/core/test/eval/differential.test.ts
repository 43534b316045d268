import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterDoc, logLine } from './arbitraries.js';
import { refCounts } from './reference.js';
import { linePaths, scanPath } from './harness.js';

const encoder = new TextEncoder();

describe('every evaluation path agrees with the reference evaluator', () => {
  it('on random filters over random log lines', () => {
    fc.assert(
      fc.property(filterDoc, fc.array(logLine, { maxLength: 12 }), fc.integer({ min: 1, max: 3 }), (filter, lines, blocks) => {
        const text = lines.join('\n');
        const bytes = encoder.encode(text);
        const ref = refCounts(filter, text);
        const { object, line, explain } = linePaths(filter, text);
        for (const r of [object, line, explain]) expect(r).toEqual(ref);
        // The raw shortcut: exact total and matches; malformed only counts the lines it read.
        // With the WebAssembly kernel and without it (the path taken where WebAssembly is unavailable).
        for (const node of [false, true]) {
          for (const kernel of [true, false]) {
            const fast = scanPath(filter, bytes, { node, blocks, kernel });
            expect(fast.total).toBe(ref.total);
            expect(fast.matches).toEqual(ref.matches);
            expect(fast.matched).toBe(ref.matched);
            expect(fast.malformed).toBeLessThanOrEqual(ref.malformed);
            expect(scanPath(filter, bytes, { node, blocks, kernel, validate: true })).toEqual(ref);
          }
        }
      }),
      { numRuns: 250 },
    );
  }, 120_000);

  it('when the filter reads values that the lines spell with escapes', () => {
    // Lines built from the filter's own values, so matches are frequent and the shortcut is really tested.
    const arb = filterDoc.chain((filter) => {
      const values: unknown[] = [];
      const walk = (n: any): void => {
        if (n.and) n.and.forEach(walk);
        else if (n.or) n.or.forEach(walk);
        else values.push(n.value, ...(Array.isArray(n.value) ? n.value : [n.value]));
      };
      walk(filter.where);
      const keys: string[] = [];
      const walkKeys = (n: any): void => (n.and ?? n.or ? (n.and ?? n.or).forEach(walkKeys) : void keys.push(n.key));
      walkKeys(filter.where);
      const line = fc
        .record({
          pairs: fc.array(fc.tuple(fc.constantFrom(...keys), fc.constantFrom(...values), fc.boolean()), { maxLength: 4 }),
          esc: fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
        })
        .map(({ pairs, esc }) => {
          let k = 0;
          const enc = (s: string) =>
            '"' + [...s].map((ch) => (esc[k++ % esc.length] || ch === '"' || ch === '\\' || ch < ' ' ? '\\u' + ch.charCodeAt(0).toString(16).padStart(4, '0') : ch)).join('') + '"';
          const val = (v: unknown, wrap: boolean): string => {
            // a bigint (an integer beyond 2^53) is written as its digits, also inside a list
            const json = (x: unknown): string => (Array.isArray(x) ? `[${x.map(json).join(',')}]` : typeof x === 'bigint' ? String(x) : JSON.stringify(x));
            const t = typeof v === 'string' ? enc(v) : json(v);
            return wrap ? `[${t}]` : t;
          };
          return '{' + pairs.map(([key, v, wrap]) => `${enc(key)}:${val(v, wrap)}`).join(',') + '}';
        });
      return fc.tuple(fc.constant(filter), fc.array(line, { maxLength: 8 }));
    });
    fc.assert(
      fc.property(arb, ([filter, lines]) => {
        const text = lines.join('\n');
        const ref = refCounts(filter, text);
        for (const kernel of [true, false]) {
          const fast = scanPath(filter, encoder.encode(text), { node: true, kernel });
          expect(fast.matches).toEqual(ref.matches);
          expect(fast.total).toBe(ref.total);
        }
        expect(linePaths(filter, text).line).toEqual(ref);
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
