/** The dataset schemas known to the core, by name. */
import type { DatasetDefinition, DatasetSchema } from './types.js';
import { dns_logs } from './dns_logs.js';
import { firewall_events } from './firewall_events.js';
import { http_requests } from './http_requests.js';
import { nel_reports } from './nel_reports.js';
import { page_shield_events } from './page_shield_events.js';
import { spectrum_events } from './spectrum_events.js';

export * from './types.js';
export { REMOVED_FIELDS, REMOVED_FIELDS_DATASETS } from './removed.js';

function schema(def: DatasetDefinition): DatasetSchema {
  return { ...def, byName: new Map(def.fields.map((f) => [f.name, f])) };
}

/** Every dataset with a schema. `any` is not here: it means "no field checks". */
export const DATASETS: ReadonlyMap<string, DatasetSchema> = new Map(
  [dns_logs, firewall_events, http_requests, nel_reports, page_shield_events, spectrum_events].map((d) => [d.name, schema(d)]),
);

/** The dataset used when neither the source nor the caller names one. */
export const DEFAULT_DATASET = 'http_requests';

/** The special dataset that skips field checks but keeps syntax and limit checks. */
export const ANY_DATASET = 'any';

export function getDataset(name: string): DatasetSchema | undefined {
  return DATASETS.get(name);
}
