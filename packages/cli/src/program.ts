/**
 * The `logfilter` umbrella command and `compile-filter`. Each command lives in its own file under
 * commands/ and registers itself here; this file only wires them.
 */
import { Command } from 'commander';
import type { CliContext } from './context.js';
import { defineCompile, registerCompile } from './commands/compile.js';
import { registerDecompile } from './commands/decompile.js';
import { registerFmt } from './commands/fmt.js';
import { registerCheck } from './commands/check.js';
import { registerEval } from './commands/eval.js';
import { registerJobs } from './commands/jobs.js';
import { registerCustomFields } from './commands/custom-fields.js';

export const VERSION = '0.1.0';

/** What the commands set as their exit status (a failing check is not an exception). */
export type SetExit = (code: number) => void;

/** Root settings; subcommands created afterwards inherit them (exit override, output). */
function root(name: string, ctx: CliContext): Command {
  return new Command(name)
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.stdout.write(s),
      writeErr: (s) => void ctx.stderr.write(s),
    })
    .showHelpAfterError('(run with --help for usage)')
    .allowExcessArguments(false);
}

export function buildProgram(ctx: CliContext, setExit: SetExit): Command {
  const program = root('logfilter', ctx).description('Write, check, compile, decompile, format and try log export filters');
  registerCompile(program, ctx, setExit);
  registerDecompile(program, ctx, setExit);
  registerFmt(program, ctx, setExit);
  registerCheck(program, ctx, setExit);
  registerEval(program, ctx, setExit);
  registerJobs(program, ctx, setExit);
  registerCustomFields(program, ctx, setExit);
  return program;
}

export function buildCompileFilter(ctx: CliContext, setExit: SetExit): Command {
  return defineCompile(root('compile-filter', ctx).description('compile a .logfilter source to the filter JSON of a log export job'), ctx, setExit);
}
