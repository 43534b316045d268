/**
 * The core's house, read from its import statements (test/support/import-graph.ts; type-only and dynamic
 * imports included): `lang/` is what both languages share and imports nothing else; the filter language
 * (`filter/`) and the rules language (`rules/`) stand on `lang/` and on nothing of each other; the
 * evaluator (`eval/`) and the SQL back end (`sql/`) stand on the filter language; only the entry points
 * (`index.ts`, and `codes.ts`, the table of both languages' codes) see everything. Inside `filter/`, each
 * folder imports only the folders below it (`check/` checks, `compile/` compiles, `entry/` puts them
 * together). Nothing does I/O, and what is defined once stays defined once.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, forbiddenImports, importGraph } from '../../../test/support/import-graph.js';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const { imports, packages } = importGraph(SRC);

/** A file's layer: its top folder, or the root file's name. */
const layer = (f: string) => (f.includes('/') ? f.slice(0, f.indexOf('/')) : f.replace(/\.ts$/, ''));

/** What each layer may import besides itself. */
const LAYERS: Record<string, string[]> = {
  lang: [],
  filter: ['lang'],
  rules: ['lang'],
  eval: ['filter', 'lang'],
  sql: ['filter', 'lang'],
  codes: ['filter', 'rules', 'lang'],
  index: ['*'],
};

/** Inside filter/: a folder (or root file) → the folders it must not import. */
const FILTER_FORBIDDEN: Record<string, string[]> = {
  util: ['syntax', 'check', 'compile', 'format', 'json', 'entry', 'completion', 'hover', 'highlight', 'refactor'],
  syntax: ['check', 'compile', 'format', 'json', 'entry', 'completion'],
  compile: ['check', 'format', 'json', 'entry', 'completion', 'syntax'],
  check: ['format', 'json', 'entry', 'completion'],
  json: ['check', 'compile', 'format', 'entry', 'completion'],
  format: ['check', 'compile', 'json', 'entry', 'completion'],
  completion: ['entry', 'format', 'json', 'compile'],
};

/** The filter's folders the evaluator must not use: it works on filter documents, not on text or trees. */
const EVAL_FORBIDDEN = ['syntax', 'check', 'compile', 'format', 'json', 'entry', 'completion'];

const filterFolder = (f: string) => {
  const rest = f.slice('filter/'.length);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : rest.replace(/\.ts$/, '');
};

describe('core layers', () => {
  it('reads the imports of every source file', () => {
    expect(imports.size).toBeGreaterThan(40);
    expect(imports.get('filter/entry/compile.ts')).toContain('filter/entry/analyze.ts');
    expect(imports.get('rules/parse.ts')).toContain('lang/chevrotain.ts');
  });

  it('has no import cycles', () => {
    expect(cycles(imports)).toEqual([]);
  });

  it('stands lang/ under both languages, each on nothing of the other, eval/ and sql/ on the filter', () => {
    expect(forbiddenImports(imports, layer, LAYERS)).toEqual([]);
  });

  it('imports only downwards inside filter/: nothing imports entry/ but the index, compile/ never imports check/', () => {
    const wrong: string[] = [];
    for (const [f, deps] of imports) {
      for (const d of deps) {
        if (!d.startsWith('filter/')) continue;
        const to = filterFolder(d);
        if (to === 'entry' && f !== 'index.ts' && !f.startsWith('filter/entry/')) wrong.push(`${f} → ${d}`);
        if (f.startsWith('filter/')) {
          const from = filterFolder(f);
          if (from !== to && FILTER_FORBIDDEN[from]?.includes(to)) wrong.push(`${f} → ${d}`);
        }
        if (f.startsWith('eval/') && EVAL_FORBIDDEN.includes(to)) wrong.push(`${f} → ${d}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('does no I/O: no Node built-ins, only its declared libraries', () => {
    const pkg = JSON.parse(readFileSync(path.join(SRC, '..', 'package.json'), 'utf8'));
    const allowed = new Set(Object.keys(pkg.dependencies ?? {}));
    const wrong = [...packages].flatMap(([f, specs]) => specs.filter((s) => !allowed.has(s.split('/')[0]!)).map((s) => `${f}: ${s}`));
    expect(wrong).toEqual([]);
  });
});

describe('defined once', () => {
  const all = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  const files = all(SRC).map((f) => ({ file: path.relative(SRC, f).split(path.sep).join('/'), text: readFileSync(f, 'utf8') }));

  it('the JSON-number grammar: only lang/json-number.ts spells it', () => {
    const spelled = files.filter((f) => f.text.includes('(?:0|[1-9][0-9]*)')).map((f) => f.file);
    expect(spelled).toEqual(['lang/json-number.ts']);
  });

  it('the default dataset: sql/ names it only through DEFAULT_DATASET', () => {
    expect(files.filter((f) => f.file.startsWith('sql/') && /['"]http_requests['"]/.test(f.text)).map((f) => f.file)).toEqual([]);
  });

  it('syntax errors are worded from token data: no parser reads Chevrotain\'s message text', () => {
    expect(files.filter((f) => /\.message\)|-->/.test(f.text) && /chevrotain/.test(f.text) && f.file !== 'lang/chevrotain.ts').map((f) => f.file)).toEqual([]);
  });
});
