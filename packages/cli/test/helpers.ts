/** Runs the CLI in-process with captured streams. */
import { Readable } from 'node:stream';
import { run, type CliContext, type CommandName } from '../src/index.js';

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(name: CommandName, args: string[], opts: { stdin?: string; cwd?: string; env?: Record<string, string>; tty?: boolean } = {}): Promise<Ran> {
  let stdout = '';
  let stderr = '';
  const stdin = Readable.from(opts.stdin !== undefined ? [Buffer.from(opts.stdin)] : []) as unknown as CliContext['stdin'];
  if (opts.stdin === undefined) (stdin as { isTTY?: boolean }).isTTY = true;
  const ctx: CliContext = {
    stdout: { write: (s) => ((stdout += String(s)), true), isTTY: opts.tty },
    stderr: { write: (s) => ((stderr += String(s)), true), isTTY: opts.tty },
    stdin,
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
  };
  const code = await run(name, args, ctx);
  return { code, stdout, stderr };
}
