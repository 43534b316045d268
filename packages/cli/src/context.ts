import { fdOutput, processStream } from './fd-output.js';

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

/**
 * The process's own streams, each taken on first use: Node creates process.stdin (and the others) when it is
 * first read, and for a file or /dev/null on stdin that loads fs streams, fs.promises and readline, a few ms of
 * every start of a command that reads a named file instead. Stdout and stderr are written on their
 * descriptors (fd-output.ts, except on Windows), which hands over to the real streams where they are needed.
 * They can still be replaced (`-o yaml` holds stdout).
 */
export function processContext(): CliContext {
  // Not on Windows, whose console takes text through the terminal stream (WriteConsoleW), not UTF-8 bytes
  const direct = process.platform !== 'win32';
  let stdout: CliContext['stdout'] | undefined;
  let stderr: CliContext['stderr'] | undefined;
  let stdin: CliContext['stdin'] | undefined;
  return {
    get stdout() {
      return (stdout ??= direct ? fdOutput(1) : processStream(1));
    },
    set stdout(s) {
      stdout = s;
    },
    get stderr() {
      return (stderr ??= direct ? fdOutput(2) : processStream(2));
    },
    set stderr(s) {
      stderr = s;
    },
    get stdin() {
      return (stdin ??= process.stdin);
    },
    set stdin(s) {
      stdin = s;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Colour only on a terminal, never with NO_COLOR (https://no-color.org: any non-empty value). */
export function useColor(ctx: CliContext, stream: 'stdout' | 'stderr' = 'stderr'): boolean {
  if (ctx.env.NO_COLOR) return false;
  if (ctx.env.FORCE_COLOR && ctx.env.FORCE_COLOR !== '0') return true;
  return ctx[stream].isTTY === true && ctx.env.TERM !== 'dumb';
}
