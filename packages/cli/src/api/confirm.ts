/** Asking the user to confirm an irreversible change, on a terminal only (scripts pass --yes instead). */
import { createInterface } from 'node:readline';
import type { CliContext } from '../context.js';

export function isInteractive(ctx: CliContext): boolean {
  return ctx.stdin.isTTY === true;
}

/** Prints `question` on stderr and reads one line; true only for "yes" (or "y"). */
export async function confirm(ctx: CliContext, question: string): Promise<boolean> {
  ctx.stderr.write(`${question} [yes/no] `);
  const lines = createInterface({ input: ctx.stdin, terminal: false });
  try {
    for await (const line of lines) return /^\s*y(es)?\s*$/i.test(line);
    return false;
  } finally {
    lines.close();
  }
}
