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

/**
 * The schemas by name, each built on its first use: the tables are ~220 field objects, and building them all
 * was part of every start of `compile-filter` and `eval`, which check against one dataset (callgrind: ~1 M
 * instructions of compile-filter's start). Names and order are known without building anything.
 */
class Schemas implements ReadonlyMap<string, DatasetSchema> {
  readonly #built = new Map<string, DatasetSchema>();
  constructor(readonly definitions: ReadonlyMap<string, () => DatasetDefinition>) {}

  get size(): number {
    return this.definitions.size;
  }
  has(name: string): boolean {
    return this.definitions.has(name);
  }
  get(name: string): DatasetSchema | undefined {
    const built = this.#built.get(name);
    if (built) return built;
    const define = this.definitions.get(name);
    if (!define) return undefined;
    const made = schema(define());
    this.#built.set(name, made);
    return made;
  }
  keys(): MapIterator<string> {
    return this.definitions.keys();
  }
  values(): MapIterator<DatasetSchema> {
    return [...this.definitions.keys()].map((name) => this.get(name)!)[Symbol.iterator]();
  }
  entries(): MapIterator<[string, DatasetSchema]> {
    return [...this.definitions.keys()].map((name): [string, DatasetSchema] => [name, this.get(name)!])[Symbol.iterator]();
  }
  [Symbol.iterator](): MapIterator<[string, DatasetSchema]> {
    return this.entries();
  }
  forEach(callback: (value: DatasetSchema, key: string, map: ReadonlyMap<string, DatasetSchema>) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }
}

/** Every dataset with a schema. `any` is not here: it means "no field checks". */
export const DATASETS: ReadonlyMap<string, DatasetSchema> = new Schemas(
  new Map([
    ['dns_logs', dns_logs],
    ['firewall_events', firewall_events],
    ['http_requests', http_requests],
    ['nel_reports', nel_reports],
    ['page_shield_events', page_shield_events],
    ['spectrum_events', spectrum_events],
  ]),
);

/** The dataset used when neither the source nor the caller names one. */
export const DEFAULT_DATASET = 'http_requests';

/** The special dataset that skips field checks but keeps syntax and limit checks. */
export const ANY_DATASET = 'any';

export function getDataset(name: string): DatasetSchema | undefined {
  return DATASETS.get(name);
}
