/**
 * The `logfilter` umbrella command. Each command lives in its own file under commands/ and registers
 * itself here; this file only wires them.
 */
import { Command } from 'commander';
import { registerCompile } from './commands/compile.js';
import { registerDecompile } from './commands/decompile.js';
import { registerFmt } from './commands/fmt.js';
import { registerCheck } from './commands/check.js';

export const VERSION = '0.1.0';

export function buildProgram(): Command {
  const program = new Command('logfilter')
    .description('Write, check, compile and try log export filters')
    .version(VERSION)
    .showHelpAfterError()
    .allowExcessArguments(false);
  registerCompile(program);
  registerDecompile(program);
  registerFmt(program);
  registerCheck(program);
  return program;
}
