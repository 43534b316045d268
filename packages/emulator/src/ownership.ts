/**
 * Ownership challenges of log export destinations (README, "Paths": ownership challenges): the provider writes a token into the destination
 * (a file in the bucket) and a job to it must carry that token as `ownership_challenge`. The emulator has no
 * buckets, so it writes each token to its outbox directory, one file per destination, where a test or a person
 * reads it. Storage destinations (s3, gs, azure) need a challenge; others (https, r2, …) do not. The emulator only
 * knows the tokens it issued: a job to a destination that was never challenged is accepted, as before.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { badRequest } from './errors.js';
import type { JobScope } from './state.js';

/** Destinations whose owner proves ownership with a challenge (the provider's storage destinations). */
export const CHALLENGED_SCHEMES = ['s3:', 'gs:', 'azure:'] as const;

/** Where challenges go without --outbox: the system's temporary directory. */
export const DEFAULT_OUTBOX = path.join(tmpdir(), 'logfilter-emulator-outbox');

/** A zone's issued challenges, by destination (kept with the zone, so they survive --data restarts). */
type ChallengeZone = JobScope & { logexport_challenges?: Record<string, string> };

export function needsChallenge(destination: string): boolean {
  try {
    return (CHALLENGED_SCHEMES as readonly string[]).includes(new URL(destination).protocol);
  } catch {
    return false;
  }
}

/**
 * The outbox file of a destination: its readable part (scheme, bucket, path; never the query, which can hold
 * credentials) and a short hash of the whole, so two destinations never share a file.
 */
export function outboxFile(outbox: string, destination: string): string {
  const readable = destination.split('?')[0].replace(/^[a-z0-9]+:\/\//i, '').replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  const hash = createHash('sha256').update(destination).digest('hex').slice(0, 12);
  return path.join(outbox, `${readable}-${hash}.txt`);
}

/** Issues (or re-issues) the challenge of a destination and writes it to the outbox. */
export function issueChallenge(zone: JobScope, destination: string, outbox = DEFAULT_OUTBOX): { filename: string; message: string; valid: boolean } {
  const token = randomBytes(24).toString('base64url');
  ((zone as ChallengeZone).logexport_challenges ??= {})[destination] = token;
  const file = outboxFile(outbox, destination);
  try {
    mkdirSync(outbox, { recursive: true });
    writeFileSync(file, `${token}\n`);
  } catch (e) {
    throw badRequest('jobInvalid', `destination_conf: the challenge could not be written to the outbox (${(e as NodeJS.ErrnoException).code ?? 'error'})`, '/destination_conf');
  }
  return { filename: file, message: '', valid: true };
}

/** True when `challenge` is the one issued for `destination` (or none was issued and the destination needs none). */
export function challengeMatches(zone: JobScope, destination: string, challenge: string | undefined): boolean {
  const issued = (zone as ChallengeZone).logexport_challenges?.[destination];
  if (issued === undefined) return true;
  return challenge !== undefined && challenge.trim() === issued;
}

/** Refuses a job whose destination was challenged and whose challenge is missing or wrong. */
export function checkChallenge(zone: JobScope, destination: string, challenge: string | undefined): void {
  if (!challengeMatches(zone, destination, challenge)) {
    throw badRequest('ownershipChallenge', 'incorrect ownership challenge: read the token the ownership call wrote for this destination and send it as ownership_challenge', '/ownership_challenge');
  }
}
