/**
 * The fast slice of the engine differential tests that `npm test` runs: DuckDB (a dev dependency) against the
 * built-in evaluator on the conformance cases and the corpus filters over the real lines, and on 150 generated
 * filters over 150 generated lines. The full run, with ClickHouse, is `npm run test:engines`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDb, type Engine } from './engines.js';
import { conformanceCases, corpusCases, realLines } from './cases.js';
import { differential, describeMismatches } from './differential.js';
import { generators, SAFE } from './generators.js';

describe('DuckDB runs the generated SQL with the evaluator’s verdict on every line', () => {
  let duck: Engine;
  beforeAll(async () => {
    duck = await openDuckDb();
  });
  afterAll(async () => duck?.close());

  it('conformance cases and corpus filters on the real lines', async () => {
    const ms = await differential([...conformanceCases(), ...corpusCases()], realLines('http_requests'), [duck]);
    expect(ms, describeMismatches(ms)).toEqual([]);
  });

  it('generated filters on generated lines', async () => {
    const g = generators(SAFE);
    const filters = fc.sample(g.filterJson, { numRuns: 150, seed: 7 }).map((json, i) => ({ name: `generated #${i}: ${json}`, json, dataset: 'http_requests' }));
    const ms = await differential(filters, fc.sample(g.logLine, { numRuns: 150, seed: 8 }), [duck]);
    expect(ms, describeMismatches(ms)).toEqual([]);
  });
});
