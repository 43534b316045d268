/**
 * `--engine duckdb` through the real launcher (bin/logfilter.cjs → the eval bundle run by V8's code cache, built
 * by `npm run build`, which `npm test` runs first). The bundle loads `@duckdb/node-api` only when asked for:
 * - in the repository it is found (a dynamic import() inside the code-cached vm.Script once had no loader and
 *   every run said the package was missing);
 * - with the bins copied where no node_modules can be found, it is a usage error naming the package (exit 2).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';
import { tempDir, write } from './eval/support.js';

function runEval(bin: string, dir: string, cache: string) {
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CACHE_HOME: cache, NODE_PATH: '' };
  delete env.LOGFILTER_NO_CODE_CACHE;
  return spawnSync(process.execPath, [bin, 'eval', 'f.logfilter', 'l.ndjson', '--engine', 'duckdb', '--json'], { cwd: dir, env, encoding: 'utf8' });
}

function logs(dir: string): void {
  write(dir, 'f.logfilter', 'ClientRequestHost == "a"\n');
  write(dir, 'l.ndjson', '{"ClientRequestHost":"a"}\n{"ClientRequestHost":"b"}\n');
}

describe('eval --engine duckdb from the installed launcher', () => {
  it('finds @duckdb/node-api beside it, with and without the code cache written', () => {
    const dir = tempDir();
    logs(dir);
    const bin = path.join(REPO, 'packages/cli/bin/logfilter.cjs');
    for (const round of ['first run', 'cached run']) {
      const r = runEval(bin, dir, path.join(dir, 'cache'));
      expect(r.status, `${round}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ total: 2, matched: 1, engine: 'duckdb' });
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('without the package: exit 2, naming the package to install; stdout holds only the --json failure object', () => {
    // The launcher and its bundles alone, in a directory with no node_modules above it.
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-noduck-'));
    for (const sub of ['bin', 'dist']) fs.cpSync(path.join(REPO, 'packages/cli', sub), path.join(outside, sub), { recursive: true });
    const dir = tempDir();
    logs(dir);
    const r = runEval(path.join(outside, 'bin/logfilter.cjs'), dir, path.join(dir, 'cache'));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('npm install @duckdb/node-api@1.5.5-r.5');
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, exit: 2 });
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
