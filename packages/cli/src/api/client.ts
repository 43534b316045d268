/**
 * What the API commands share: the client built from flags and the environment of the context, options for
 * connection, and API failures turned into one line that says what failed, the API's code and message, and what
 * to do. Secrets never reach the output: the client keeps them private and dry runs print them redacted.
 */
import { InvalidArgumentError, Option, type Command } from 'commander';
import { ApiError, DEFAULT_BASE_URL, ENV, LogfilterClient, type RequestDescription } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE } from '../errors.js';
import { FLAG_RANGES, intInRange } from '../options.js';

/** Flags every API command has (connection and output), whatever it addresses. */
export interface ClientFlags {
  baseUrl?: string;
  timeout?: number;
  retries?: number;
  json?: boolean;
}

export interface ConnectionFlags extends ClientFlags {
  zone: string;
}

/** Zone and account ids are path segments: an empty one would address another path. */
export function idArg(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty');
  return value;
}

/** --zone (required), --base-url, --timeout, --retries, --json on a command. */
export function withConnectionOptions(cmd: Command): Command {
  return withClientOptions(cmd.addOption(new Option('--zone <zone_id>', 'zone identifier').argParser(idArg).makeOptionMandatory()));
}

/** --base-url, --timeout, --retries, --json: for commands that choose their own address flags (--zone or --account). */
export function withClientOptions(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', `API base URL, ending with the version segment (default: $${ENV.baseUrl}, else ${DEFAULT_BASE_URL})`)
    .addOption(new Option('--timeout <ms>', `milliseconds each API call may take (at most ${FLAG_RANGES.timeout[1]})`).argParser(intInRange(...FLAG_RANGES.timeout)))
    .addOption(new Option('--retries <n>', `retries after 429 and 5xx answers (0 to ${FLAG_RANGES.retries[1]})`).argParser(intInRange(...FLAG_RANGES.retries)))
    .option('--json', 'machine-readable output on stdout');
}

export function makeClient(ctx: CliContext, flags: ClientFlags): LogfilterClient {
  try {
    return new LogfilterClient({
      baseUrl: flags.baseUrl,
      env: ctx.env,
      timeoutMs: flags.timeout,
      retries: flags.retries,
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
      return `check ${ENV.baseUrl} and that the API is reachable`;
    case 'aborted':
      return 'run the command again';
    case 'invalid-response':
      return `the answer was not the API's; check that ${ENV.baseUrl} points at the API (it ends with the version segment)`;
    default:
      break;
  }
  if (e.status === 401 || e.status === 403) return `check the credentials in ${ENV.token} (or ${ENV.email} and ${ENV.key})`;
  if (e.status === 404) return 'check the zone id and the job or ruleset id';
  if (e.status === 409) return 'the zone changed meanwhile; read it again and retry';
  if (e.status === 429) return 'the API is rate limiting; wait a minute and run the command again';
  if (e.status !== undefined && e.status >= 500) return 'the API failed; try again later';
  return 'fix the request and run the command again';
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
    return new CliError(`${what}: ${detail}${todo ? `; ${todo}` : ''}`, EXIT_FAILURE);
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
