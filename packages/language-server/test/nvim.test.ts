/**
 * The smoke scenario through headless Neovim, a second real LSP client, configured by the README's own
 * snippet for the installed version (0.7 or 0.10+) with the server found on PATH, as a user would set it
 * up. Skipped, with a message, only where `nvim` is not installed; CI installs it with apt.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverScript } from './support/server-bundle.js';

const hasNvim = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasNvim) console.warn('nvim is not installed: skipping the Neovim client test (apt-get install -y --no-install-recommends neovim)');

const LUA = fileURLToPath(new URL('./nvim/smoke.lua', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));

/** `0.7.2` → [0, 7] */
function nvimVersion(): [number, number] {
  const m = /NVIM v(\d+)\.(\d+)/.exec(spawnSync('nvim', ['--version'], { encoding: 'utf8' }).stdout ?? '');
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

/** The README's Lua block after `<!-- nvim-X -->`: the configuration a user copies. */
function readmeSnippet(readme: string, version: [number, number]): { name: string; lua: string } {
  const name = version[0] > 0 || version[1] >= 10 ? 'nvim-0.10' : 'nvim-0.7';
  const m = new RegExp(`<!-- ${name} -->\\s*\`\`\`lua\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!m) throw new Error(`no ${name} snippet in the README`);
  return { name, lua: m[1] };
}

describe.skipIf(!hasNvim)('language server in headless Neovim', () => {
  it('publishes diagnostics, completes, hovers, fixes, compiles, formats and exits', async () => {
    const server = await serverScript();
    const dir = mkdtempSync(path.join(tmpdir(), 'logfilter-nvim-'));
    const file = path.join(dir, 'smoke.logfilter');
    writeFileSync(file, 'dataset http_requests\nClientReqestHost == "a" and EdgeResponseStatus >= "500"\n');
    // the file starts with a comment, which Neovim 0.7 alone would detect as `conf`
    writeFileSync(file, `# smoke\n${readFileSync(file, 'utf8')}`);
    const home = path.join(dir, 'home');
    mkdirSync(home);
    // the server on PATH under its documented name (the bin, or the test's fresh bundle of the sources)
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(path.join(bin, 'logfilter-language-server'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(server)} "$@"\n`);
    chmodSync(path.join(bin, 'logfilter-language-server'), 0o755);
    const snippet = readmeSnippet(readFileSync(README, 'utf8'), nvimVersion());
    const init = path.join(dir, 'init.lua');
    writeFileSync(init, snippet.lua);
    // keep Neovim's log, shada and swap files out of the real home
    const ruleFile = path.join(dir, 'smoke.rule');
    writeFileSync(ruleFile, 'http.hots eq "a"\nand ssl\n');
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}`, HOME: home, XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'c'), XDG_STATE_HOME: path.join(home, 's'), XDG_DATA_HOME: path.join(home, 'd'), FILE: file, RULE_FILE: ruleFile };
    const r = spawnSync('nvim', ['--headless', '-u', init, '-i', 'NONE', '-n', '-c', `luafile ${LUA}`], { env, encoding: 'utf8', timeout: 240_000 });
    const out = `${r.stdout}${r.stderr}`;
    const lines = out.split(/\r?\n/);
    expect(lines, out).toContain('RESULT: PASS');
    expect(lines).toContain('FILETYPE logfilter');
    expect(r.status, out).toBe(0);
    expect(lines).toContain('DIAG unknown-field 2:0-2:16 sev=1');
    expect(lines).toContain('DIAG numeric-string 2:50-2:55 sev=2');
    const completion = lines.find((l) => l.startsWith('COMPLETION '))!.split(' ').slice(1);
    expect(completion).toContain('==');
    expect(completion).toContain('startsWith');
    expect(lines).toContain('HOVER 2:28-2:46 markdown');
    expect(lines).toContain('ACTION quickfix true ClientRequestHost');
    expect(lines).toContain('COMPILE json=nil operators=2 maxOperators=30');
    expect(lines).toContain('AFTER EDIT 0 diagnostics');
    // completion as typed (Ctrl-X Ctrl-O through the omnifunc the snippet sets), in both languages
    expect(lines).toContain('OMNIFUNC v:lua.vim.lsp.omnifunc');
    const omni = lines.find((l) => l.startsWith('OMNI '))?.split(' ').slice(1) ?? [];
    expect(omni, out).toEqual(expect.arrayContaining(['==', '>=', 'in']));
    expect(lines).toContain('RULE FILETYPE logfilter-rules');
    expect(lines).toContain('CLIENTS 1');
    expect(lines).toContain('RULE DIAG rule-unknown-identifier 0:0-0:9 sev=1');
    expect(lines).toContain('RULE OMNIFUNC v:lua.vim.lsp.omnifunc');
    const ruleOmni = lines.find((l) => l.startsWith('RULE OMNI '))?.split(' ').slice(2) ?? [];
    expect(ruleOmni, out).toEqual(expect.arrayContaining(['eq', 'in']));
    expect(lines).toContain('COMPILE json={"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"a"},{"key":"EdgeResponseStatus","operator":"geq","value":500}]}} operators=2 maxOperators=30');
  }, 300_000);
});
