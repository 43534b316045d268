/**
 * Every fenced block of README.md, docs/ and the package READMEs runs as written, or says why not (the marker is
 * described in test/support/doc-blocks.ts):
 * - shell blocks run in bash (`-e -o pipefail`) against an emulator on 127.0.0.1, with the built bins on PATH
 *   and LOGFILTER_BASE_URL / LOGFILTER_API_TOKEN set, in a scratch directory holding the repository's examples;
 * - TypeScript and JavaScript blocks run with node (TypeScript stripped by esbuild), against the same emulator;
 * - JSON and YAML blocks parse; filter source blocks compile (docs/language.md's examples of diagnostics are
 *   test/docs.test.ts's);
 * - Lua blocks tagged `<!-- nvim-X -->` are run in headless Neovim by packages/language-server/test/nvim.test.ts;
 * - any other block carries `<!-- not runnable: REASON -->`.
 * The bins are spawned: run `npm run build` first.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transformSync } from 'esbuild';
import { parse as parseYaml } from 'yaml';
import { compile } from '@logfilter/core';
import { startEmulator, type RunningEmulator } from '@logfilter/emulator';
import { REPO } from './support/paths.js';
import { docBlocks, docFiles, type DocBlock } from './support/doc-blocks.js';

const TOKEN = 'docs-token';
const BINS: Record<string, string> = {
  logfilter: 'packages/cli/bin/logfilter.cjs',
  'compile-filter': 'packages/cli/bin/compile-filter.cjs',
  'logfilter-emulator': 'packages/emulator/bin/logfilter-emulator.cjs',
  'logfilter-language-server': 'packages/language-server/bin/logfilter-language-server.cjs',
};
const SHELL = new Set(['sh', 'bash', 'shell']);
const CODE = new Set(['ts', 'js', 'mjs']);
const SOURCE = new Set(['', 'logfilter']);
/** A transcript: `$ command` lines, each followed by the output it prints (stdout and stderr, in order). */
const TRANSCRIPT = 'console';

let emu: RunningEmulator;
const scratch: string[] = [];

beforeAll(async () => {
  emu = await startEmulator({ tokens: [TOKEN] });
});
afterAll(async () => {
  await emu.close();
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A scratch directory: the repository's examples at their paths, its node_modules, the bins on PATH. */
function workspace(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = mkdtempSync(path.join(tmpdir(), 'logfilter-docs-'));
  scratch.push(cwd);
  cpSync(path.join(REPO, 'packages/cli/examples'), path.join(cwd, 'packages/cli/examples'), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules'), path.join(cwd, 'node_modules'));
  const bin = path.join(cwd, '.bin');
  mkdirSync(bin);
  for (const [name, file] of Object.entries(BINS)) {
    writeFileSync(path.join(bin, name), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPO, file)}" "$@"\n`);
    chmodSync(path.join(bin, name), 0o755);
  }
  const env = { PATH: `${bin}:${process.env.PATH}`, HOME: cwd, LOGFILTER_BASE_URL: emu.url, LOGFILTER_API_TOKEN: TOKEN, NO_COLOR: '1' };
  return { cwd, env };
}

/** Runs a process without blocking this one: the emulator answers from this process's event loop. */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // A block that does not end by itself (a server left running) fails: it is no example to run as written.
    let timedOut = false;
    const timer = setTimeout(() => ((timedOut = true), child.kill('SIGKILL')), 110_000);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (status) => (clearTimeout(timer), resolve({ status: timedOut ? null : status, out: out.slice(-4000) })));
  });
}

function runShell(block: DocBlock) {
  const { cwd, env } = workspace();
  return run('bash', ['-e', '-o', 'pipefail', '-c', block.text], cwd, env);
}

/** Each `$ command` of a transcript, with the output the block shows and the output it gives (run in order, one workspace). */
async function runTranscript(block: DocBlock): Promise<{ command: string; shown: string; given: string }[]> {
  const { cwd, env } = workspace();
  const steps: { command: string; shown: string[] }[] = [];
  for (const line of block.text.replace(/\n$/, '').split('\n')) {
    if (line.startsWith('$ ')) steps.push({ command: line.slice(2), shown: [] });
    else steps.at(-1)?.shown.push(line);
  }
  const out: { command: string; shown: string; given: string }[] = [];
  for (const s of steps) out.push({ command: s.command, shown: s.shown.join('\n').trimEnd(), given: (await run('bash', ['-o', 'pipefail', '-c', s.command], cwd, env)).out.trimEnd() });
  return out;
}

function runCode(block: DocBlock) {
  const { cwd, env } = workspace();
  const commonJs = /\brequire\(/.test(block.text) && !/^\s*import\s/m.test(block.text);
  const file = path.join(cwd, commonJs ? 'block.cjs' : 'block.mjs');
  writeFileSync(file, commonJs ? block.text : transformSync(block.text, { loader: 'ts', format: 'esm', target: 'node20' }).code);
  return run(process.execPath, [file], cwd, env);
}

const all = docFiles().flatMap(docBlocks);
const name = (b: DocBlock) => `${b.file}:${b.line} ${b.lang || 'plain'}`;

describe('the emulator README\'s quick start (its block starts a server in the foreground)', () => {
  it('the command it runs against the emulator works', async () => {
    const { cwd, env } = workspace();
    const r = await run('bash', ['-e', '-c', 'logfilter custom-fields add --zone my-zone --request-header user-agent'], cwd, env);
    expect(r.status, r.out).toBe(0);
  });
});

describe('documentation blocks', () => {
  it('are found in every documentation file', () => {
    expect(all.length).toBeGreaterThan(60);
    expect(new Set(all.map((b) => b.file)).size).toBeGreaterThanOrEqual(8);
  });

  it('marked not runnable say why', () => {
    expect(all.filter((b) => b.notRunnable === '').map(name)).toEqual([]);
  });

  const runnable = all.filter((b) => b.notRunnable === undefined);

  it.each(runnable.filter((b) => SHELL.has(b.lang)).map((b) => [name(b), b] as const))('%s runs in bash against the emulator', async (_, block) => {
    const r = await runShell(block);
    expect(r.status, r.out).toBe(0);
  });

  it.each(runnable.filter((b) => CODE.has(b.lang)).map((b) => [name(b), b] as const))('%s runs with node against the emulator', async (_, block) => {
    const r = await runCode(block);
    expect(r.status, r.out).toBe(0);
  });

  it.each(runnable.filter((b) => b.lang === TRANSCRIPT).map((b) => [name(b), b] as const))('%s prints what it shows', async (_, block) => {
    const steps = await runTranscript(block);
    expect(steps.length).toBeGreaterThan(0);
    for (const s of steps) expect(s.given, s.command).toBe(s.shown);
  });

  // docs/language.md's JSON examples of invalid-json and escaped-json are wrong on purpose (test/docs.test.ts checks them)
  it.each(runnable.filter((b) => b.lang === 'json' && b.file !== 'docs/language.md').map((b) => [name(b), b] as const))('%s is JSON', (_, block) => {
    expect(() => JSON.parse(block.text)).not.toThrow();
  });

  it.each(runnable.filter((b) => b.lang === 'yaml' || b.lang === 'yml').map((b) => [name(b), b] as const))('%s is YAML', (_, block) => {
    expect(() => parseYaml(block.text)).not.toThrow();
  });

  // docs/language.md shows the diagnostics of wrong filters on purpose: test/docs.test.ts checks each produces its code.
  it.each(runnable.filter((b) => SOURCE.has(b.lang) && b.file !== 'docs/language.md').map((b) => [name(b), b] as const))('%s compiles', (_, block) => {
    const r = compile(block.text);
    expect(r.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.code}: ${d.message}`)).toEqual([]);
  });

  it('every other block is marked not runnable, with its reason', () => {
    const known = (b: DocBlock) => (b.lang === 'lua' && /^nvim-/.test(b.tag ?? '')) || b.lang === TRANSCRIPT || SHELL.has(b.lang) || CODE.has(b.lang) || ['json', 'yaml', 'yml'].includes(b.lang) || SOURCE.has(b.lang);
    expect(runnable.filter((b) => !known(b)).map(name)).toEqual([]);
  });
});
