/** The pinned verdicts (exact-cases.ts) on DuckDB, in `npm test`; ClickHouse runs them in `npm run test:engines`. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuckDb, type Engine } from './engines.js';
import { runEngine } from './differential.js';
import { PINNED } from './exact-cases.js';

describe('DuckDB gives the pinned verdicts', () => {
  let duck: Engine;
  beforeAll(async () => {
    duck = await openDuckDb();
  });
  afterAll(async () => duck?.close());
  it('exact integers, numeric strings, absent and null fields, empty strings, escapes', async () => {
    const got = await Promise.all(PINNED.map((p, i) => runEngine([{ name: `#${i}`, json: p.filter, dataset: 'http_requests' }], [p.line], duck)));
    expect(got.map((g, i) => ({ ...PINNED[i], matches: g[0]![0] }))).toEqual(PINNED);
  });
});
