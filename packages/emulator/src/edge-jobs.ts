/**
 * Instant logs (`logexport/edge`, README, "Paths": instant logs): a session streaming a zone's http_requests over a WebSocket. Its
 * `filter` is the same language as a job's and is checked by the core; a value of the wrong type for its field
 * and operator is refused as the provider does, with its code and message
 * (`bad predicate: failed to decode value "\"200,201\"", supported kinds: []uint64`).
 */
import { randomBytes } from 'node:crypto';
import { check, getDataset } from '@logfilter/core';
import { badRequest, clip } from './errors.js';
import { checkFilter } from './jobs.js';
import type { ZoneState } from './state.js';
import { checkBodyFields } from './body-fields.js';
import type { EdgeJob } from '@logfilter/api';

const DATASET = 'http_requests';
/** The core's diagnostics that mean "this value does not decode as the field's type". */
const VALUE_TYPE_CODES = new Set(['value-type', 'in-needs-list']);
/** The provider's name of a field type's kind, for one value and for a list (`in`). */
const KINDS: Record<string, [one: string, list: string]> = {
  int: ['uint64', '[]uint64'],
  float: ['float64', '[]float64'],
  string: ['string', '[]string'],
  bool: ['bool', '[]bool'],
  'int or string': ['string', '[]string'],
};

// The job's shape is the client's (@logfilter/api), which the emulator answers with.
export type { EdgeJob };

type EdgeZone = ZoneState & { logexport_edge?: EdgeJob[] };

export function edgeJobs(zone: ZoneState): EdgeJob[] {
  return ((zone as EdgeZone).logexport_edge ??= []);
}

function at(doc: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((node, key) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key as string] : undefined), doc);
}

/** The provider's refusal of a wrongly typed value, when the core finds one; otherwise the job's own filter check. */
function checkEdgeFilter(filter: string): void {
  let doc: unknown;
  try {
    doc = JSON.parse(filter);
  } catch {
    return checkFilter(filter, DATASET); // answers filterNotJson
  }
  const typed = check(filter, { dataset: DATASET }).diagnostics.find((d) => d.severity === 'error' && VALUE_TYPE_CODES.has(d.code));
  if (typed?.path && typed.path[typed.path.length - 1] === 'value') {
    const condition = at(doc, typed.path.slice(0, -1)) as { key?: unknown; operator?: unknown; value?: unknown } | undefined;
    const field = typeof condition?.key === 'string' ? getDataset(DATASET)?.byName.get(condition.key) : undefined;
    const kinds = field ? KINDS[field.type] : undefined;
    if (kinds) {
      const kind = condition?.operator === 'in' || condition?.operator === '!in' ? kinds[1] : kinds[0];
      throw badRequest('edgeFilterValue', `bad predicate: failed to decode value ${JSON.stringify(clip(JSON.stringify(condition?.value)))}, supported kinds: ${kind}`, '/filter');
    }
  }
  checkFilter(filter, DATASET);
}

export function createEdgeJob(zone: ZoneState, input: unknown): EdgeJob {
  // As a job's body: JSON null, a list or a scalar is no job (an empty request body already reads as {}).
  if (input === null || typeof input !== 'object' || Array.isArray(input)) throw badRequest('jobInvalid', 'body: must be object');
  const body = input as Record<string, unknown>;
  checkBodyFields('edgeJob', body);
  const fields = body.fields ?? '';
  if (typeof fields !== 'string') throw badRequest('jobInvalid', 'fields: must be a comma-separated string of field names', '/fields');
  const schema = getDataset(DATASET)!;
  for (const name of fields.split(',').filter((f) => f !== '')) {
    if (!schema.byName.has(name)) throw badRequest('jobInvalid', `fields: ${clip(name)} is not a field of ${DATASET}`, '/fields');
  }
  const filter = body.filter ?? '';
  if (typeof filter !== 'string') throw badRequest('jobInvalid', 'filter: must be a string holding the filter as JSON', '/filter');
  if (filter.trim() !== '') checkEdgeFilter(filter);
  const sample = body.sample ?? 1;
  if (typeof sample !== 'number' || !Number.isInteger(sample) || sample < 1) throw badRequest('jobInvalid', 'sample: must be an integer of at least 1 (one record in that many)', '/sample');
  const session_id = randomBytes(16).toString('hex');
  const job: EdgeJob = { destination_conf: `wss://logs.emulator.invalid/instant-logs/ws/sessions/${session_id}`, fields, filter, sample, session_id };
  edgeJobs(zone).push(job);
  return job;
}
