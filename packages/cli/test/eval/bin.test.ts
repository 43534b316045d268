/**
 * The `logfilter` launcher runs `eval` from its own bundle through V8's code cache (built by `npm run build`,
 * which `npm test` runs first): the first run writes the cache in the user's cache directory, later runs use
 * it, and the answers are the same; other commands still run from the full bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';
import { PARALLEL_RANGES_MIN_BYTES } from '../../src/eval/evaluate.js';
import { tempDir, write } from './support.js';

const bin = path.join(REPO, 'packages/cli/bin/logfilter.cjs');

describe('logfilter eval launcher', () => {
  it('writes the code cache on the first run and gives the same answer from it', () => {
    expect(fs.existsSync(path.join(REPO, 'packages/cli/dist/logfilter-eval.cjs'))).toBe(true);
    const dir = tempDir();
    write(dir, 'f.json', JSON.stringify({ where: { key: 'h', operator: 'eq', value: 'a' } }));
    write(dir, 'l.ndjson', '{"h":"a"}\n{"h":"b"}\n');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    const run = () => JSON.parse(execFileSync(process.execPath, [bin, 'eval', 'f.json', 'l.ndjson', '--json'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
    const first = run();
    const cached = fs.readdirSync(path.join(dir, 'cache/logfilter'));
    expect(cached).toHaveLength(1);
    expect(fs.statSync(path.join(dir, 'cache/logfilter')).mode & 0o777).toBe(0o700);
    const second = run();
    expect({ ...second, seconds: 0 }).toEqual({ ...first, seconds: 0 });
    expect(first).toMatchObject({ total: 2, matched: 1 });
    // A usage error through the eval bundle is still exit 2, and other commands use the full CLI.
    expect(spawnSync(process.execPath, [bin, 'eval', '--bogus'], { cwd: dir, env }).status).toBe(2);
    expect(spawnSync(process.execPath, [bin, '--version'], { cwd: dir, env }).status).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs compile-filter through the code cache too: written on the first run, the same output from it', () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'ClientRequestHost == "example.com"\n');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    const compileFilter = path.join(REPO, 'packages/cli/bin/compile-filter.cjs');
    const run = (...args: string[]) => spawnSync(process.execPath, [compileFilter, ...args], { cwd: dir, env });
    const first = run('f.logfilter');
    expect(fs.readdirSync(path.join(dir, 'cache/logfilter')).filter((f) => f.startsWith('compile-filter.cjs-'))).toHaveLength(1);
    const second = run('f.logfilter');
    expect(first.status).toBe(0);
    expect(second.stdout.toString()).toBe(first.stdout.toString());
    expect(JSON.parse(first.stdout.toString())).toEqual({ where: { key: 'ClientRequestHost', operator: 'eq', value: 'example.com' } });
    // errors and exit codes are the same through it
    expect(run('missing.logfilter').status).toBe(2);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('when it writes its cache: removes its own older builds and caches written over 30 days ago, keeps other installs and files', () => {
    const dir = tempDir();
    write(dir, 'f.json', JSON.stringify({ where: { key: 'h', operator: 'eq', value: 'a' } }));
    write(dir, 'l.ndjson', '{"h":"a"}\n');
    const cache = path.join(dir, 'cache/logfilter');
    fs.mkdirSync(cache, { recursive: true });
    const bundle = path.join(REPO, 'packages/cli/dist/logfilter-eval.cjs');
    const { installPrefix } = createRequire(import.meta.url)(path.join(REPO, 'packages/cli/bin/compile-filter.cjs')) as { installPrefix(f: string, real: string): string };
    const own = installPrefix(bundle, fs.realpathSync(bundle));
    const files = {
      ownOlder: `${own}v0.0.1-x64-1-1-1-1.v8`,
      otherInstall: 'logfilter-eval.cjs-0123456789abcdef-v0.0.1-x64-1-1-1-1.v8',
      unused: 'logfilter-eval.cjs-fedcba9876543210-v0.0.1-x64-1-1-1-1.v8',
      oldNaming: 'logfilter-eval.cjs-v0.0.1-x64-1-1.v8',
      otherBundle: 'other-bundle.cjs-v1-x64-1-1.v8',
    };
    for (const f of Object.values(files)) write(cache, f, 'x');
    const longAgo = Date.now() / 1000 - 40 * 86_400;
    for (const f of [files.unused, files.oldNaming, files.otherBundle]) fs.utimesSync(path.join(cache, f), longAgo, longAgo);
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    execFileSync(process.execPath, [bin, 'eval', 'f.json', 'l.ndjson', '--json'], { cwd: dir, env, stdio: 'ignore' });
    const left = fs.readdirSync(cache).sort();
    expect(left.filter((f) => f.startsWith(own))).toHaveLength(1);
    expect(left).not.toContain(files.ownOlder);
    expect(left).toContain(files.otherInstall);
    expect(left).not.toContain(files.unused);
    expect(left).not.toContain(files.oldNaming);
    expect(left).toContain(files.otherBundle);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('several installs used in turn each keep their cache (one per install, pruned to its newest build)', () => {
    const dir = tempDir();
    const cacheHome = path.join(dir, 'cache');
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cacheHome };
    delete env.LOGFILTER_NO_CODE_CACHE;
    const loader = path.join(REPO, 'packages/cli/bin/compile-filter.cjs');
    // six installs of the same bundle (more than the four caches the old pruning kept), each its own directory
    const installs = Array.from({ length: 6 }, (_, i) => {
      const bundle = path.join(dir, `install-${i}`, 'dist/app.cjs');
      fs.mkdirSync(path.dirname(bundle), { recursive: true });
      write(path.dirname(bundle), 'app.cjs', `function f(n) { return n + ${i}; } process.stdout.write(String(f(1)));`);
      return bundle;
    });
    const run = (bundle: string) => execFileSync(process.execPath, ['-e', `require(${JSON.stringify(loader)}).load(${JSON.stringify(bundle)})`], { env }).toString();
    const cacheFiles = () => fs.readdirSync(path.join(cacheHome, 'logfilter')).filter((f) => f.startsWith('app.cjs-'));
    const identity = () => new Map(cacheFiles().map((f) => [f, fs.statSync(path.join(cacheHome, 'logfilter', f)).ino]));
    installs.forEach((b, i) => expect(run(b)).toBe(String(1 + i)));
    const written = identity();
    expect(written.size).toBe(installs.length);
    // used in turn again: every run hits its own cache, none is written again or removed
    for (const b of installs) run(b);
    expect(identity()).toEqual(written);
    // a rebuild of one install replaces that install's cache only
    fs.appendFileSync(installs[0]!, '\n');
    run(installs[0]!);
    const after = identity();
    expect(after.size).toBe(installs.length);
    expect([...after].filter(([f, ino]) => written.get(f) !== ino)).toHaveLength(1);
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('starts eval and compile-filter without loading child_process (commander gets a stand-in, scripts/bundle.mjs)', () => {
    const dir = tempDir();
    write(dir, 'f.json', JSON.stringify({ where: { key: 'h', operator: 'eq', value: 'a' } }));
    write(dir, 'f.logfilter', 'h == "a"\n');
    write(dir, 'l.ndjson', '{"h":"a"}\n');
    write(dir, 'probe.cjs', "process.on('exit', () => process.stderr.write('child_process:' + process.moduleLoadList.some((m) => /child_process/.test(m)) + '\\n'));");
    const loaded = (args: string[]) => spawnSync(process.execPath, ['-r', path.join(dir, 'probe.cjs'), ...args], { cwd: dir }).stderr.toString().match(/child_process:(\w+)/)?.[1];
    expect(loaded([bin, 'eval', 'f.json', 'l.ndjson', '--json'])).toBe('false');
    expect(loaded([path.join(REPO, 'packages/cli/bin/compile-filter.cjs'), 'f.logfilter'])).toBe('false');
    // the probe does see it when it is loaded
    expect(loaded(['-e', "require('node:child_process')"])).toBe('true');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('compile-filter reads its file without fs.promises (which brings readline and fs watchers) or os; eval of a small plain input without perf_hooks, readline, worker_threads or zlib', () => {
    const dir = tempDir();
    write(dir, 'f.logfilter', 'h == "a"\n');
    write(dir, 'probe.cjs', "process.on('exit', () => process.stderr.write('modules:' + JSON.stringify(process.moduleLoadList) + '\\n'));");
    // through the code cache, as users run it
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: path.join(dir, 'cache') };
    delete env.LOGFILTER_NO_CODE_CACHE;
    // stdin not a pipe but /dev/null (a file, as in scripts and the bench): Node's stdin for a file is an fs
    // stream, which loads fs.promises and readline when process.stdin is first read (context.ts reads it lazily)
    const modules = (args: string[]) => JSON.parse(spawnSync(process.execPath, ['-r', path.join(dir, 'probe.cjs'), ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] }).stderr.toString().match(/modules:(.*)/)![1]!) as string[];
    const loaded = modules([path.join(REPO, 'packages/cli/bin/compile-filter.cjs'), 'f.logfilter']);
    expect(loaded.filter((m) => /internal\/fs\/promises|readline|NativeModule os$/.test(m))).toEqual([]);
    // and eval of a small input does without perf_hooks (the global `performance`)
    write(dir, 'l.ndjson', '{"h":"a"}\n');
    expect(modules([bin, 'eval', 'f.logfilter', 'l.ndjson', '--json']).filter((m) => /perf_hooks|internal\/perf\/performance$|readline|worker_threads|NativeModule zlib$/.test(m))).toEqual([]);
    // the probe sees them when they are loaded
    expect(modules(['-e', "require('node:fs').promises; require('node:os')"]).filter((m) => /internal\/fs\/promises|NativeModule os$/.test(m))).toHaveLength(2);
    expect(modules(['-e', 'process.stdin']).filter((m) => /internal\/fs\/promises|readline/.test(m)).length).toBeGreaterThan(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts a worker early only for inputs that call for workers', () => {
    const { wanted, SINGLE_FILE } = createRequire(import.meta.url)(path.join(REPO, 'packages/cli/bin/eval-early-worker.cjs')) as { wanted: (args: string[]) => boolean; SINGLE_FILE: number };
    // the launcher starts a worker for one plain file from the size at which the evaluation shares its ranges
    expect(SINGLE_FILE).toBe(PARALLEL_RANGES_MIN_BYTES);
    const dir = tempDir();
    write(dir, 'small.ndjson', '{"h":"a"}\n');
    write(dir, 'big.ndjson', Buffer.alloc(13 << 20, 0x20));
    fs.mkdirSync(path.join(dir, 'logs'));
    write(dir, 'huge.ndjson', '');
    fs.truncateSync(path.join(dir, 'huge.ndjson'), PARALLEL_RANGES_MIN_BYTES);
    write(dir, 'huge.ndjson.gz', '');
    fs.truncateSync(path.join(dir, 'huge.ndjson.gz'), PARALLEL_RANGES_MIN_BYTES);
    write(dir, 'large.ndjson', '');
    fs.truncateSync(path.join(dir, 'large.ndjson'), PARALLEL_RANGES_MIN_BYTES - 1);
    const at = (f: string) => path.join(dir, f);
    // One plain file: only a large one, whose ranges the worker may share (a gzip file is read whole by one thread).
    expect(wanted(['f.json', at('big.ndjson')])).toBe(false);
    expect(wanted(['f.json', at('huge.ndjson')])).toBe(true);
    expect(wanted(['f.json', at('large.ndjson')])).toBe(false);
    expect(wanted(['f.json', at('huge.ndjson.gz')])).toBe(false);
    expect(wanted(['f.json', at('huge.ndjson'), '--workers', '0'])).toBe(false);
    expect(wanted(['f.json', at('big.ndjson'), at('small.ndjson')])).toBe(true);
    expect(wanted(['f.json', at('logs')])).toBe(true);
    expect(wanted(['f.json', `${at('logs')}/*.gz`])).toBe(true);
    expect(wanted(['f.json', at('small.ndjson')])).toBe(false);
    expect(wanted(['f.json', '-'])).toBe(false);
    expect(wanted(['f.json', at('missing.ndjson')])).toBe(false);
    expect(wanted(['f.json', at('big.ndjson'), at('small.ndjson'), '--workers', '0'])).toBe(false);
    expect(wanted(['f.json', at('big.ndjson'), at('small.ndjson'), '--workers=0'])).toBe(false);
    expect(wanted(['f.json', at('logs'), '--engine', 'duckdb'])).toBe(false);
    expect(wanted(['--help'])).toBe(false);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('gives the same answer with its early worker as on one thread (gzip directory and a large plain file)', () => {
    const dir = tempDir();
    write(dir, 'f.json', JSON.stringify({ where: { and: [{ key: 'h', operator: 'eq', value: 'a' }, { key: 'n', operator: 'geq', value: 50 }] } }));
    const lines = (seed: number, n: number) =>
      Array.from({ length: n }, (_, i) => (i % 97 === 5 ? '{"h":"a",' : JSON.stringify({ h: 'abc'[(i + seed) % 3], n: (i * 7 + seed) % 100, pad: 'p'.repeat(i % 200) }))).join('\n') + '\n';
    fs.mkdirSync(path.join(dir, 'logs/20250506'), { recursive: true });
    for (let i = 0; i < 4; i++) write(dir, `logs/20250506/20250506T12${i}000Z_20250506T12${i}500Z_${i}.log.gz`, zlib.gzipSync(lines(i, 20000)));
    write(dir, 'big.ndjson', lines(9, 90000));
    expect(fs.statSync(path.join(dir, 'big.ndjson')).size).toBeGreaterThan(9 << 20);
    const run = (...args: string[]) => {
      const out = JSON.parse(execFileSync(process.execPath, [bin, 'eval', 'f.json', ...args, '--json', '--no-progress'], { cwd: dir, stdio: ['ignore', 'pipe', 'ignore'] }).toString());
      return { ...out, seconds: 0 };
    };
    for (const input of ['logs', 'big.ndjson']) {
      const one = run(input, '--workers', '0');
      expect(one.matched).toBeGreaterThan(1000);
      expect(one.malformed).toBeGreaterThan(10);
      expect(run(input)).toEqual(one);
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
