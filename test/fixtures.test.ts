/**
 * The vendored fixtures (test/fixtures/, origins in SOURCES.md) keep their provenance: every filter record and
 * every log line names its public source, and every dataset reference table is a well-formed field list. (That
 * the tables agree with packages/core's datasets is packages/core/test/datasets.test.ts.)
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORPUS, DATASET_REFERENCE, FIXTURES } from './support/paths.js';

const jsonl = (file: string) =>
  readFileSync(path.join(CORPUS, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));

describe('vendored fixtures', () => {
  const sources = readFileSync(path.join(FIXTURES, 'SOURCES.md'), 'utf8');

  it('every filter record names its source, and SOURCES.md lists its record number', () => {
    const records = jsonl('filters.jsonl');
    expect(records.length).toBeGreaterThan(50);
    const listed = new Set([...sources.matchAll(/— records? ([0-9, ]+)$/gm)].flatMap((m) => m[1]!.split(',').map((n) => Number(n.trim()))));
    records.forEach((r, i) => {
      expect(typeof r.source === 'string' && r.source.length > 0, `record ${i + 1}`).toBe(true);
      expect(listed.has(i + 1), `record ${i + 1} in SOURCES.md`).toBe(true);
    });
  });

  it('every log line has its provenance record, line for line', () => {
    const logs = readdirSync(CORPUS).filter((f) => f.endsWith('.ndjson'));
    expect(logs.length).toBeGreaterThanOrEqual(4);
    for (const log of logs) {
      const lines = readFileSync(path.join(CORPUS, log), 'utf8').split('\n').filter((l) => l !== '');
      const prov = jsonl(log.replace(/\.ndjson$/, '.sources.jsonl'));
      expect(prov.map((p) => p.line), log).toEqual(lines.map((_, i) => i + 1));
      for (const p of prov) expect(typeof p.source === 'string' && p.source.length > 0, `${log}:${p.line}`).toBe(true);
      for (const l of lines) expect(typeof JSON.parse(l), log).toBe('object');
      expect(sources).toContain(log);
    }
  });

  it('every dataset reference table is a list of named, typed fields', () => {
    const tables = readdirSync(DATASET_REFERENCE).filter((f) => f.endsWith('.json'));
    expect(tables.length).toBeGreaterThanOrEqual(6);
    for (const t of tables) {
      const table = JSON.parse(readFileSync(path.join(DATASET_REFERENCE, t), 'utf8'));
      expect(table.dataset).toBe(t.replace(/\.json$/, ''));
      expect(table.fields.length).toBeGreaterThan(0);
      for (const f of table.fields) expect([typeof f.name, typeof f.type]).toEqual(['string', 'string']);
    }
  });
});
