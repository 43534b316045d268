/**
 * `compile-filter` alone. It imports only the compile command, so its bundle leaves out the evaluator, the
 * API client and the other commands: start-up reads and compiles as little as possible (see
 * bench/compile.bench.mjs for the cold start against `node -e 0`).
 */
import { Command } from 'commander';
import { defineCompile } from './commands/compile.js';
import { type CliContext, processContext } from './context.js';
import { EXIT_OK } from './errors.js';
import { configureRoot, runProgram } from './run-program.js';
import { VERSION } from './version.js';

export async function runCompileFilter(argv: string[], ctx: CliContext = processContext()): Promise<number> {
  let exit = EXIT_OK;
  const program = configureRoot(new Command('compile-filter'), ctx, VERSION).description('compile a .logfilter source to the filter JSON of a log export job');
  defineCompile(program, ctx, (code) => (exit = code));
  return runProgram('compile-filter', program, argv, ctx, () => exit);
}
