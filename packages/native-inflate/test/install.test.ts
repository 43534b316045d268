/**
 * The install script and the loader, on a copy of the package: an install never fails for want of ISA-L (it
 * says why and exits 0), the loader then gives its reason instead of throwing, and where ISA-L's headers are
 * (CI installs them) a copy builds and loads.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO } from '../../../test/support/paths.js';

const PKG = path.join(REPO, 'packages/native-inflate');
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The package's shipped files, copied without a build. */
function copy(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'native-inflate-'));
  dirs.push(dir);
  for (const f of ['binding.gyp', 'src', 'index.cjs', 'install.cjs', 'package.json']) cpSync(path.join(PKG, f), path.join(dir, f), { recursive: true });
  return dir;
}

const install = (dir: string, env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, ['install.cjs'], { cwd: dir, encoding: 'utf8', env: { ...process.env, npm_config_nodedir: process.env.npm_config_nodedir ?? '/usr', ...env }, timeout: 120_000 });

describe('@logfilter/native-inflate install and loader', () => {
  it('skips the build with LOGFILTER_NATIVE_INFLATE=0, exits 0, and the loader gives a reason, not an error', () => {
    const dir = copy();
    const r = install(dir, { LOGFILTER_NATIVE_INFLATE: '0' });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/LOGFILTER_NATIVE_INFLATE/);
    expect(existsSync(path.join(dir, 'build'))).toBe(false);
    const loaded = createRequire(path.join(dir, 'package.json'))('./index.cjs') as { binding?: unknown; reason?: string };
    expect(loaded.binding).toBeUndefined();
    expect(loaded.reason).toMatch(/not built/);
  });

  const headers = existsSync('/usr/include/isa-l/igzip_lib.h');
  it.runIf(headers || process.env.LOGFILTER_REQUIRE_NATIVE_INFLATE === '1')('builds a copy where ISA-L is installed, and the copy loads', () => {
    const dir = copy();
    const r = install(dir, { LOGFILTER_NATIVE_INFLATE: '' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const loaded = createRequire(path.join(dir, 'package.json'))('./index.cjs') as { binding?: { create: unknown }; reason?: string };
    expect(loaded.reason).toBeUndefined();
    expect(typeof loaded.binding?.create).toBe('function');
  }, 120_000);
});
