/**
 * What the start-up of `compile-filter` and `logfilter eval` leaves out or does faster (bench/startup.bench.mjs
 * measures it): checked on the bundles `npm run build` writes, since that is what users start, and on the
 * patches the bundler applies to third-party code (scripts/bundle-patches.mjs).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { compile } from '@logfilter/core';
import { REPO } from '../../../test/support/paths.js';
import { applyPatches, CHAR_CODE_TABLE_FILL, CHAR_CODE_TABLE_ORIGINAL, REFERENCE_IMPORT, REFERENCE_IMPORT_TYPE, REFERENCE_LOAD, REFERENCE_LOAD_LAZY } from '../../../scripts/bundle-patches.mjs';
import { tempDir, write } from './eval/support.js';

const bundle = (name: string) => fs.readFileSync(path.join(REPO, 'packages/cli/dist', name), 'utf8');
/** A constant of the `yaml` library's own code (its core schema's tag prefix). */
const YAML_LIBRARY = 'tag:yaml.org,2002:';

describe('start-up bundles', () => {
  it('leave the YAML library out of compile-filter and eval (only -o yaml and YAML inputs of the API commands use it)', () => {
    expect(bundle('compile-filter.cjs')).not.toContain(YAML_LIBRARY);
    expect(bundle('logfilter-eval.cjs')).not.toContain(YAML_LIBRARY);
    // the full CLI has it, so the marker does tell
    expect(bundle('logfilter.cjs')).toContain(YAML_LIBRARY);
  });
});

describe('the reference parser apart', () => {
  it('is left out of compile-filter and eval, which require filter-parser.cjs beside them on first use', () => {
    // Chevrotain's lexer (its char-code table, patched) and a constant of its parser
    for (const marker of ['new Uint16Array(65536)', 'NotAllInputParsedException']) {
      expect(bundle('compile-filter.cjs')).not.toContain(marker);
      expect(bundle('logfilter-eval.cjs')).not.toContain(marker);
      expect(bundle('filter-parser.cjs')).toContain(marker);
    }
    expect(bundle('compile-filter.cjs')).toContain('require("./filter-parser.cjs")');
    expect(bundle('logfilter-eval.cjs')).toContain('require("./filter-parser.cjs")');
    // the full CLI keeps it inside (its rules language uses Chevrotain anyway)
    expect(bundle('logfilter.cjs')).toContain('NotAllInputParsedException');
  });
});

describe("Chevrotain on the start-up path", () => {
  /**
   * Counts the Chevrotain lexers built: the first one builds its 65536-entry char-code table (the bundle patch
   * above makes it a Uint16Array), and the reference parser always lexes before it parses.
   */
  const probe = (dir: string) =>
    write(dir, 'probe.cjs', "const Real = Uint16Array; let n = 0; globalThis.Uint16Array = new Proxy(Real, { construct(t, a, nt) { if (a[0] === 65536) n++; return Reflect.construct(t, a, nt); } }); process.on('exit', () => process.stderr.write('\\nchevrotain-lexers:' + n + '\\n'));");

  it('is not built by compile-filter or eval for a valid filter, and is for one with a syntax error (same diagnostics)', () => {
    const dir = tempDir();
    probe(dir);
    write(dir, 'good.logfilter', 'dataset http_requests\n# hosts\nClientRequestHost in ["a", "b"] and not EdgeResponseStatus >= 500\n');
    write(dir, 'bad.logfilter', 'ClientRequestHost == "a" and\n');
    write(dir, 'l.ndjson', '{"ClientRequestHost":"a","EdgeResponseStatus":200}\n');
    const run = (bin: string, args: string[]) => {
      const r = spawnSync(process.execPath, ['-r', './probe.cjs', path.join(REPO, 'packages/cli/bin', bin), ...args], { cwd: dir, env: { ...process.env, LOGFILTER_NO_CODE_CACHE: '1' } });
      const built = /chevrotain-lexers:(\d+)/.exec(r.stderr.toString());
      return { status: r.status, lexers: Number(built?.[1]), stdout: r.stdout.toString(), stderr: r.stderr.toString() };
    };
    const good = run('compile-filter.cjs', ['good.logfilter']);
    expect([good.status, good.lexers]).toEqual([0, 0]);
    expect(JSON.parse(good.stdout)).toEqual(JSON.parse(compile('dataset http_requests\nClientRequestHost in ["a", "b"] and not EdgeResponseStatus >= 500\n').json!));
    const goodEval = run('logfilter.cjs', ['eval', 'good.logfilter', 'l.ndjson']);
    expect([goodEval.status, goodEval.lexers]).toEqual([0, 0]);
    const bad = run('compile-filter.cjs', ['bad.logfilter', '--diagnostics', 'json']);
    expect([bad.status, bad.lexers]).toEqual([1, 1]);
    const diagnostics = JSON.parse(bad.stderr.replace(/\nchevrotain-lexers:\d+\n$/, '')) as { code: string; range: { start: { offset: number } } }[];
    expect(diagnostics.map((d) => [d.code, d.range.start.offset])).toEqual(compile('ClientRequestHost == "a" and\n').diagnostics.map((d) => [d.code, d.start]));
    const badEval = run('logfilter.cjs', ['eval', 'bad.logfilter', 'l.ndjson']);
    expect(badEval.status).not.toBe(0);
    expect(badEval.lexers).toBe(1);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('code cache', () => {
  it('is written by a run that did its command, not by --help, --version, a usage error or an eval of a filter with errors (it keeps what the first writer compiled)', () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientRequestHost == "a"\n');
    write(dir, 'bad.logfilter', 'ClientRequestHost ==\n');
    write(dir, 'l.ndjson', '{"ClientRequestHost":"a"}\n');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    const caches = (bundle: string) => (fs.existsSync(path.join(dir, 'cache/logfilter')) ? fs.readdirSync(path.join(dir, 'cache/logfilter')).filter((f) => f.startsWith(bundle)) : []);
    const run = (bin: string, args: string[]) => spawnSync(process.execPath, [path.join(REPO, 'packages/cli/bin', bin), ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).status;
    for (const [bin, bundle, pre, work] of [
      ['compile-filter.cjs', 'compile-filter.cjs-', [], ['f.logfilter']],
      ['logfilter.cjs', 'logfilter-eval.cjs-', ['eval'], ['f.logfilter', 'l.ndjson']],
    ] as const) {
      expect(run(bin, [...pre, '--help'])).toBe(0);
      expect(run(bin, [...pre, '-V'])).toBe(0);
      expect(run(bin, [...pre, '--no-such-option', ...work])).toBe(2);
      expect(caches(bundle)).toEqual([]);
      // eval of a filter with errors (exit 1) never reaches the evaluator: no cache from it either
      if (bin === 'logfilter.cjs') {
        expect(run(bin, [...pre, 'bad.logfilter', 'l.ndjson'])).toBe(1);
        expect(caches(bundle)).toEqual([]);
      }
      expect(run(bin, [...pre, ...work])).toBe(0);
      const written = caches(bundle);
      expect(written).toHaveLength(1);
      const ino = fs.statSync(path.join(dir, 'cache/logfilter', written[0]!)).ino;
      // used from then on, and not written again
      expect(run(bin, [...pre, '--help'])).toBe(0);
      expect(run(bin, [...pre, ...work])).toBe(0);
      expect(caches(bundle)).toEqual(written);
      expect(fs.statSync(path.join(dir, 'cache/logfilter', written[0]!)).ino).toBe(ino);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('the loader in bin/compile-filter.cjs', () => {
  it('starts compile-filter when run, and only gives its loader when required (as logfilter eval does)', () => {
    const bin = path.join(REPO, 'packages/cli/bin/compile-filter.cjs');
    const required = spawnSync(process.execPath, ['-e', `const l = require(${JSON.stringify(bin)}); process.stdout.write(Object.keys(l).sort().join(','))`], { input: 'h == "a"\n' });
    expect([required.status, required.stdout.toString(), required.stderr.toString()]).toEqual([0, 'didWork,installPrefix,load', '']);
    const run = spawnSync(process.execPath, [bin, '--dataset', 'any', '-'], { input: 'h == "a"\n' });
    expect([run.status, JSON.parse(run.stdout.toString())]).toEqual([0, { where: { key: 'h', operator: 'eq', value: 'a' } }]);
  });

  it.each(['compile-filter.cjs', 'logfilter-eval.cjs'])('leaves the JSON Schema object out of %s (the generated validator is what runs)', (name) => {
    // FILTER_DOCUMENT_SCHEMA's $id: built by a pure call, dropped by the bundler where nothing reads it
    expect(bundle(name)).not.toContain('urn:logfilter:schema:filter-document');
    // the library still exports it
    expect(fs.readFileSync(path.join(REPO, 'packages/core/dist/logfilter-core.js'), 'utf8')).toContain('urn:logfilter:schema:filter-document');
  });

  it.each(['compile-filter.cjs', 'logfilter-eval.cjs', 'eval-worker.cjs'])("leaves esbuild's copy of all of a Node module's exports (a default import) out of %s", (name) => {
    // __toESM(require("node:fs"), 1), minified: every export of node:fs defined again as a getter at each start
    expect(bundle(name)).not.toMatch(/[\w$]+\(require\("node:[\w/]+"\),1\)/);
    expect(bundle(name)).toContain('require("node:fs")');
  });
});

describe('code cache priming', () => {
  it("runs the bundle's warmCodeCache just before writing the cache, not on runs that use it; a failing one still leaves a cache", () => {
    const dir = tempDir();
    const loader = path.join(REPO, 'packages/cli/bin/compile-filter.cjs');
    const mark = path.join(dir, 'warmed');
    write(dir, 'good.cjs', `exports.warmCodeCache = () => require('node:fs').writeFileSync(${JSON.stringify(mark)}, 'x');\nprocess.stdout.write('ran');`);
    write(dir, 'bad.cjs', "exports.warmCodeCache = () => { throw new Error('no'); };\nprocess.stdout.write('ran');");
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    const run = (bundle: string) => spawnSync(process.execPath, ['-e', `require(${JSON.stringify(loader)}).load(${JSON.stringify(path.join(dir, bundle))})`], { env });
    const caches = (bundle: string) => fs.readdirSync(path.join(dir, 'cache/logfilter')).filter((f) => f.startsWith(`${bundle}-`));
    expect(run('good.cjs').stdout.toString()).toBe('ran');
    expect(fs.existsSync(mark)).toBe(true);
    expect(caches('good.cjs')).toHaveLength(1);
    fs.rmSync(mark);
    expect(run('good.cjs').stdout.toString()).toBe('ran');
    expect(fs.existsSync(mark)).toBe(false);
    const bad = run('bad.cjs');
    expect([bad.status, bad.stdout.toString()]).toEqual([0, 'ran']);
    expect(caches('bad.cjs')).toHaveLength(1);
    // both bins' bundles have one
    for (const b of ['compile-filter.cjs', 'logfilter-eval.cjs']) expect(bundle(b)).toContain('warmCodeCache');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('bundle patches', () => {
  const lexerFile = createRequire(path.join(REPO, 'packages/core/package.json')).resolve('chevrotain').replace(/api\.js$/, 'scan/lexer.js');

  it('apply to the installed Chevrotain and fail the build on text they do not find', () => {
    const source = fs.readFileSync(lexerFile, 'utf8');
    expect(source).toContain(CHAR_CODE_TABLE_ORIGINAL);
    const patched = applyPatches(lexerFile, source);
    expect(patched).toContain(CHAR_CODE_TABLE_FILL);
    expect(patched).not.toContain(CHAR_CODE_TABLE_ORIGINAL);
    expect(() => applyPatches(lexerFile, source.replace(CHAR_CODE_TABLE_ORIGINAL, ''))).toThrow(/not found once/);
    // other files pass unchanged
    expect(applyPatches('/x/node_modules/other/lexer.js', source)).toBe(source);
  });

  it("make the CommonJS bundles load the reference parser (filter/syntax/parse.ts) on first use, and leave the ESM bundle as written", () => {
    const file = path.join(REPO, 'packages/core/src/filter/syntax/parse-with-fast-path.ts');
    const source = fs.readFileSync(file, 'utf8');
    expect(source).toContain(REFERENCE_IMPORT);
    expect(source).toContain(REFERENCE_LOAD);
    const lazy = applyPatches(file, source, true);
    expect(lazy).toContain(REFERENCE_IMPORT_TYPE);
    expect(lazy).toContain(REFERENCE_LOAD_LAZY);
    expect(lazy).not.toContain(REFERENCE_LOAD);
    expect(applyPatches(file, source, false)).toBe(source);
    expect(() => applyPatches(file, source.replace(REFERENCE_LOAD, ''), true)).toThrow(/not found once/);
  });

  it("fill Chevrotain's char-code table with the same 65536 values", () => {
    const table = (code: string) => Array.from(new Function(`let charCodeToOptimizedIdxMap;\n${code}\nreturn charCodeToOptimizedIdxMap;`)() as ArrayLike<number>);
    const original = table(CHAR_CODE_TABLE_ORIGINAL);
    expect(original).toHaveLength(65536);
    expect(table(CHAR_CODE_TABLE_FILL)).toEqual(original);
  });

  it('leave the bundled lexer answering as the sources do on characters past 255', () => {
    expect(bundle('filter-parser.cjs')).toContain('new Uint16Array(65536)');
    const dir = tempDir();
    const cases = ['ClientRequestHost == "日本é"\n', 'ClientRequestHost == "a" ß\n', 'ClientRequestHost in ["ü", "€"] and EdgeResponseStatus == 200 日\n'];
    for (const [i, text] of cases.entries()) {
      write(dir, `f${i}.logfilter`, text);
      const r = spawnSync(process.execPath, [path.join(REPO, 'packages/cli/bin/compile-filter.cjs'), `f${i}.logfilter`, '--diagnostics', 'json'], { cwd: dir, env: { ...process.env, LOGFILTER_NO_CODE_CACHE: '1' } });
      const expected = compile(text);
      expect(r.status).toBe(expected.ok ? 0 : 1);
      if (expected.ok) expect(JSON.parse(r.stdout.toString())).toEqual(JSON.parse(expected.json!));
      else {
        const got = JSON.parse(r.stderr.toString()) as { code: string; range: { start: { offset: number }; end: { offset: number } } }[];
        expect(got.map((d) => [d.code, d.range.start.offset, d.range.end.offset])).toEqual(expected.diagnostics.map((d) => [d.code, d.start, d.end]));
        expect(got.length).toBeGreaterThan(0);
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
