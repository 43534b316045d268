/**
 * Runs a command line and returns the exit status: 0 ok, 1 the filter has errors (or an API call
 * failed), 2 usage or I/O error. Errors are one line on stderr, never a stack trace.
 */
import { runCompileFilter } from './compile-filter-main.js';
import { type CliContext, processContext } from './context.js';
import { EXIT_OK } from './errors.js';
import { startBin } from './bin-entry.js';
import { buildProgram } from './program.js';
import { runProgram } from './run-program.js';
import { redactingContext } from './redact.js';

export type CommandName = 'logfilter' | 'compile-filter';

export async function run(name: CommandName, argv: string[], ctx: CliContext = processContext()): Promise<number> {
  if (name === 'compile-filter') return runCompileFilter(argv, ctx);
  let exit = EXIT_OK;
  const safe = redactingContext(ctx, argv);
  const program = buildProgram(safe, (code) => (exit = code));
  return runProgram(name, program, argv, safe, () => exit);
}

/** Entry of the bundled bins: sets the exit status without cutting stdout short. */
export function main(name: CommandName): void {
  startBin((argv) => run(name, argv));
}
