/**
 * `-o json|yaml|table` (`--output`), the long form of the output choice on every API command: `json` is `--json`,
 * `table` the human output (the default), and `yaml` the JSON output written as YAML. The commands print JSON as
 * they do for `--json`; for YAML, stdout is held until the command ends and converted (a failure prints its JSON
 * object as YAML too).
 */
import type { Command } from 'commander';
import { stringify } from 'yaml';
import type { CliContext, Output } from './context.js';
import { UsageError } from './errors.js';

export const OUTPUT_FORMATS = ['json', 'yaml', 'table'] as const;

/** The contexts whose stdout is held for YAML, with the real stdout to write to at the end. */
const held = new WeakMap<CliContext, { real: CliContext['stdout']; text: string }>();

export function applyOutputFormatBeforeActions(program: Command, ctx: CliContext): void {
  program.hook('preAction', (_root, action) => {
    const flags = action.opts() as { output?: string; json?: boolean };
    const format = flags.output;
    if (format === undefined || !OUTPUT_FORMATS.includes(format as (typeof OUTPUT_FORMATS)[number])) return;
    if (flags.json && format === 'table') throw new UsageError('--json and -o table exclude each other');
    action.setOptionValue('json', format !== 'table');
    if (format === 'yaml' && !held.has(ctx)) {
      const hold = { real: ctx.stdout, text: '' };
      held.set(ctx, hold);
      ctx.stdout = { write: (s: string | Uint8Array) => ((hold.text += String(s)), true) } as Output;
    }
  });
}

/** At the end of a run: held JSON written as YAML (see toYaml), stdout given back. */
export function flushYaml(ctx: CliContext): void {
  const hold = held.get(ctx);
  if (!hold) return;
  held.delete(ctx);
  ctx.stdout = hold.real;
  if (hold.text.trim() === '') return;
  ctx.stdout.write(toYaml(hold.text));
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
