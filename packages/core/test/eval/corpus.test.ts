/** The real log lines of the shared corpus, under the corpus's own filters and a few written for them. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS } from '../../../../test/support/paths.js';
import { OPERATOR_BY_NAME } from '../../src/filter/operators.js';
import { refCounts } from './reference.js';
import { linePaths, scanPath } from './harness.js';

const LOGS = ['http_requests_samples.ndjson', 'http_requests_samples_converted.ndjson', 'firewall_events_samples.ndjson', 'dns_logs_samples.ndjson'];

/** A filter node whose operators and shapes are all valid (the corpus also holds broken filters on purpose). */
function valid(n: any): boolean {
  if (!n || typeof n !== 'object' || Object.keys(n).length !== (typeof n.key === 'string' ? 3 : 1)) return false;
  if (n && Array.isArray(n.and)) return n.and.length > 0 && n.and.every(valid);
  if (n && Array.isArray(n.or)) return n.or.length > 0 && n.or.every(valid);
  return !!n && typeof n.key === 'string' && OPERATOR_BY_NAME.has(n.operator) && n.value !== undefined && n.value !== null;
}

const corpusFilters = fs
  .readFileSync(path.join(CORPUS, 'filters.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l).filter)
  .map((f) => (f && f.where ? f : f && f.key ? { where: f } : null))
  .filter((f) => f && valid(f.where));

const ours = [
  { where: { key: 'ClientRequestHost', operator: 'eq', value: 'xyz.example.com' } },
  { where: { and: [{ key: 'EdgeResponseStatus', operator: 'geq', value: 200 }, { key: 'ClientCountry', operator: 'in', value: ['sa', 'us', 'gb'] }] } },
  { where: { or: [{ key: 'BotTags', operator: 'contains', value: 'bing' }, { key: 'BotScore', operator: 'lt', value: '30' }] } },
  { where: { and: [{ key: 'ClientRequestPath', operator: '!startsWith', value: '/xyz' }, { key: 'ClientRequestURI', operator: 'contains', value: '/api/' }] } },
  { where: { key: 'ClientRequestReferer', operator: 'contains', value: 'timerange=' } },
  { where: { key: 'QueryName', operator: 'endsWith', value: '.com' } },
  { where: { key: 'Action', operator: '!in', value: ['block', 'challenge'] } },
];

describe('the shared corpus', () => {
  const filters = [...corpusFilters, ...ours];
  it('has filters to run', () => {
    expect(corpusFilters.length).toBeGreaterThan(10);
  });
  for (const file of LOGS) {
    const text = fs.readFileSync(path.join(CORPUS, file), 'utf8');
    const bytes = new TextEncoder().encode(text);
    it(`${file}: every path agrees with the reference on ${filters.length} filters`, () => {
      let matchedSomewhere = 0;
      for (const f of filters) {
        const ref = refCounts(f, text);
        matchedSomewhere += ref.matched;
        expect(ref.malformed).toBe(0);
        expect(scanPath(f, bytes, { node: true }), JSON.stringify(f)).toEqual(ref);
        expect(scanPath(f, bytes, { validate: true })).toEqual(ref);
        expect(linePaths(f, text).object).toEqual(ref);
      }
      expect(matchedSomewhere).toBeGreaterThan(0);
    }, 120_000);
  }
});
