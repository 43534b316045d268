/**
 * `logfilter eval` alone: the `logfilter` launcher (bin/logfilter.cjs) loads this bundle when the command is
 * `eval`, so an evaluation does not load and compile the API client, the job commands and the rest of the
 * CLI before reading its first byte (see bench/eval.bench.mjs: start-up is part of every measured run).
 */
import { Command } from 'commander';
import { registerEval } from './commands/eval.js';
import { type CliContext, processContext } from './context.js';
import { EXIT_OK } from './errors.js';
import { configureRoot, runProgram } from './run-program.js';
import { VERSION } from './version.js';

/** Runs `logfilter eval …` (argv starts with `eval`), exactly as the full program would. */
export async function runEval(argv: string[], ctx: CliContext = processContext()): Promise<number> {
  let exit = EXIT_OK;
  const program = configureRoot(new Command('logfilter'), ctx, VERSION).description('Write, check, compile, decompile, format and try log export filters');
  registerEval(program, ctx, (code) => (exit = code));
  return runProgram('logfilter', program, argv, ctx, () => exit);
}
