/**
 * `logfilter compile` and the `compile-filter` command (docs/language.md#command-line): source → filter JSON in
 * one of four formats, diagnostics on stderr, exit 0 compiled / 1 errors / 2 usage or I/O.
 */
import { Command, Option } from 'commander';
import { compile, pretty, toFilterString, toTerraform } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../errors.js';
import { readInput } from '../io.js';
import { datasetOption, diagnosticsOption, maxBytesOption, maxOperatorsOption, reportDiagnostics } from '../options.js';

export interface CompileFlags {
  dataset?: string;
  format: 'json' | 'pretty' | 'string' | 'terraform';
  maxOperators: number;
  maxBytes: number;
  optimize?: boolean;
  check?: boolean;
  diagnostics: string;
}

/** Adds the compile arguments and options to `cmd` (shared by both spellings of the command). */
export function defineCompile(cmd: Command, ctx: CliContext, setExit: (code: number) => void): Command {
  return cmd
    .argument('[file]', 'a .logfilter source (- or nothing: standard input)')
    .addOption(datasetOption())
    .addOption(new Option('--format <format>', 'output: compact JSON, indented JSON, the JSON-encoded string for a job body, or a Terraform jsonencode() expression').choices(['json', 'pretty', 'string', 'terraform']).default('json'))
    .addOption(maxOperatorsOption())
    .addOption(maxBytesOption())
    .option('--optimize', 'merge x == a or x == b into x in [a, b] and drop duplicates (never changes what matches)')
    .option('--check', 'only check: print nothing on stdout')
    .addOption(diagnosticsOption())
    .action(async (file: string | undefined, flags: CompileFlags) => setExit(await runCompile(file, flags, ctx)));
}

export async function runCompile(file: string | undefined, flags: CompileFlags, ctx: CliContext): Promise<number> {
  const input = await readInput(file, ctx);
  const result = compile(input.text, {
    dataset: flags.dataset,
    maxOperators: flags.maxOperators,
    maxBytes: flags.maxBytes,
    optimize: flags.optimize,
  });
  reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
  if (!result.ok || result.json === undefined) return EXIT_FAILURE;
  if (flags.optimize && flags.diagnostics !== 'json') {
    ctx.stderr.write(`optimized: ${result.stats.operatorsBeforeOptimize} → ${result.stats.operators} operators\n`);
  }
  if (!flags.check) ctx.stdout.write(`${render(result.json, flags.format)}\n`);
  return EXIT_OK;
}

export function render(json: string, format: CompileFlags['format']): string {
  switch (format) {
    case 'pretty':
      return pretty(json);
    case 'string':
      return toFilterString(json);
    case 'terraform':
      return toTerraform(json);
    default:
      return json;
  }
}

export function registerCompile(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  defineCompile(program.command('compile').description('compile a .logfilter source to the filter JSON of a log export job'), ctx, setExit);
}
