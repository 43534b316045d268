/** `logfilter decompile`: filter JSON in any accepted form → canonical source. */
import type { Command } from 'commander';
import { decompile } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../errors.js';
import { readInput } from '../io.js';
import { diagnosticsOption, reportDiagnostics } from '../options.js';

export function registerDecompile(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('decompile')
    .description('turn filter JSON (a filter, its JSON-encoded string, a job, or an API response) into .logfilter source')
    .argument('[file]', 'JSON input (- or nothing: standard input)')
    .option('--dataset <name>', 'write a dataset line naming this dataset')
    .addOption(diagnosticsOption())
    .action(async (file: string | undefined, flags: { dataset?: string; diagnostics: string }) => {
      const input = await readInput(file, ctx);
      const result = decompile(input.text, { dataset: flags.dataset });
      reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
      if (result.ok && result.source !== undefined) ctx.stdout.write(result.source);
      setExit(result.ok ? EXIT_OK : EXIT_FAILURE);
    });
}
