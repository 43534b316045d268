/**
 * Runs a commander program and turns everything into an exit status: 0 ok, 1 failure, 2 usage or I/O.
 * Errors are one line on stderr, never a stack trace.
 */
import { type Command, CommanderError } from 'commander';
import { clipLongWords } from '@logfilter/core';
import type { CliContext } from './context.js';
import { withChoiceSuggestion } from './did-you-mean.js';
import { flushHeldOutput } from './held-output.js';
import { CliError, EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from './errors.js';

/** Per run: whether errors are JSON (`--diagnostics json`), and commander's error text captured meanwhile. */
const runs = new WeakMap<CliContext, { json: boolean; captured: string }>();

/** `--diagnostics json` (or `=json`) anywhere before `--`. */
export function wantsJsonErrors(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') return false;
    if (argv[i] === '--diagnostics=json' || (argv[i] === '--diagnostics' && argv[i + 1] === 'json')) return true;
  }
  return false;
}

/**
 * A usage, I/O or internal error in the shape of `--diagnostics json`: one array on one line of stderr, so a
 * tool reading stderr as JSON never meets a line of prose. `code` is `usage`, `io`, `failure` or `internal`.
 */
function jsonError(code: string, message: string, file?: string): string {
  return `${JSON.stringify([{ file: file ?? null, code, severity: 'error', message: clipLongWords(message) }])}\n`;
}

/** `--json` anywhere before `--`: the command's output is JSON, and so is a failure (on stdout, beside stderr's line). */
export function wantsJsonOutput(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === '--json' || /^(--output=|-o=?)(json|yaml)$/.test(a)) return true;
  }
  return argv.some((a, i) => (a === '--output' || a === '-o') && /^(json|yaml)$/.test(argv[i + 1] ?? '') && !argv.slice(0, i).includes('--'));
}

/** The one usage-error line every command prints, commander's own errors included. */
export const USAGE_TAIL = '(run with --help for usage)';

/**
 * A failure as the JSON object `--json` users read from stdout: `ok` false, the exit status, its kind (`usage`,
 * `io`, `failure`, `internal`), the message, and what the error carries (the API's code and status).
 */
function jsonFailure(exit: number, kind: string, message: string, details: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ ok: false, exit, kind, error: message, ...details }, null, 2)}\n`;
}

/**
 * `<zone>` in advice becomes the zone the command line gave, so the advice can be pasted as is; on a command given
 * `--account A` instead (rulesets, jobs), `--zone <zone>` becomes `--account A`; `<phase>` becomes its `--phase`.
 */
function fillPlaceholders(text: string, argv: readonly string[]): string {
  const flag = (name: string) => {
    const at = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
    const value = at < 0 ? undefined : argv[at].startsWith(`${name}=`) ? argv[at].slice(name.length + 1) : argv[at + 1];
    return value === '' ? undefined : value;
  };
  const phase = flag('--phase');
  const message = phase !== undefined ? text.replaceAll('<phase>', phase) : text;
  const zone = flag('--zone');
  if (zone !== undefined) return message.replaceAll('<zone>', zone);
  const account = flag('--account');
  return account !== undefined ? message.replaceAll('--zone <zone>', `--account ${account}`) : message;
}

export async function runProgram(name: string, program: Command, argv: string[], ctx: CliContext, exitStatus: () => number): Promise<number> {
  const run = { json: wantsJsonErrors(argv), captured: '' };
  const jsonOut = wantsJsonOutput(argv);
  runs.set(ctx, run);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitStatus();
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version exit 0; every other commander error is a usage error, captured and printed as ours are
      if (e.exitCode === 0) return EXIT_OK;
      // a group called without its subcommand: commander printed the group's help, which stays as it is
      if (e.code === 'commander.help') {
        if (!run.json) ctx.stderr.write(run.captured);
        else ctx.stderr.write(jsonError('usage', `${e.message}: give a subcommand`));
        return EXIT_USAGE;
      }
      const said = run.captured.trim().split('\n').map((l) => l.trim()).filter(Boolean).join(' ').replace(/^error: /, '') || e.message;
      const message = withChoiceSuggestion(said);
      if (run.json) ctx.stderr.write(jsonError('usage', message));
      else ctx.stderr.write(`${name}: ${clipLongWords(message)} ${USAGE_TAIL}\n`);
      if (jsonOut) ctx.stdout.write(jsonFailure(EXIT_USAGE, 'usage', message));
      return EXIT_USAGE;
    }
    if (e instanceof CliError) {
      const message = fillPlaceholders(e.message, argv);
      const kind = e instanceof UsageError ? 'usage' : e.exitCode === EXIT_USAGE ? 'io' : 'failure';
      if (run.json) ctx.stderr.write(jsonError(kind, message, e.file));
      else ctx.stderr.write(`${name}: ${clipLongWords(message)}${e instanceof UsageError ? ` ${USAGE_TAIL}` : ''}\n`);
      if (jsonOut && !e.printedJson) ctx.stdout.write(jsonFailure(e.exitCode, kind, message, e.details));
      return e.exitCode;
    }
    const message = e instanceof Error ? e.message : String(e);
    if (run.json) ctx.stderr.write(jsonError('internal', message));
    else ctx.stderr.write(`${name}: internal error: ${clipLongWords(message)} (please report this with the input that caused it)\n`);
    if (jsonOut) ctx.stdout.write(jsonFailure(EXIT_FAILURE, 'internal', message));
    return EXIT_FAILURE;
  } finally {
    runs.delete(ctx);
    flushHeldOutput(ctx);
  }
}

/** Root settings; subcommands created afterwards inherit them (exit override, output). */
export function configureRoot(program: Command, ctx: CliContext, version: string): Command {
  return program
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => void ctx.stdout.write(s),
      // Errors are captured and printed by runProgram in the one format of every usage error.
      writeErr: (s) => {
        const run = runs.get(ctx);
        if (run) run.captured += s;
        else ctx.stderr.write(clipLongWords(s));
      },
    })
    .allowExcessArguments(false);
}
