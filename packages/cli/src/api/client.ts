/**
 * What the API commands share: the client built from flags and the environment of the context, options for
 * connection, and API failures turned into one line that says what failed, the API's code and message, and what
 * to do. Secrets never reach the output: the client keeps them private and dry runs print them redacted.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ApiError, DEFAULT_BASE_URL, ENV, LogfilterClient, type RequestDescription } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_USAGE } from '../errors.js';
import { hintFor } from './hints.js';
import { verboseFetch } from './verbose.js';
import { OUTPUT_FORMATS } from '../output-format.js';
import { FLAG_RANGES, intInRange } from '../options.js';

/** Flags every API command has (connection and output), whatever it addresses. */
export interface ClientFlags {
  baseUrl?: string;
  timeout?: number;
  retries?: number;
  json?: boolean;
  verbose?: boolean;
  output?: string;
}

export interface ConnectionFlags extends ClientFlags {
  zone: string;
}

/** Zone and account ids are path segments: an empty one would address another path. */
export function idArg(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  // "." and ".." would change the URL's path instead of naming something: the client never sends them (a dry run must not print them)
  if (value === '.' || value === '..') throw new InvalidArgumentError(`"${value}" is not an id`);
  return value;
}

/** --zone (required), --base-url, --timeout, --retries, --json on a command. */
export function withConnectionOptions(cmd: Command): Command {
  return withClientOptions(cmd.addOption(new Option('--zone <zone_id>', 'zone identifier').argParser(idArg).makeOptionMandatory()));
}

/** --base-url, --timeout, --retries, --json: for commands that choose their own address flags (--zone or --account). */
export function withClientOptions(cmd: Command): Command {
  cmd
    .option('--base-url <url>', `API base URL, ending with the version segment (default: $${ENV.baseUrl}, else ${DEFAULT_BASE_URL})`)
    .addOption(new Option('--timeout <ms>', `milliseconds each API call may take (at most ${FLAG_RANGES.timeout[1]})`).argParser(intInRange(...FLAG_RANGES.timeout)))
    .addOption(new Option('--retries <n>', `retries after 429 and 5xx answers (0 to ${FLAG_RANGES.retries[1]})`).argParser(intInRange(...FLAG_RANGES.retries)))
    .option('--json', 'machine-readable output on stdout (the same as -o json)')
    .option('--verbose', 'log each request and answer on stderr (credentials redacted)');
  // `waf-migration plan --output FILE` keeps its flag (a file to save); elsewhere -o chooses the output.
  if (!cmd.options.some((o) => o.long === '--output')) {
    cmd.addOption(new Option('-o, --output <format>', 'output: json, yaml, or table (the human output, the default)').choices([...OUTPUT_FORMATS]));
  }
  return cmd;
}

export function makeClient(ctx: CliContext, flags: ClientFlags): LogfilterClient {
  try {
    return new LogfilterClient({
      baseUrl: flags.baseUrl,
      env: ctx.env,
      timeoutMs: flags.timeout,
      retries: flags.retries,
      ...(flags.verbose ? { fetch: verboseFetch(ctx) } : {}),
      onRetry: (r) => {
        if (!flags.json) ctx.stderr.write(`retrying in ${Math.round(r.delayMs)} ms (${r.status ? `HTTP ${r.status}` : 'no answer'}, attempt ${r.attempt})\n`);
      },
    });
  } catch (e) {
    // The library names its option; here the user gave a flag.
    if (e instanceof ApiError) e.message = e.message.replace('the baseUrl option', '--base-url');
    throw toCliError('cannot set up the API client', e);
  }
}

function hint(e: ApiError): string {
  switch (e.kind) {
    case 'config':
      return ''; // the message already names what to set
    case 'timeout':
      return 'check that the base URL points at a working API, or raise --timeout';
    case 'network':
      // with a status the API was reached: the connection broke mid-answer, and a run again is the advice
      return e.status !== undefined ? 'run the command again' : `check ${ENV.baseUrl} and that the API is reachable`;
    case 'aborted':
      return 'run the command again';
    case 'invalid-response':
      return `the answer was not the API's; check that ${ENV.baseUrl} points at the API (it ends with the version segment)`;
    default:
      return hintFor(e.code, e.status);
  }
}

/**
 * One line: what failed, the API's status, code and message, what to do. `check`: how to see whether a change
 * whose outcome is unknown (a POST that failed after it was sent) was applied after all.
 */
export function toCliError(what: string, e: unknown, check?: string): CliError {
  if (e instanceof CliError) return e;
  if (e instanceof ApiError) {
    const detail = e.kind === 'api' ? `API error ${e.code} (HTTP ${e.status}): ${e.message}` : e.message;
    const todo = e.mayHaveApplied && check ? `see whether it was: ${check}` : hint(e);
    // Nothing was sent when the client is not set up (no base URL, no credentials): a set-up error, exit 2.
    const details = e.kind === 'api' ? { api_code: e.code, status: e.status } : e.kind === 'config' ? { kind: 'setup' } : {};
    return new CliError(`${what}: ${detail}${todo ? `; ${todo}` : ''}`, e.kind === 'config' ? EXIT_USAGE : EXIT_FAILURE, undefined, details);
  }
  return new CliError(`${what}: ${e instanceof Error ? e.message : String(e)}`, EXIT_FAILURE);
}

export async function apiCall<T>(what: string, fn: () => Promise<T>, check?: string): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toCliError(what, e, check);
  }
}

export function printDryRun(ctx: CliContext, requests: RequestDescription[]): void {
  ctx.stdout.write(`${JSON.stringify(requests.length === 1 ? requests[0] : requests, null, 2)}\n`);
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
