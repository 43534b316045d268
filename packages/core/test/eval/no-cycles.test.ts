/** The evaluator's modules form no import circle, not even through type-only imports. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/eval');

it('core/src/eval has no import cycles', () => {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    const deps = [...text.matchAll(/\bfrom\s+'\.\/([\w-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
    edges.set(f, deps);
  }
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, trail: string[]) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(f)), f].join(' → '));
      return;
    }
    state.set(f, 'open');
    for (const d of edges.get(f) ?? []) visit(d, [...trail, f]);
    state.set(f, 'done');
  };
  for (const f of files) visit(f, []);
  expect(files.length).toBeGreaterThan(5);
  expect(cycles).toEqual([]);
});
