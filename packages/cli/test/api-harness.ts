/** Runs `logfilter` in-process with captured output and a given environment, for the API command tests. */
import { Readable } from 'node:stream';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { run } from '../src/main.js';
import type { CliContext } from '../src/context.js';

export interface Result {
  code: number;
  stdout: string;
  stderr: string;
}

export const workdir = mkdtempSync(join(tmpdir(), 'logfilter-api-cli-'));

export function file(name: string, text: string): string {
  const p = join(workdir, name);
  writeFileSync(p, text);
  return p;
}

export async function logfilter(argv: string[], env: Record<string, string | undefined>, stdin = ''): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const ctx: CliContext = {
    stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true) },
    stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true) },
    stdin: Object.assign(Readable.from([stdin]), { isTTY: false }),
    env,
    cwd: workdir,
  };
  const code = await run('logfilter', argv, ctx);
  return { code, stdout, stderr };
}
