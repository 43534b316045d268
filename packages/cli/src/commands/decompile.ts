/** `logfilter decompile`: filter JSON in any accepted form → canonical source. */
import { type Command, Option } from 'commander';
import { compile, decompile } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../errors.js';
import { readInput } from '../io.js';
import { refuseRuleForFilter, refuseSourceForDecompile } from '../wrong-command.js';
import { diagnosticsOption, knownDataset, reportDiagnostics } from '../options.js';
import { toJsonDiagnostics } from '../diagnostics-print.js';

export function registerDecompile(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('decompile')
    .description('turn filter JSON (a filter, its JSON-encoded string, a job, or an API response) into .logfilter source')
    .argument('[file]', 'JSON input (- or nothing: standard input)')
    // a known dataset or `any`, as every --dataset (an unknown one is a bad flag value, exit 2)
    .addOption(new Option('--dataset <name>', 'write a dataset line naming this dataset').argParser(knownDataset))
    .addOption(diagnosticsOption())
    .action(async (file: string | undefined, flags: { dataset?: string; diagnostics: string }) => {
      const input = await readInput(file, ctx);
      refuseSourceForDecompile(input.name, input.text);
      const result = decompile(input.text, { dataset: flags.dataset });
      if (!result.ok) refuseRuleForFilter(input.name, input.text, 'check');
      // The source must compile back (a float on an integer field, an unknown field would not): printed all the
      // same, for the user to fix, with the compiler's diagnostics and exit 1, as check does.
      const back = result.ok && result.source !== undefined ? compile(result.source, flags.dataset !== undefined ? { dataset: flags.dataset } : {}) : undefined;
      const errors = back?.diagnostics.filter((d) => d.severity === 'error') ?? [];
      if (flags.diagnostics === 'json') {
        // one array on stderr, whatever the number of inputs it speaks of
        const all = [...toJsonDiagnostics(input.name, input.text, result.diagnostics), ...toJsonDiagnostics(`${input.name} (as source)`, result.source ?? '', errors)];
        ctx.stderr.write(`${JSON.stringify(all)}\n`);
      } else {
        reportDiagnostics(ctx, input.name, input.text, result.diagnostics, 'text');
        reportDiagnostics(ctx, `${input.name} (as source)`, result.source ?? '', errors, 'text');
      }
      if (!result.ok || result.source === undefined) return setExit(EXIT_FAILURE);
      ctx.stdout.write(result.source);
      setExit(errors.length ? EXIT_FAILURE : EXIT_OK);
    });
}
