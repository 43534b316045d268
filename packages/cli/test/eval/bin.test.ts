/**
 * The `logfilter` launcher runs `eval` from its own bundle through V8's code cache (built by `npm run build`,
 * which `npm test` runs first): the first run writes the cache in the user's cache directory, later runs use
 * it, and the answers are the same; other commands still run from the full bundle.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../../../../test/support/paths.js';
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
});
