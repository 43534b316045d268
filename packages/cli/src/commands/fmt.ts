/**
 * `logfilter fmt`: canonical formatting. Without flags, prints the formatted text; `--check` lists the
 * files that are not formatted (exit 1); `--write` rewrites them in place (atomically).
 */
import type { Command } from 'commander';
import { format } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { readInput, writeFileAtomic } from '../io.js';
import { diagnosticsOption, reportDiagnostics } from '../options.js';

export function registerFmt(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('fmt')
    .description('format .logfilter sources in the canonical style')
    .argument('[files...]', 'sources (- or nothing: standard input)')
    .option('--check', 'exit 1 and list the files that are not formatted; change nothing')
    .option('--write', 'rewrite the files in place')
    .addOption(diagnosticsOption())
    .action(async (files: string[], flags: { check?: boolean; write?: boolean; diagnostics: string }) => {
      if (flags.check && flags.write) throw new UsageError('--check and --write cannot be used together');
      const list = files.length ? files : [undefined];
      if (flags.write && list.some((f) => f === undefined || f === '-')) throw new UsageError('--write needs file names (standard input cannot be rewritten)');
      let exit = EXIT_OK;
      for (const file of list) {
        const input = await readInput(file, ctx);
        const result = format(input.text);
        if (!result.ok) {
          reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
          exit = EXIT_FAILURE;
          continue;
        }
        if (flags.check) {
          if (result.changed) {
            ctx.stdout.write(`${input.name}\n`);
            exit = EXIT_FAILURE;
          }
        } else if (flags.write) {
          if (result.changed && input.path) await writeFileAtomic(input.path, result.text);
        } else {
          ctx.stdout.write(result.text);
        }
      }
      if (flags.check && exit === EXIT_FAILURE && flags.diagnostics !== 'json') ctx.stderr.write('some files are not formatted: run logfilter fmt --write\n');
      setExit(exit);
    });
}
