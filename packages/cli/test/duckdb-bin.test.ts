/**
 * `logfilter eval --engine duckdb` through the built bin (bin/logfilter.cjs): the bundle runs in a vm.Script
 * (the loader in bin/compile-filter.cjs), where a dynamic import() of a module outside the bundle has no loader.
 * The in-process tests (sql.test.ts) cannot see that; these spawn the bin as a user runs it. Rebuild (`npm run build`) first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';

const bin = path.join(REPO, 'packages/cli/bin/logfilter.cjs');

function evalBin(dir: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [bin, 'eval', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('logfilter eval --engine duckdb (built bin)', () => {
  it('locates malformed lines (plain and gzip) with and without the code cache, counts as the built-in evaluator', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-duckdb-bin-'));
    fs.writeFileSync(path.join(dir, 'f.logfilter'), 'ClientRequestHost == "a"\n');
    const lines = ['{"ClientRequestHost":"a"}', 'not json', '{"ClientRequestHost":"b"}', '[1]', '{"ClientRequestHost":"a"}', ''];
    fs.writeFileSync(path.join(dir, 'p.ndjson'), lines.join('\n'));
    fs.writeFileSync(path.join(dir, 'g.ndjson.gz'), zlib.gzipSync(lines.join('\n')));
    const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-duckdb-bin-cache-'));
    const envs: Record<string, string>[] = [{ LOGFILTER_NO_CODE_CACHE: '1' }, { XDG_CACHE_HOME: cache }, { XDG_CACHE_HOME: cache }];
    for (const env of envs) {
      const builtIn = evalBin(dir, ['f.logfilter', 'p.ndjson', 'g.ndjson.gz', '--json', '--validate'], env);
      const duck = evalBin(dir, ['f.logfilter', 'p.ndjson', 'g.ndjson.gz', '--json', '--engine', 'duckdb'], env);
      expect(builtIn.code).toBe(0);
      expect(duck.code).toBe(0);
      const a = JSON.parse(builtIn.stdout);
      const b = JSON.parse(duck.stdout);
      expect([b.total, b.matched, b.malformed]).toEqual([10, 4, 4]);
      expect([b.total, b.matched, b.malformed]).toEqual([a.total, a.matched, a.malformed]);
      expect(b.malformedLines).toEqual(a.malformedLines);
      expect(b.malformedLines).toEqual([
        { file: 'p.ndjson', line: 2 },
        { file: 'p.ndjson', line: 4 },
        { file: 'g.ndjson.gz', line: 2 },
        { file: 'g.ndjson.gz', line: 4 },
      ]);
    }
  });
});
