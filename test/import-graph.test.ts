/**
 * No package has import cycles, type-only and dynamic imports included (support/import-graph.ts reads them):
 * a cycle makes the order of module start-up matter and hides what depends on what. The core's layers are
 * checked in packages/core/test/layers.test.ts with the same reader.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cycles, forbiddenImports, importGraph, specifiers } from './support/import-graph.js';
import { REPO } from './support/paths.js';

// The packages written in TypeScript (native-inflate's source is C).
const PACKAGES = readdirSync(path.join(REPO, 'packages'))
  .filter((p) => readdirSync(path.join(REPO, 'packages', p, 'src'), { recursive: true }).some((f) => /\.tsx?$/.test(String(f))))
  .sort();

describe('the import-graph reader', () => {
  it('reads static, type-only, re-exported, side-effect and dynamic imports, not those in comments', () => {
    const text = [
      "import { a } from './a.js';",
      "import type { B } from './b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "import './e.js';",
      "const f = await import('./f.js');",
      "// import { g } from './g.js';",
      "/* import { h } from './h.js'; */",
      "const glob = 'src/**/*.ts'; const i = await import('./i.js');",
      "import {",
      "  j,",
      "} from 'chevrotain';",
    ].join('\n');
    expect(specifiers(text)).toEqual(['./a.js', './b.js', './c.js', './d.js', './e.js', './f.js', './i.js', 'chevrotain']);
  });

  it('finds every cycle, and only cycles', () => {
    const g = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts', 'd.ts']],
      ['d.ts', []],
      ['e.ts', ['e.ts']],
      ['f.ts', ['d.ts', 'outside.ts']],
    ]);
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts'], ['e.ts']]);
    expect(cycles(new Map([['x.ts', ['y.ts']], ['y.ts', []]]))).toEqual([]);
  });

  it('names the imports that cross layers they must not, and files in no layer', () => {
    const g = new Map([
      ['low/a.ts', []],
      ['high/b.ts', ['low/a.ts']],
      ['low/c.ts', ['high/b.ts']],
      ['stray.ts', []],
    ]);
    const layer = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : undefined);
    expect(forbiddenImports(g, layer, { low: [], high: ['low'] })).toEqual(['low/c.ts → high/b.ts', 'stray.ts: in no layer']);
  });

  it('reads every package', () => {
    expect(PACKAGES).toEqual(expect.arrayContaining(['api', 'cli', 'core', 'emulator', 'language-server', 'playground', 'vscode']));
    const cli = importGraph(path.join(REPO, 'packages/cli/src'));
    expect(cli.imports.get('commands/eval.ts')).toContain('commands/eval-duckdb.ts'); // a dynamic import
    expect(cli.packages.get('commands/eval.ts')).toContain('@logfilter/core');
    // sub-folders too: the api's page-guard module and its tables (they once formed a cycle with the client)
    const api = importGraph(path.join(REPO, 'packages/api/src'));
    expect(api.imports.get('page-guard.ts')).toContain('page-guard/tables.ts');
    expect(api.imports.get('client.ts')).toContain('errors.ts');
  });
});

describe.each(PACKAGES)('packages/%s', (pkg) => {
  it('has no import cycles', () => {
    const graph = importGraph(path.join(REPO, 'packages', pkg, 'src'));
    expect(graph.imports.size).toBeGreaterThan(0);
    expect(cycles(graph.imports)).toEqual([]);
  });
});
