import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, relative, resolve } from 'node:path';

// No two modules of api/src import each other, even for types: a cycle makes the order of module start-up matter
// and hides what depends on what (the client once imported page-guard.ts, which imported the client back).
const src = fileURLToPath(new URL('../src/', import.meta.url));
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.split('\\').join('/'));
const imports = new Map(
  files.map((f) => {
    const text = readFileSync(join(src, f), 'utf8');
    const targets = [...text.matchAll(/from '(\.{1,2}\/[\w./-]+)\.js'/g)].map((m) => relative(src, resolve(dirname(join(src, f)), `${m[1]}.ts`)).split('\\').join('/'));
    return [f, targets] as const;
  }),
);

describe('api/src structure', () => {
  it('reads the imports of every module (the check below sees them all)', () => {
    expect(imports.get('client.ts')).toContain('errors.ts');
    expect(imports.get('page-guard.ts')).toContain('page-guard/tables.ts');
    for (const targets of imports.values()) for (const t of targets) expect(files).toContain(t);
  });

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
});
