import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

// The emulator's layering: areas depend on the shared parts, never the reverse, and no two modules import each
// other, even for types (a cycle makes the order of module start-up matter and hides what depends on what).
const src = fileURLToPath(new URL('../src/', import.meta.url));
const files = readdirSync(src).filter((f) => f.endsWith('.ts'));
const imports = new Map(
  files.map((f) => [f, [...readFileSync(join(src, f), 'utf8').matchAll(/from '\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`)] as const),
);

describe('emulator/src structure', () => {
  it('has no import cycle, type imports included', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'visiting' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'visiting') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      state.set(file, 'visiting');
      for (const next of imports.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  it('lets no shared module import an area: the server learns the areas from areas.ts alone', () => {
    const areas = ['rulesets-area.ts', 'jobs-area.ts', 'migration.ts', 'waf-legacy.ts'];
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
