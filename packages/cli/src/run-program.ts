/**
 * Runs a commander program and turns everything into an exit status: 0 ok, 1 failure, 2 usage or I/O.
 * Errors are one line on stderr, never a stack trace.
 */
import { type Command, CommanderError } from 'commander';
import type { CliContext } from './context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors.js';

export async function runProgram(name: string, program: Command, argv: string[], ctx: CliContext, exitStatus: () => number): Promise<number> {
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitStatus();
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error, already printed
      return e.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (e instanceof CliError) {
      ctx.stderr.write(`${name}: ${e.message}\n`);
      return e.exitCode;
    }
    const message = e instanceof Error ? e.message : String(e);
    ctx.stderr.write(`${name}: internal error: ${message} (please report this with the input that caused it)\n`);
    return EXIT_FAILURE;
  }
}

/** Root settings; subcommands created afterwards inherit them (exit override, output). */
export function configureRoot(program: Command, ctx: CliContext, version: string): Command {
  return program
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.stdout.write(s),
      writeErr: (s) => void ctx.stderr.write(s),
    })
    .showHelpAfterError('(run with --help for usage)')
    .allowExcessArguments(false);
}
