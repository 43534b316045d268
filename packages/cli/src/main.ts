/**
 * Runs a command line and returns the exit status: 0 ok, 1 the filter has errors (or an API call
 * failed), 2 usage or I/O error. Errors are one line on stderr, never a stack trace.
 */
import { CommanderError } from 'commander';
import { type CliContext, processContext } from './context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './errors.js';
import { buildCompileFilter, buildProgram } from './program.js';

export type CommandName = 'logfilter' | 'compile-filter';

export async function run(name: CommandName, argv: string[], ctx: CliContext = processContext()): Promise<number> {
  let exit = EXIT_OK;
  const setExit = (code: number) => {
    exit = code;
  };
  const program = name === 'compile-filter' ? buildCompileFilter(ctx, setExit) : buildProgram(ctx, setExit);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exit;
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

/** Entry of the bundled bins: sets the exit status without cutting stdout short. */
export function main(name: CommandName): void {
  // a closed pipe (`logfilter eval --print | head`) is not an error
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  run(name, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    () => {
      process.exitCode = EXIT_FAILURE;
    },
  );
}
