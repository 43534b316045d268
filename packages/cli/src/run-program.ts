/**
 * Runs a commander program and turns everything into an exit status: 0 ok, 1 failure, 2 usage or I/O.
 * Errors are one line on stderr, never a stack trace.
 */
import { type Command, CommanderError } from 'commander';
import { clipLongWords } from '@logfilter/core';
import type { CliContext } from './context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';

/** Per run: whether errors are JSON (`--diagnostics json`), and commander's error text captured meanwhile. */
const runs = new WeakMap<CliContext, { json: boolean; captured: string }>();

/** `--diagnostics json` (or `=json`) anywhere before `--`. */
export function wantsJsonErrors(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return false;
    if (argv[i] === '--diagnostics=json' || (argv[i] === '--diagnostics' && argv[i + 1] === 'json')) return true;
  }
  return false;
}

/**
 * A usage, I/O or internal error in the shape of `--diagnostics json`: one array on one line of stderr, so a
 * tool reading stderr as JSON never meets a line of prose. `code` is `usage`, `io`, `failure` or `internal`.
 */
function jsonError(code: string, message: string, file?: string): string {
  return `${JSON.stringify([{ file: file ?? null, code, severity: 'error', message: clipLongWords(message) }])}\n`;
}

export async function runProgram(name: string, program: Command, argv: string[], ctx: CliContext, exitStatus: () => number): Promise<number> {
  const run = { json: wantsJsonErrors(argv), captured: '' };
  runs.set(ctx, run);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitStatus();
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error, already printed (or captured)
      if (e.exitCode === 0) return EXIT_OK;
      if (run.json) ctx.stderr.write(jsonError('usage', run.captured.split('\n')[0].replace(/^error: /, '') || e.message));
      return EXIT_USAGE;
    }
    if (e instanceof CliError) {
      if (run.json) ctx.stderr.write(jsonError(e instanceof UsageError ? 'usage' : e.exitCode === EXIT_USAGE ? 'io' : 'failure', e.message, e.file));
      else ctx.stderr.write(`${name}: ${clipLongWords(e.message)}\n`);
      return e.exitCode;
    }
    const message = e instanceof Error ? e.message : String(e);
    if (run.json) ctx.stderr.write(jsonError('internal', message));
    else ctx.stderr.write(`${name}: internal error: ${clipLongWords(message)} (please report this with the input that caused it)\n`);
    return EXIT_FAILURE;
  } finally {
    runs.delete(ctx);
  }
}

/** Root settings; subcommands created afterwards inherit them (exit override, output). */
export function configureRoot(program: Command, ctx: CliContext, version: string): Command {
  return program
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.stdout.write(s),
      writeErr: (s) => {
        const run = runs.get(ctx);
        if (run?.json) run.captured += s;
        else ctx.stderr.write(clipLongWords(s));
      },
    })
    .showHelpAfterError('(run with --help for usage)')
    .allowExcessArguments(false);
}
