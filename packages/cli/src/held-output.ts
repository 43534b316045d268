/**
 * Stdout held until a command ends, then written converted (`-o yaml`, output-format.ts). Apart from the YAML
 * converter so that run-program.ts, which every bin goes through, does not load a YAML library: `compile-filter`
 * and `logfilter eval` never hold their output, and their start-up is part of every call.
 */
import type { CliContext, Output } from './context.js';

/** The contexts whose stdout is held, with the real stdout to write to at the end and the conversion. */
const held = new WeakMap<CliContext, { real: CliContext['stdout']; text: string; convert: (text: string) => string }>();

/** From now until flushHeldOutput, what the command writes on stdout is kept, to be written as convert(text). */
export function holdStdout(ctx: CliContext, convert: (text: string) => string): void {
  if (held.has(ctx)) return;
  const hold = { real: ctx.stdout, text: '', convert };
  held.set(ctx, hold);
  ctx.stdout = { write: (s: string | Uint8Array) => ((hold.text += String(s)), true) } as Output;
}

/** At the end of a run: held output written converted, stdout given back. */
export function flushHeldOutput(ctx: CliContext): void {
  const hold = held.get(ctx);
  if (!hold) return;
  held.delete(ctx);
  ctx.stdout = hold.real;
  if (hold.text.trim() === '') return;
  ctx.stdout.write(hold.convert(hold.text));
}
