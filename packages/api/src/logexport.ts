/**
 * Log export calls beyond the job itself (emulator README, "Paths": log export): ownership challenges, destination and origin checks, a
 * dataset's fields and jobs, instant-logs (edge) jobs. Paths are written in the description's words; the client
 * sends them in its configured spelling (spelling.ts).
 */
import type { CallOptions, LogfilterClient, Scope } from './client.js';
import { scopePath, seg } from './client.js';
import type { Job } from './types.js';

/** A zone id (a bare string), `{zone}` or `{account}`: these calls exist at both scopes but edge (a zone's only). */
const L = (scope: Scope) => `${scopePath(scope)}/logexport`;

/** Storage destinations whose owner must prove ownership with a challenge before a job can write to them. */
export const CHALLENGED_DESTINATIONS = ['s3:', 'gs:', 'azure:'] as const;

export function needsOwnershipChallenge(destination: string): boolean {
  try {
    return (CHALLENGED_DESTINATIONS as readonly string[]).includes(new URL(destination).protocol);
  } catch {
    return false;
  }
}

export interface OwnershipChallenge {
  /** Where the token was written: a file in the destination (for the emulator: in its outbox). */
  filename: string;
  message: string;
  valid: boolean;
}

export async function requestOwnershipChallenge(client: LogfilterClient, scope: Scope, destination: string, opts: CallOptions = {}): Promise<OwnershipChallenge> {
  return (await client.request<OwnershipChallenge>('POST', `${L(scope)}/ownership`, 'any', { ...opts, body: { destination_conf: destination } })).result;
}

export async function validateOwnershipChallenge(client: LogfilterClient, scope: Scope, destination: string, challenge: string, opts: CallOptions = {}): Promise<boolean> {
  const r = await client.request<{ valid: boolean }>('POST', `${L(scope)}/ownership/validate`, 'any', { ...opts, body: { destination_conf: destination, ownership_challenge: challenge } });
  return r.result?.valid === true;
}

export async function destinationExists(client: LogfilterClient, scope: Scope, destination: string, opts: CallOptions = {}): Promise<boolean> {
  const r = await client.request<{ exists: boolean }>('POST', `${L(scope)}/validate/destination/exists`, 'any', { ...opts, body: { destination_conf: destination } });
  return r.result?.exists === true;
}

export async function validateOrigin(client: LogfilterClient, scope: Scope, logpullOptions: string | null, opts: CallOptions = {}): Promise<{ valid: boolean; message: string }> {
  return (await client.request<{ valid: boolean; message: string }>('POST', `${L(scope)}/validate/origin`, 'any', { ...opts, body: { logpull_options: logpullOptions } })).result;
}

/** `{FieldName: description}` of a dataset, as the API answers. */
export async function datasetFields(client: LogfilterClient, scope: Scope, dataset: string, opts: CallOptions = {}): Promise<Record<string, string>> {
  return (await client.request<Record<string, string>>('GET', `${L(scope)}/datasets/${seg(dataset)}/fields`, 'any', opts)).result;
}

export async function datasetJobs(client: LogfilterClient, scope: Scope, dataset: string, opts: CallOptions = {}): Promise<Job[]> {
  return (await client.request<Job[]>('GET', `${L(scope)}/datasets/${seg(dataset)}/jobs`, 'jobList', opts)).result;
}

export interface EdgeJob {
  destination_conf: string;
  fields: string;
  filter: string;
  sample: number;
  session_id: string;
}

export async function listEdgeJobs(client: LogfilterClient, zone: string, opts: CallOptions = {}): Promise<EdgeJob[]> {
  return (await client.request<EdgeJob[]>('GET', `${L(zone)}/edge`, 'any', opts)).result;
}

export async function createEdgeJob(client: LogfilterClient, zone: string, body: { fields?: string; filter?: string; sample?: number }, opts: CallOptions = {}): Promise<EdgeJob> {
  return (await client.request<EdgeJob>('POST', `${L(zone)}/edge`, 'any', { ...opts, body })).result;
}
