/**
 * Log export jobs (README, "Paths" and "Behaviour": jobs): the `filter` string is parsed and checked with the core,
 * so the emulator refuses exactly what the tooling would refuse; `logpull_options` is parsed.
 */
import { check, getDataset } from '@logfilter/core';
import { logpullQuery } from '@logfilter/api';
import { badRequest, clip, notFound } from './errors.js';
import type { Job, JobScope, EmulatorState } from './state.js';
import { checkKind, checkOutputOptions, checkUploadLimits, UPLOAD_LIMITS, type OutputOptions } from './job-fields.js';
import { checkChallenge } from './ownership.js';

/** A job with the fields of the provider's schema beyond the description's (job-fields.ts). */
export type FullJob = Job & {
  kind?: string;
  output_options?: OutputOptions | null;
  max_upload_bytes?: number;
  max_upload_records?: number;
  max_upload_interval_seconds?: number;
};

export interface JobInput {
  name?: string | null;
  destination_conf?: string;
  dataset?: string | null;
  logpull_options?: string | null;
  ownership_challenge?: string;
  filter?: string | null;
  enabled?: boolean;
  frequency?: 'high' | 'low' | null;
  kind?: string;
  output_options?: OutputOptions | null;
  max_upload_bytes?: number;
  max_upload_records?: number;
  max_upload_interval_seconds?: number;
}

const TIMESTAMPS = ['rfc3339', 'unix', 'unixnano'];
const LIMIT_CODES = new Set(['too-many-operators', 'too-large', 'too-deep']);
/**
 * A filter string past this is refused as too large before it is checked: the limit is 1000 bytes, and checking a
 * megabyte of filter would hold up every other request for a noticeable time (the server is one thread).
 */
export const MAX_FILTER_TEXT = 64 * 1024;

export function findJob(zone: JobScope, id: string): Job {
  const n = /^[0-9]+$/.test(id) ? Number(id) : NaN;
  const job = zone.jobs.find((j) => j.id === n);
  if (!job) throw notFound('jobNotFound', `log export job ${id} not found`);
  return job;
}

function checkDataset(dataset: string): void {
  if (!getDataset(dataset)) throw badRequest('datasetInvalid', `dataset: unknown dataset "${dataset}"`, '/dataset');
}

export function checkDestination(dest: string): void {
  let url: URL;
  try {
    url = new URL(dest);
  } catch {
    throw badRequest('jobInvalid', 'destination_conf: not a URL (for example s3://bucket/path?region=us-east-1)', '/destination_conf');
  }
  if (url.protocol === 's3:' && !url.searchParams.get('region')) {
    throw badRequest('jobInvalid', 'destination_conf: an s3 destination needs a region query parameter', '/destination_conf');
  }
}

function decodeOption(key: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest('logpullOptions', `logpull_options: ${clip(key)} has malformed percent-encoding`, '/logpull_options');
  }
}

/** `fields=A,B&timestamps=rfc3339&CVE-2021-44228=true`: known options only, field names of the dataset. */
export function parseLogpullOptions(options: string, dataset: string): Record<string, string> {
  // User keys (`toString`, `__proto__`) must not find Object.prototype's: no prototype.
  const out = Object.create(null) as Record<string, string>;
  const text = logpullQuery(options);
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const value = eq < 0 ? '' : decodeOption(key, part.slice(eq + 1));
    if (key in out) throw badRequest('logpullOptions', `logpull_options: ${clip(key)} given twice`, '/logpull_options');
    switch (key) {
      case 'fields': {
        const names = value.split(',');
        const schema = getDataset(dataset);
        for (const f of names) {
          if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(f)) throw badRequest('logpullOptions', `logpull_options: fields: "${f}" is not a field name`, '/logpull_options');
          if (schema && !schema.byName.has(f)) throw badRequest('logpullOptions', `logpull_options: fields: ${f} is not a field of ${dataset}`, '/logpull_options');
        }
        break;
      }
      case 'timestamps':
        if (!TIMESTAMPS.includes(value)) throw badRequest('logpullOptions', `logpull_options: timestamps must be one of ${TIMESTAMPS.join(', ')}`, '/logpull_options');
        break;
      case 'CVE-2021-44228':
        if (value !== 'true' && value !== 'false') throw badRequest('logpullOptions', 'logpull_options: CVE-2021-44228 must be true or false', '/logpull_options');
        break;
      case 'sample': {
        const n = Number(value);
        if (!(n > 0 && n <= 1)) throw badRequest('logpullOptions', 'logpull_options: sample must be a number in (0, 1]', '/logpull_options');
        break;
      }
      case 'start':
      case 'end':
        // A copied logpull call's time range: the job sets start and end itself (the provider's schema), so they are kept and not read.
        break;
      default:
        throw badRequest('logpullOptions', `logpull_options: unknown option "${clip(key)}" (known: fields, timestamps, sample, CVE-2021-44228; start and end of a copied logpull call)`, '/logpull_options');
    }
    out[key] = value;
  }
  return out;
}

function pathText(path: readonly (string | number)[] | undefined): string {
  if (!path || path.length === 0) return 'filter';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

/** The job's filter string must hold a filter document that passes every check of the core, limits included. */
export function checkFilter(filter: string, dataset: string): void {
  if (filter.length > MAX_FILTER_TEXT) {
    throw badRequest('filterTooLarge', `filter: too-large: the filter string has ${filter.length} characters; a filter holds at most 1000 bytes (strings over ${MAX_FILTER_TEXT} characters are not checked further)`, '/filter');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch {
    throw badRequest('filterNotJson', 'filter: not a JSON document; the filter field carries the filter object as a JSON string', '/filter');
  }
  // The core's check also takes the JSON-encoded string of a filter (a convenience of the CLI); in a job's field
  // that is the filter encoded twice, which the provider cannot read (a user trip of the API facts, section 4).
  if (typeof parsed === 'string') {
    throw badRequest('filterNotJson', 'filter: encoded twice: the field holds a JSON string of the filter\'s JSON; send the filter object encoded once ({"where": ...} as a string)', '/filter');
  }
  const result = check(filter, { dataset });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length === 0) return;
  const first = errors.find((d) => LIMIT_CODES.has(d.code)) ?? errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw badRequest(LIMIT_CODES.has(first.code) ? 'filterTooLarge' : 'filterInvalid', `filter: ${first.code} at ${pathText(first.path)}: ${first.message}${more}`, '/filter');
}

function normalizedFilter(filter: string | null | undefined): string | null {
  return filter === undefined || filter === null || filter.trim() === '' ? null : filter;
}

export function createJob(state: EmulatorState, zone: JobScope, body: JobInput & { destination_conf: string }): Job {
  const dataset = body.dataset ?? 'http_requests';
  checkDataset(dataset);
  checkDestination(body.destination_conf);
  const logpull = body.logpull_options ?? null;
  if (logpull) parseLogpullOptions(logpull, dataset);
  const filter = normalizedFilter(body.filter);
  if (filter) checkFilter(filter, dataset);
  checkKind(body.kind);
  // The provider's schema: "Edge Log Delivery is only supported for the http_requests dataset".
  if (body.kind === 'edge' && dataset !== 'http_requests') throw badRequest('jobInvalid', `kind: an edge job exports http_requests, not ${dataset}`, '/kind');
  checkOutputOptions(body.output_options, dataset);
  checkUploadLimits(body as unknown as Record<string, unknown>);
  checkChallenge(zone, body.destination_conf, body.ownership_challenge);
  const job: FullJob = {
    id: state.nextJobId++,
    name: body.name ?? null,
    dataset,
    destination_conf: body.destination_conf,
    logpull_options: logpull || null,
    filter,
    enabled: body.enabled ?? false,
    frequency: body.frequency ?? 'high',
    created_at: new Date().toISOString(),
    last_complete: null,
    last_error: null,
    error_message: null,
    // `kind` is answered only for edge jobs: the provider's schema allows "edge" or no kind (its "" is the default).
    ...(body.kind === 'edge' ? { kind: 'edge' } : {}),
    output_options: body.output_options ?? null,
  };
  setUploadLimits(job, body);
  zone.jobs.push(job);
  return job;
}

export function updateJob(zone: JobScope, job: Job, body: JobInput): Job {
  if (body.dataset != null && body.dataset !== job.dataset) {
    throw badRequest('datasetInvalid', `dataset: a job's dataset cannot change (${job.dataset}); create a new job`, '/dataset');
  }
  const full = job as FullJob;
  // `kind` is nullable in the provider's schema: null is "not given" (unchanged), as on create.
  if (body.kind != null && body.kind !== (full.kind ?? '')) throw badRequest('jobInvalid', `kind: a job's kind cannot change (${JSON.stringify(full.kind ?? '')}); create a new job`, '/kind');
  if (body.destination_conf !== undefined) checkDestination(body.destination_conf);
  if (body.logpull_options) parseLogpullOptions(body.logpull_options, job.dataset);
  checkOutputOptions(body.output_options, job.dataset);
  checkUploadLimits(body as unknown as Record<string, unknown>);
  if (body.destination_conf !== undefined && body.destination_conf !== job.destination_conf) checkChallenge(zone, body.destination_conf, body.ownership_challenge);
  const filter = body.filter === undefined ? job.filter : normalizedFilter(body.filter);
  if (body.filter !== undefined && filter) checkFilter(filter, job.dataset);
  // Validate everything first so that a rejected update changes nothing.
  if (body.name !== undefined) job.name = body.name;
  if (body.destination_conf !== undefined) job.destination_conf = body.destination_conf;
  if (body.logpull_options !== undefined) job.logpull_options = body.logpull_options || null;
  job.filter = filter;
  if (body.enabled !== undefined) job.enabled = body.enabled;
  if (body.frequency != null) job.frequency = body.frequency;
  if (body.output_options !== undefined) full.output_options = body.output_options;
  setUploadLimits(full, body);
  return job;
}

/**
 * The upload limits given: a value in range is kept; 0 or null means "not set" and is answered as absent, as the
 * provider's schema has no 0 in the ranges.
 */
function setUploadLimits(job: FullJob, body: JobInput): void {
  for (const name of Object.keys(UPLOAD_LIMITS) as (keyof typeof UPLOAD_LIMITS)[]) {
    const value = body[name];
    if (value === undefined) continue;
    if (value === null || value === 0) delete job[name];
    else job[name] = value;
  }
}

export function deleteJob(zone: JobScope, job: Job): void {
  zone.jobs = zone.jobs.filter((j) => j !== job);
}
