/**
 * No import cycles among the server's modules, type-only imports included: the pure tasks that run in
 * the worker must not reach back into the handlers, which need the server's context.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/** Relative imports of every module (`import …`, `import type …`, `export … from`), by file name. */
function graph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of readdirSync(SRC).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(path.join(SRC, f), 'utf8');
    const deps = [...text.matchAll(/(?:import|export)\s[^;]*?from\s+'\.\/([\w.-]+)\.js'/g)].map((m) => `${m[1]}.ts`);
    g.set(f, deps);
  }
  return g;
}

/** Every cycle, each as the path that closes it. */
function cycles(g: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of g.get(n) ?? []) {
      if (state.get(d) === 'open') found.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of g.keys()) if (!state.has(n)) visit(n);
  return found;
}

describe('language-server/src imports', () => {
  it('reads the import graph (a sanity check of the reader)', () => {
    const g = graph();
    expect(g.get('server.ts')).toContain('runner.ts');
    expect(g.get('runner.ts')).toContain('tasks.ts');
    expect(cycles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]]))).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });

  it('has no cycles, type-only imports included', () => {
    expect(cycles(graph())).toEqual([]);
  });
});
