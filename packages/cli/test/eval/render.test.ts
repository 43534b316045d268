import { describe, expect, it } from 'vitest';
import { renderExplain, renderSummary } from '../../src/eval/render.js';
import type { EvalResult } from '../../src/eval/types.js';

// The one place that checks wording on purpose: the nouns agree with their counts ("1 line", "2 lines").
const result = (over: Partial<EvalResult>): EvalResult =>
  ({ total: 0, matched: 0, malformed: 0, bytes: 0, seconds: 0, validated: true, malformedLines: [], errors: [], missingFields: [], ...over }) as EvalResult;

describe('summary wording', () => {
  it('says "1 line" for one and "N lines" otherwise', () => {
    expect(renderSummary(result({ total: 1, matched: 1 }))).toMatch(/^1 line, 1 matched/);
    expect(renderSummary(result({ total: 2 }))).toMatch(/^2 lines, 0 matched/);
    expect(renderSummary(result({ total: 0 }))).toMatch(/^0 lines, /);
  });
  it('counts the unlisted malformed lines the same way', () => {
    const listed = [{ file: 'a', line: 1 }];
    expect(renderSummary(result({ total: 3, malformed: 2, malformedLines: listed as EvalResult['malformedLines'] }))).toContain('(1 more malformed line not listed)');
    expect(renderSummary(result({ total: 3, malformed: 3, malformedLines: listed as EvalResult['malformedLines'] }))).toContain('(2 more malformed lines not listed)');
  });
  it('explain says "1 JSON line" and "(1 line, id)"', () => {
    const root = { id: 'n0', kind: 'condition', key: 'A', operator: 'eq', value: 1, held: 0, rejected: 1, evaluated: 1 };
    const out = renderExplain({ root, matched: 0, evaluated: 1, mostRejecting: { id: 'n0', rejected: 1 } } as never);
    expect(out).toContain('0 of 1 JSON line matched');
    expect(out).toContain('(1 line, n0)');
  });
});
