/** The dataset schemas match the reference facts, and every field carries a description of our own. */
import { describe, it, expect } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DATASET_REFERENCE } from '../../../test/support/paths.js';
import { DATASETS, isFilterable } from '../src/filter/datasets/index.js';

interface ReferenceField {
  name: string;
  type: string;
  deprecated?: boolean;
  filterable?: boolean;
  values?: string[];
}

interface ReferenceDataset {
  dataset: string;
  fields: ReferenceField[];
}

const references: ReferenceDataset[] = readdirSync(DATASET_REFERENCE)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(DATASET_REFERENCE, f), 'utf8')) as ReferenceDataset);

const MAX_DESCRIPTION = 160;

describe('dataset reference', () => {
  it('has reference files', () => {
    expect(references.length).toBeGreaterThan(0);
  });

  it('has a schema for every reference dataset and no schema without one', () => {
    expect([...DATASETS.keys()].sort()).toEqual(references.map((r) => r.dataset).sort());
  });
});

describe.each(references.map((r) => [r.dataset, r] as const))('dataset %s', (name, ref) => {
  const schema = DATASETS.get(name);

  it('has a schema', () => {
    expect(schema).toBeDefined();
  });

  it('has the same field names in the same order', () => {
    expect(schema?.fields.map((f) => f.name)).toEqual(ref.fields.map((f) => f.name));
  });

  it('has the same type, deprecated and filterable flags, and values for every field', () => {
    for (const rf of ref.fields) {
      const f = schema?.byName.get(rf.name);
      expect(f, rf.name).toBeDefined();
      expect({ name: rf.name, type: f?.type }).toEqual({ name: rf.name, type: rf.type });
      expect({ name: rf.name, deprecated: f?.deprecated ?? false }).toEqual({ name: rf.name, deprecated: rf.deprecated ?? false });
      expect({ name: rf.name, filterable: f?.filterable ?? true }).toEqual({ name: rf.name, filterable: rf.filterable ?? true });
      expect({ name: rf.name, values: f?.values }).toEqual({ name: rf.name, values: rf.values });
    }
  });

  it('has unique field names', () => {
    const names = schema?.fields.map((f) => f.name) ?? [];
    expect(new Set(names).size).toBe(names.length);
    expect(schema?.byName.size).toBe(names.length);
  });

  it('has a description of its own', () => {
    const d = schema?.description.trim() ?? '';
    expect(d).not.toBe('');
    expect(d).not.toBe(name);
    expect(d.length).toBeLessThan(MAX_DESCRIPTION);
  });

  it('describes every field in a non-empty sentence that is not just the field name', () => {
    for (const f of schema?.fields ?? []) {
      const d = f.description.trim();
      expect(d, f.name).not.toBe('');
      expect(d.toLowerCase(), f.name).not.toBe(f.name.toLowerCase());
      expect(d.length, f.name).toBeLessThan(MAX_DESCRIPTION);
    }
  });

  it('marks object types and filterable: false fields as not filterable', () => {
    for (const f of schema?.fields ?? []) {
      const expected = f.type !== 'object' && f.type !== 'array[object]' && f.filterable !== false;
      expect({ name: f.name, filterable: isFilterable(f) }).toEqual({ name: f.name, filterable: expected });
    }
  });
});

describe('DATASETS (schemas built on first use)', () => {
  it('answers as a map: each key is its schema name, in one order through keys, values, entries and forEach', () => {
    const keys = [...DATASETS.keys()];
    expect(keys).toEqual(['dns_logs', 'firewall_events', 'http_requests', 'nel_reports', 'page_shield_events', 'spectrum_events']);
    expect(DATASETS.size).toBe(keys.length);
    expect([...DATASETS.values()].map((s) => s.name)).toEqual(keys);
    expect([...DATASETS].map(([k, s]) => [k, s.name])).toEqual(keys.map((k) => [k, k]));
    const seen: string[] = [];
    DATASETS.forEach((s, k, map) => {
      expect(map).toBe(DATASETS);
      seen.push(`${k}=${s.name}`);
    });
    expect(seen).toEqual(keys.map((k) => `${k}=${k}`));
    expect(new Map(DATASETS).get('dns_logs')).toBe(DATASETS.get('dns_logs'));
  });

  it('gives the same schema object each time, with every field by name, and nothing for an unknown name', () => {
    const a = DATASETS.get('firewall_events');
    expect(DATASETS.get('firewall_events')).toBe(a);
    expect(a?.byName.size).toBe(a?.fields.length);
    expect(DATASETS.has('any')).toBe(false);
    expect(DATASETS.get('any')).toBeUndefined();
    expect(DATASETS.get('toString')).toBeUndefined();
  });
});
