// The extension's NDJSON streaming over the core explainer: counts and explain values (docs/language.md#evaluation).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { evaluateNdjson } from '../src/evaluate-ndjson.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'lf-eval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const filter = {
  where: {
    and: [
      { key: 'ClientRequestHost', operator: 'eq' as const, value: 'api.example.com' },
      { key: 'EdgeResponseStatus', operator: 'geq' as const, value: 500 },
    ],
  },
};

function file(name: string, lines: string[]): string {
  const p = path.join(dir, name);
  writeFileSync(p, lines.join('\n'));
  return p;
}

describe('evaluateNdjson', () => {
  it('counts non-blank lines, matches and malformed lines, and explains each condition', async () => {
    const p = file('a.ndjson', [
      '{"ClientRequestHost":"api.example.com","EdgeResponseStatus":502}',
      '{"ClientRequestHost":"api.example.com","EdgeResponseStatus":200}\r',
      '',
      '{"ClientRequestHost":"www.example.com","EdgeResponseStatus":503}',
      'not json',
      '{"ClientRequestHost":"api.example.com","EdgeResponseStatus":"500"}',
      '[1,2]',
    ]);
    const r = (await evaluateNdjson(filter, p))!;
    expect({ total: r.total, matched: r.matched, malformed: r.malformed, first: r.firstMalformedLine }).toEqual({ total: 6, matched: 2, malformed: 2, first: 5 });
    expect(r.report.evaluated).toBe(4);
    const [host, status] = r.report.root.children!;
    expect([host!.held, host!.rejected, status!.held, status!.rejected]).toEqual([3, 1, 3, 1]);
  });

  it('stops when cancelled', async () => {
    const p = file('b.ndjson', ['{"a":1}', '{"a":2}']);
    expect(await evaluateNdjson(filter, p, () => true)).toBeUndefined();
  });

  it('rejects a missing file', async () => {
    await expect(evaluateNdjson(filter, path.join(dir, 'missing.ndjson'))).rejects.toThrow();
  });
});
