/**
 * The `logfilter` umbrella command (`compile-filter` is compile-filter-main.ts). Each command lives in its own file under
 * commands/ and registers itself here; this file only wires them.
 */
import { Command } from 'commander';
import type { CliContext } from './context.js';
import { registerCompile } from './commands/compile.js';
import { configureRoot } from './run-program.js';
import { VERSION } from './version.js';
import { registerDecompile } from './commands/decompile.js';
import { registerFmt } from './commands/fmt.js';
import { registerCheck } from './commands/check.js';
import { registerEval } from './commands/eval.js';
import { registerJobs } from './commands/jobs.js';
import { registerDatasets } from './commands/datasets.js';
import { registerCustomFields } from './commands/custom-fields.js';
import { registerRules } from './commands/rules.js';
import { registerRulesets } from './commands/rulesets.js';
import { registerWafMigration } from './commands/waf-migration.js';
import { registerWafLegacy } from './commands/waf-legacy.js';
import { registerSchema } from './commands/schema.js';
import { registerPageGuard } from './commands/page-guard.js';
import { registerPlayground } from './commands/playground.js';

export { VERSION } from './version.js';

/** What the commands set as their exit status (a failing check is not an exception). */
export type SetExit = (code: number) => void;

function root(name: string, ctx: CliContext): Command {
  return configureRoot(new Command(name), ctx, VERSION);
}

export function buildProgram(ctx: CliContext, setExit: SetExit): Command {
  const program = root('logfilter', ctx).description('Write, check, compile, decompile, format and try log export filters');
  registerCompile(program, ctx, setExit);
  registerDecompile(program, ctx, setExit);
  registerFmt(program, ctx, setExit);
  registerCheck(program, ctx, setExit);
  registerEval(program, ctx, setExit);
  registerSchema(program, ctx, setExit);
  registerJobs(program, ctx, setExit);
  registerDatasets(program, ctx, setExit);
  registerCustomFields(program, ctx, setExit);
  registerRules(program, ctx, setExit);
  registerRulesets(program, ctx, setExit);
  registerWafMigration(program, ctx, setExit);
  registerWafLegacy(program, ctx, setExit);
  registerPageGuard(program, ctx, setExit);
  registerPlayground(program, ctx, setExit);
  return program;
}

