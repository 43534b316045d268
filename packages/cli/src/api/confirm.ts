/** Asking the user to confirm an irreversible change, on a terminal only (scripts pass --yes instead). */
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';

export function isInteractive(ctx: CliContext): boolean {
  return ctx.stdin.isTTY === true;
}

/** Prints `question` on stderr and reads one line; true only for "yes" (a stray "y" does not confirm an irreversible change). */
export async function confirm(ctx: CliContext, question: string): Promise<boolean> {
  ctx.stderr.write(`${question} [yes/no] `);
  const lines = createInterface({ input: ctx.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*yes\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}

/** `--yes` on a command that destroys or drops something (`--dry-run` is added by the command, as on its writes). */
export function withYes(cmd: Command): Command {
  return cmd.option('-y, --yes', 'do not ask for confirmation (needed when not on a terminal)');
}

/**
 * The gate of every destructive operation (deletes, an update that drops rules): nothing to ask with --yes or
 * --dry-run; on a terminal the user is asked (no: exit 1, nothing sent); elsewhere it is refused as a usage error
 * (exit 2), so a script learns at once that it needs --yes. `what`: the change, in words ("delete job 5").
 */
export async function confirmDestructive(ctx: CliContext, flags: { yes?: boolean; dryRun?: boolean }, what: string): Promise<void> {
  if (flags.yes || flags.dryRun) return;
  if (!isInteractive(ctx)) throw new UsageError(`${what} cannot be undone: confirm on a terminal, or pass --yes (see what would be sent with --dry-run)`);
  if (!(await confirm(ctx, `${what} cannot be undone. Continue?`))) throw new CliError('not confirmed; nothing was sent', EXIT_FAILURE);
}
