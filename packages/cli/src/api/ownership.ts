/**
 * The ownership flow of `jobs create` for destinations that need it (s3, gs, azure): request the challenge, say
 * where it was written, and take the token from --ownership-challenge, --ownership-challenge-file, or a prompt on
 * a terminal; the token is checked with the API before the job is created.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { needsOwnershipChallenge, requestOwnershipChallenge, validateOwnershipChallenge, type LogfilterClient, type Scope } from '@logfilter/api';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, UsageError } from '../errors.js';
import { apiCall } from './client.js';
import { isInteractive } from './confirm.js';

export interface ChallengeFlags {
  ownershipChallenge?: string;
  ownershipChallengeFile?: string;
}

function readToken(ctx: CliContext, file: string): string {
  try {
    return readFileSync(path.resolve(ctx.cwd, file), 'utf8').trim();
  } catch (e) {
    throw new UsageError(`--ownership-challenge-file: cannot read ${file} (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

async function prompt(ctx: CliContext, question: string): Promise<string> {
  ctx.stderr.write(question);
  const lines = createInterface({ input: ctx.stdin, terminal: false });
  try {
    for await (const line of lines) return line.trim();
    return '';
  } finally {
    lines.close();
  }
}

/**
 * The token given with --ownership-challenge or --ownership-challenge-file (read from the command's directory; an
 * unreadable file is a usage error), or undefined when neither was given; both together are a usage error.
 */
export function givenChallengeToken(ctx: CliContext, flags: ChallengeFlags): string | undefined {
  if (flags.ownershipChallenge !== undefined && flags.ownershipChallengeFile !== undefined) throw new UsageError('give --ownership-challenge or --ownership-challenge-file, not both');
  return flags.ownershipChallenge ?? (flags.ownershipChallengeFile !== undefined ? readToken(ctx, flags.ownershipChallengeFile) : undefined);
}

/** The checked challenge token for `destination`, or undefined when the destination needs none and none was given. */
export async function ownershipChallenge(ctx: CliContext, client: LogfilterClient, scope: Scope, destination: string, flags: ChallengeFlags): Promise<string | undefined> {
  let token = givenChallengeToken(ctx, flags);
  if (!needsOwnershipChallenge(destination)) return token;
  if (token === undefined) {
    const issued = await apiCall(`requesting the ownership challenge of ${destination.split('?')[0]} failed`, () => requestOwnershipChallenge(client, scope, destination));
    ctx.stderr.write(`ownership challenge written to ${issued.filename}\n`);
    if (!isInteractive(ctx)) {
      throw new UsageError(`this destination needs its ownership challenge: read the token from ${issued.filename} and run the command again with --ownership-challenge TOKEN or --ownership-challenge-file FILE`);
    }
    token = await prompt(ctx, 'ownership challenge token: ');
  }
  if (token === '') throw new UsageError('the ownership challenge token is empty');
  // A token typed at the prompt is checked at once, so a typo is told apart from a refused job.
  if (flags.ownershipChallenge === undefined && flags.ownershipChallengeFile === undefined) {
    const valid = await apiCall('checking the ownership challenge failed', () => validateOwnershipChallenge(client, scope, destination, token!));
    if (!valid) throw new CliError(`incorrect ownership challenge for ${destination.split('?')[0]}: run the command again to request a new one`, EXIT_FAILURE);
  }
  return token;
}
