/**
 * The advice after an API refusal names commands to run next (src/api/hints.ts): each must be a command this CLI
 * has, with flags it takes and no more arguments than it takes, so that pasting it works. Walked on the real
 * command tree (buildProgram), nothing sent.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { Command } from 'commander';
import { buildProgram } from '../src/program.js';
import type { CliContext } from '../src/context.js';
import { HINTS_BY_CODE } from '../src/api/hints.js';

const ctx = {
  stdout: { write: () => true },
  stderr: { write: () => true },
  stdin: Object.assign(Readable.from(['']), { isTTY: false }),
  env: {},
  cwd: process.cwd(),
} as unknown as CliContext;

/** Every `logfilter …` command line in a text: words, `--flags` and `<placeholders>`. */
function commandsIn(text: string): string[][] {
  return [...text.matchAll(/logfilter((?: (?:[a-z][a-z_-]*|<[a-z-]+>|--[a-z-]+))+)/g)].map((m) => m[1].trim().split(' '));
}

/** Why `tokens` is not a command line of `program`, or undefined when it is one. */
function problem(program: Command, tokens: string[]): string | undefined {
  let cmd = program;
  let positional = 0;
  let flags = false;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // The advice writes arguments before flags: a bare word after a flag is the sentence going on.
    if (flags && !t.startsWith('-') && !t.startsWith('<')) break;
    if (t.startsWith('--')) {
      flags = true;
      const option = cmd.options.find((o) => o.long === t);
      if (!option) return `${cmd.name()} has no ${t}`;
      if (option.required || option.optional) i++; // its value
    } else if (t.startsWith('<')) {
      positional++;
    } else {
      const sub = positional === 0 ? cmd.commands.find((c) => c.name() === t || c.aliases().includes(t)) : undefined;
      if (sub) cmd = sub;
      else positional++;
    }
  }
  if (cmd.commands.length > 0) return `${cmd.name()} needs a subcommand (${cmd.commands.map((c) => c.name()).join(', ')})`;
  if (positional > cmd.registeredArguments.length) return `${cmd.name()} takes ${cmd.registeredArguments.length} argument(s), the advice gives ${positional}`;
  // --zone is filled in from the command line (or becomes its --account): without it the pasted command is refused.
  const missing = cmd.options.filter((o) => (o.mandatory || o.long === '--zone') && !tokens.includes(o.long!));
  if (missing.length > 0) return `${cmd.name()} needs ${missing.map((o) => o.long).join(', ')}`;
  return undefined;
}

describe('the commands the advice names', () => {
  const program = buildProgram(ctx, () => {});
  const cases = Object.entries(HINTS_BY_CODE).flatMap(([code, hint]) => commandsIn(hint).map((tokens) => [code, tokens.join(' '), tokens] as const));
  it('are found in the advice table', () => {
    expect(cases.length).toBeGreaterThan(10);
  });
  it.each(cases)('%s: logfilter %s', (_code, _line, tokens) => {
    expect(problem(program, [...tokens])).toBeUndefined();
  });
});
