import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { importGraph } from '../../../test/support/import-graph.js';

// The emulator's layering: areas depend on the shared parts, never the reverse. No two modules import each
// other, even for types: the repository's import-graph test (test/import-graph.test.ts) checks that of every
// package with the same reader.
const src = fileURLToPath(new URL('../src/', import.meta.url));
const { imports } = importGraph(src);

describe('emulator/src structure', () => {
  it('lets no shared module import an area: the server learns the areas from areas.ts alone', () => {
    const areas = ['rulesets-area.ts', 'jobs-area.ts', 'migration.ts', 'waf-legacy.ts', 'page-guard.ts'];
    for (const shared of ['server.ts', 'routing.ts', 'fixture.ts', 'state.ts', 'errors.ts']) {
      expect([shared, (imports.get(shared) ?? []).filter((f) => areas.includes(f))]).toEqual([shared, []]);
    }
  });

  it('uses no one-letter names in the server', () => {
    const text = readFileSync(join(src, 'server.ts'), 'utf8');
    const oneLetter = [...text.matchAll(/\b(?:const|let|var)\s+([A-Za-z])\b|\(([A-Za-z])\)\s*=>|catch\s*\(([A-Za-z])\)|\b([A-Za-z])\s*=>/g)].map((m) => m[0]);
    expect(oneLetter).toEqual([]);
  });
});
