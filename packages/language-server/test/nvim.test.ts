/**
 * The smoke scenario through headless Neovim, a second real LSP client (its built-in `vim.lsp` client, driven
 * headless). Skipped, with a message, only where `nvim` is not installed; CI installs it with apt.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverScript } from './support/server-bundle.js';

const hasNvim = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasNvim) console.warn('nvim is not installed: skipping the Neovim client test (apt-get install -y --no-install-recommends neovim)');

const LUA = fileURLToPath(new URL('./nvim/smoke.lua', import.meta.url));

describe.skipIf(!hasNvim)('language server in headless Neovim', () => {
  it('publishes diagnostics, completes, hovers, fixes, compiles, formats and exits', async () => {
    const server = await serverScript();
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-nvim-'));
    const file = path.join(dir, 'smoke.logfilter');
    writeFileSync(file, 'dataset http_requests\nClientReqestHost == "a" and EdgeResponseStatus >= "500"\n');
    const home = path.join(dir, 'home');
    mkdirSync(home);
    // keep Neovim's log, shada and swap files out of the real home
    const env = { ...process.env, HOME: home, XDG_CACHE_HOME: path.join(home, 'c'), XDG_STATE_HOME: path.join(home, 's'), XDG_DATA_HOME: path.join(home, 'd'), SERVER: server, FILE: file };
    const r = spawnSync('nvim', ['--headless', '-u', 'NONE', '-i', 'NONE', '-n', '-c', `luafile ${LUA}`], { env, encoding: 'utf8', timeout: 240_000 });
    const out = `${r.stdout}${r.stderr}`;
    const lines = out.split(/\r?\n/);
    expect(lines, out).toContain('RESULT: PASS');
    expect(r.status, out).toBe(0);
    expect(lines).toContain('DIAG unknown-field 1:0-1:16 sev=1');
    expect(lines).toContain('DIAG numeric-string 1:50-1:55 sev=2');
    const completion = lines.find((l) => l.startsWith('COMPLETION '))!.split(' ').slice(1);
    expect(completion).toContain('==');
    expect(completion).toContain('startsWith');
    expect(lines).toContain('HOVER 1:28-1:46 markdown');
    expect(lines).toContain('ACTION quickfix true ClientRequestHost');
    expect(lines).toContain('COMPILE json=nil operators=2 maxOperators=30');
    expect(lines).toContain('AFTER EDIT 0 diagnostics');
    expect(lines).toContain('COMPILE json={"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"a"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}} operators=2 maxOperators=30');
  }, 300_000);
});
