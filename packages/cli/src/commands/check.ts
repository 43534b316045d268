/**
 * `logfilter check`: every check of docs/language.md#diagnostics on a filter, printing only diagnostics.
 * The input may be JSON (any form `decompile` accepts: diagnostics are located in the JSON) or a
 * .logfilter source; JSON is recognised by its first character (`{` or `"`).
 */
import type { Command } from 'commander';
import { check, compile } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../errors.js';
import { readInput } from '../io.js';
import { datasetOption, diagnosticsOption, maxBytesOption, maxOperatorsOption, reportDiagnostics } from '../options.js';

export function looksLikeJson(text: string): boolean {
  return /^\s*[{"]/.test(text);
}

export function registerCheck(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('check')
    .description('check a filter (JSON in any accepted form, or .logfilter source) and print its diagnostics')
    .argument('[file]', 'input (- or nothing: standard input)')
    .addOption(datasetOption())
    .addOption(maxOperatorsOption())
    .addOption(maxBytesOption())
    .addOption(diagnosticsOption())
    .action(async (file: string | undefined, flags: { dataset?: string; maxOperators: number; maxBytes: number; diagnostics: string }) => {
      const input = await readInput(file, ctx);
      const options = { dataset: flags.dataset, maxOperators: flags.maxOperators, maxBytes: flags.maxBytes };
      const result = looksLikeJson(input.text) ? check(input.text, options) : compile(input.text, options);
      reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
      setExit(result.ok ? EXIT_OK : EXIT_FAILURE);
    });
}
