/** Runs `logfilter` in-process with captured streams, and writes fixture files in a temporary directory. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { beforeAll, afterAll, expect } from 'vitest';
import { binding } from '@logfilter/native-inflate';
import { inflaterInUse } from '../../src/eval/native-inflate.js';
import { REPO } from '../../../../test/support/paths.js';
import { run } from '../../src/main.js';
import type { CliContext } from '../../src/context.js';

export interface RunOutput {
  code: number;
  stdout: string;
  stdoutBytes: Buffer;
  stderr: string;
}

/** `ttyStderr`: stderr is a terminal (where eval draws its progress bar). */
export async function logfilter(args: string[], opts: { cwd: string; stdin?: string | Buffer; ttyStderr?: boolean }): Promise<RunOutput> {
  const out: Buffer[] = [];
  const err: string[] = [];
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]) as unknown as CliContext['stdin'];
  const ctx: CliContext = {
    stdout: { write: (c: string | Uint8Array) => out.push(Buffer.from(c)), isTTY: false },
    stderr: { write: (c: string | Uint8Array) => err.push(String(c)), isTTY: opts.ttyStderr === true },
    stdin,
    env: { NO_COLOR: '1' },
    cwd: opts.cwd,
  };
  const code = await run('logfilter', args, ctx);
  const stdoutBytes = Buffer.concat(out);
  return { code, stdout: stdoutBytes.toString('utf8'), stdoutBytes, stderr: err.join('') };
}

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'logfilter-eval-'));
}

export function write(dir: string, name: string, content: string | Buffer): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return p;
}

/** Bundles the evaluation worker (src/eval/worker.ts) into `dir` from the sources, as the build does; its path. */
export async function buildWorkerScript(dir: string): Promise<string> {
  const script = path.join(dir, 'eval-worker.cjs');
  await build({
    entryPoints: [path.join(REPO, 'packages/cli/src/eval/worker.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'error',
    alias: { '@logfilter/core': path.join(REPO, 'packages/core/src/index.ts') },
    // The optional native inflater is loaded as the bundles load it (scripts/bundle.mjs), from the repository's
    // node_modules although the script is written elsewhere.
    external: ['@logfilter/native-inflate'],
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(path.join(REPO, 'packages/cli/src/eval/worker.ts')).href) },
  });
  return script;
}

/**
 * The gzip inflaters to run a suite with: ISA-L's where @logfilter/native-inflate was built (and where
 * LOGFILTER_REQUIRE_NATIVE_INFLATE=1, as CI sets it, whether built or not: a missing build then fails), and
 * Node's zlib always.
 */
export const INFLATERS: ReadonlyArray<'isa-l' | 'zlib'> = [...(binding || process.env.LOGFILTER_REQUIRE_NATIVE_INFLATE === '1' ? (['isa-l'] as const) : []), 'zlib'];

/** Within a describe: eval inflates with `name` (LOGFILTER_INFLATE, which worker threads inherit). */
export function useInflater(name: 'isa-l' | 'zlib'): void {
  let before: string | undefined;
  beforeAll(() => {
    before = process.env.LOGFILTER_INFLATE;
    if (name === 'zlib') process.env.LOGFILTER_INFLATE = 'zlib';
    else delete process.env.LOGFILTER_INFLATE;
    expect(inflaterInUse().name).toBe(name);
  });
  afterAll(() => {
    if (before === undefined) delete process.env.LOGFILTER_INFLATE;
    else process.env.LOGFILTER_INFLATE = before;
  });
}
