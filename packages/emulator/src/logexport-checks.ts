/**
 * The log export calls that answer a question rather than change a job (README, "Paths": log export): a dataset's fields from the
 * core's tables, whether a destination already has a job, whether logpull options are valid.
 */
import { getDataset } from '@logfilter/core';
import { badRequest, clip, EmulatorError } from './errors.js';
import { parseLogpullOptions } from './jobs.js';
import type { JobScope } from './state.js';

/** `{FieldName: description}` for every field of the dataset, as the provider answers. */
export function datasetFields(dataset: string): Record<string, string> {
  const schema = getDataset(dataset);
  if (!schema) throw badRequest('datasetInvalid', `dataset: unknown dataset "${clip(dataset)}"`);
  return Object.fromEntries(schema.fields.map((f) => [f.name, f.description]));
}

export function destinationString(body: unknown): string {
  const dest = (body as { destination_conf?: unknown } | undefined)?.destination_conf;
  if (typeof dest !== 'string' || dest === '') throw badRequest('jobInvalid', 'destination_conf: required, a destination URL', '/destination_conf');
  if (dest.length > 4096) throw badRequest('jobInvalid', 'destination_conf: at most 4096 characters', '/destination_conf');
  try {
    new URL(dest);
  } catch {
    throw badRequest('jobInvalid', 'destination_conf: not a URL (for example s3://bucket/path?region=us-east-1)', '/destination_conf');
  }
  return dest;
}

export function destinationExists(zone: JobScope, destination: string): boolean {
  return zone.jobs.some((j) => j.destination_conf === destination);
}

/** `{valid, message}` for logpull options: valid, or the reason they are not (an answer, not an error). */
export function validateOrigin(body: unknown): { valid: boolean; message: string } {
  const b = body as { logpull_options?: unknown; dataset?: unknown } | undefined;
  if (b?.logpull_options === undefined) throw badRequest('logpullOptions', 'logpull_options: required (a string, or null)', '/logpull_options');
  if (b.logpull_options !== null && typeof b.logpull_options !== 'string') throw badRequest('logpullOptions', 'logpull_options: must be a string or null', '/logpull_options');
  const dataset = typeof b.dataset === 'string' ? b.dataset : 'http_requests';
  try {
    if (b.logpull_options) parseLogpullOptions(b.logpull_options, dataset);
    return { valid: true, message: '' };
  } catch (e) {
    if (e instanceof EmulatorError) return { valid: false, message: e.message };
    throw e;
  }
}
