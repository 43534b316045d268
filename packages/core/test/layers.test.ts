/**
 * The core's layers, read from its import statements (type-only imports included): no import cycles, each
 * folder imports only the layers below it (`check/` checks, `compile/` compiles, `entry/` puts them together),
 * and nothing does I/O.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

/** Module specifiers of `import … from`, `export … from` and `import '…'` statements. */
function specifiers(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/^\s*(?:(?:import|export)\b[^;'"]*?\bfrom\s*|import\s*)['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

const files = sources(SRC);
const rel = (f: string) => path.relative(SRC, f).split(path.sep).join('/');
const graph = new Map<string, string[]>();
const external = new Map<string, string[]>();
for (const f of files) {
  const specs = specifiers(readFileSync(f, 'utf8'));
  graph.set(
    rel(f),
    specs.filter((s) => s.startsWith('.')).map((s) => rel(path.resolve(path.dirname(f), s.replace(/\.js$/, '.ts')))),
  );
  external.set(rel(f), specs.filter((s) => !s.startsWith('.')));
}
const folder = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : f.replace(/\.ts$/, ''));

/** Strongly connected components with more than one file (Tarjan). */
function cycles(): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || graph.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return out;
}

/** Folders each folder must not import from. */
const FORBIDDEN: Record<string, string[]> = {
  util: ['syntax', 'check', 'compile', 'format', 'json', 'entry', 'eval', 'completion', 'hover', 'highlight', 'refactor'],
  syntax: ['check', 'compile', 'format', 'json', 'entry', 'eval', 'completion'],
  compile: ['check', 'format', 'json', 'entry', 'completion', 'syntax'],
  check: ['format', 'json', 'entry', 'completion', 'eval'],
  json: ['check', 'compile', 'format', 'entry', 'completion'],
  format: ['check', 'compile', 'json', 'entry', 'completion'],
  eval: ['syntax', 'check', 'compile', 'format', 'json', 'entry', 'completion'],
  completion: ['entry', 'format', 'json', 'compile'],
};

describe('core layers', () => {
  it('reads the imports of every source file', () => {
    expect(graph.size).toBeGreaterThan(40);
    expect(graph.get('filter/entry/compile.ts')).toContain('filter/entry/analyze.ts');
  });

  it('has no import cycles', () => {
    expect(cycles()).toEqual([]);
  });

  it('imports only downwards: nothing imports entry/ but the index, compile/ never imports check/', () => {
    const wrong: string[] = [];
    for (const [f, deps] of graph) {
      for (const d of deps) {
        const from = folder(f);
        const to = folder(d);
        if (from === to) continue;
        if (to === 'entry' && f !== 'index.ts') wrong.push(`${f} → ${d}`);
        if (FORBIDDEN[from]?.includes(to)) wrong.push(`${f} → ${d}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('does no I/O: no Node built-ins, only its declared libraries', () => {
    const pkg = JSON.parse(readFileSync(path.join(SRC, '..', 'package.json'), 'utf8'));
    const allowed = new Set(Object.keys(pkg.dependencies ?? {}));
    const wrong = [...external].flatMap(([f, specs]) => specs.filter((s) => !allowed.has(s.split('/')[0]!)).map((s) => `${f}: ${s}`));
    expect(wrong).toEqual([]);
  });
});
