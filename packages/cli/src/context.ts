/**
 * Everything a command touches of the outside world, so that commands run in-process in tests with
 * captured output, and the real bins pass the process's streams.
 */
export interface Output {
  write(chunk: string | Uint8Array): unknown;
}

export interface CliContext {
  stdout: Output & { isTTY?: boolean };
  stderr: Output & { isTTY?: boolean; columns?: number };
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
}

export function processContext(): CliContext {
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() };
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org: any non-empty value). */
export function useColor(ctx: CliContext, stream: 'stdout' | 'stderr' = 'stderr'): boolean {
  if (ctx.env.NO_COLOR) return false;
  if (ctx.env.FORCE_COLOR && ctx.env.FORCE_COLOR !== '0') return true;
  return ctx[stream].isTTY === true && ctx.env.TERM !== 'dumb';
}
