/**
 * `-o json|yaml|table` (`--output`), the long form of the output choice on every API command: `json` is `--json`,
 * `table` the human output (the default), and `yaml` the JSON output written as YAML. The commands print JSON as
 * they do for `--json`; for YAML, stdout is held until the command ends and converted (held-output.ts; a failure
 * prints its JSON object as YAML too).
 */
import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';
import { holdStdout } from './held-output.js';

export const OUTPUT_FORMATS = ['json', 'yaml', 'table'] as const;

export function applyOutputFormatBeforeActions(program: Command, ctx: CliContext): void {
  program.hook('preAction', (_root, action) => {
    const flags = action.opts() as { output?: string; json?: boolean };
    const format = flags.output;
    if (format === undefined || !OUTPUT_FORMATS.includes(format as (typeof OUTPUT_FORMATS)[number])) return;
    if (flags.json && format === 'table') throw new UsageError('--json and -o table exclude each other');
    action.setOptionValue('json', format !== 'table');
    if (format === 'yaml') holdStdout(ctx, toYaml);
  });
}

/** One JSON document, or one per line (NDJSON), as YAML documents; text that is not JSON is left as it is. */
export function toYaml(text: string): string {
  try {
    return stringify(JSON.parse(text));
  } catch {
    try {
      return text.split('\n').filter((l) => l.trim() !== '').map((l) => stringify(JSON.parse(l))).join('---\n');
    } catch {
      return text;
    }
  }
}
