/** Option parsers shared by the commands: bad values are usage errors (exit 2) naming the flag. */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { UsageError } from './errors.js';
import { oneOf, suggestion } from './did-you-mean.js';
import { ANY_DATASET, DATASETS, DEFAULT_MAX_BYTES, DEFAULT_MAX_OPERATORS, PHASES, type Diagnostic } from '@logfilter/core';
import type { CliContext } from './context.js';
import { formatDiagnostics, toJsonDiagnostics } from './diagnostics-print.js';
import { useColor } from './context.js';

export function positiveInt(value: string): number {
  if (!/^[0-9]+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new InvalidArgumentError('expected a whole number of at least 1');
  }
  return Number(value);
}

/**
 * A parser for a whole-number flag with its range: every numeric flag has one, so a value the program cannot
 * honour (a timeout past what a timer can wait, 10^9 retries) is a usage error rather than silently something else.
 */
export function intInRange(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const n = Number(value.trim());
    if (!/^[0-9]+$/.test(value.trim()) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return n;
  };
}

/** The ranges of the numeric flags (documented in the README). */
export const FLAG_RANGES = {
  maxOperators: [1, 1_000_000],
  maxBytes: [1, 1_000_000_000],
  /** The longest a Node.js timer waits (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
  timeout: [1, 2_147_483_647],
  retries: [0, 100],
  workers: [0, 64],
} as const;

export const datasetOption = () =>
  new Option('--dataset <name>', `dataset to check fields against when the source has no dataset line (${[...DATASETS.keys(), ANY_DATASET].join(', ')})`).argParser(
    knownDataset,
  );

/**
 * A `--dataset` value: a known dataset or `any`. An unknown one is a bad flag value (exit 2), with the nearest
 * names when some are close (a typo), else every name.
 */
export function knownDataset(value: string): string {
  const names = [...DATASETS.keys(), ANY_DATASET];
  if (names.includes(value)) return value;
  throw new InvalidArgumentError(`unknown dataset${suggestion(value, names) || ` (one of ${names.join(', ')})`}`);
}
export const maxOperatorsOption = () => new Option('--max-operators <n>', 'operator limit').argParser(intInRange(...FLAG_RANGES.maxOperators)).default(DEFAULT_MAX_OPERATORS);
export const maxBytesOption = () => new Option('--max-bytes <n>', 'byte limit of the compact filter JSON').argParser(intInRange(...FLAG_RANGES.maxBytes)).default(DEFAULT_MAX_BYTES);
/**
 * `--phase`, the ruleset phase whose fields and functions rules expressions may use: the one check of every
 * command's phase flag, when it is parsed (an unknown phase is a usage error, exit 2, with the nearest names).
 */
export const phaseOption = (description = 'ruleset phase whose fields and functions the expression may use (e.g. http_request_firewall_custom)') =>
  new Option('--phase <phase>', description).argParser((v: string) => oneOf('--phase', v, PHASES, 'phase'));

export const diagnosticsOption = () =>
  new Option('--diagnostics <format>', 'diagnostics format on stderr: text, or a JSON array').choices(['text', 'json']).default('text');

/** Prints diagnostics on stderr in the chosen format. With `json`, an array is always printed (maybe empty). */
export function reportDiagnostics(ctx: CliContext, name: string, text: string, diagnostics: readonly Diagnostic[], format: string): void {
  if (format === 'json') {
    ctx.stderr.write(`${JSON.stringify(toJsonDiagnostics(name, text, diagnostics))}\n`);
  } else if (diagnostics.length) {
    ctx.stderr.write(formatDiagnostics(name, text, diagnostics, useColor(ctx)));
  }
}

/**
 * `--enable` / `--disable`, the one spelling of the switch in every group, with `--enabled` / `--disabled`
 * accepted as hidden aliases (they set the same value). `enableFlag(flags)`: true, false or undefined.
 */
export function withEnableSwitch(cmd: Command, enable: string, disable: string): Command {
  return cmd
    .option('--enable', enable)
    .option('--disable', disable)
    .addOption(new Option('--enabled').hideHelp())
    .addOption(new Option('--disabled').hideHelp());
}

export function enableFlag(flags: { enable?: boolean; disable?: boolean; enabled?: boolean; disabled?: boolean }): boolean | undefined {
  const on = flags.enable || flags.enabled;
  const off = flags.disable || flags.disabled;
  if (on && off) throw new UsageError('--enable and --disable exclude each other');
  return on ? true : off ? false : undefined;
}
