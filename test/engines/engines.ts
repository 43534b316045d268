/**
 * The real engines, for the differential tests: DuckDB (`@duckdb/node-api`, a dev dependency) and ClickHouse
 * in-process through chdb, installed by `scripts/install-chdb.sh` into a cache directory outside node_modules.
 * Each runs many filter expressions over one NDJSON file in a single scan and returns, per expression, the
 * value it had on every row (by the `__row` number the tests put first in every line).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { getDialect, scanColumnTypes, type SqlDialectName } from '@logfilter/core';

/** Where the install script puts chdb (override with LOGFILTER_CHDB_DIR). */
export const CHDB_DIR = process.env.LOGFILTER_CHDB_DIR ?? '/tmp/logfilter-chdb';

export interface Engine {
  readonly dialect: SqlDialectName;
  /**
   * Evaluates every expression on every row of the NDJSON file. Row values: true, false, or null (an
   * expression must never give null: the generated SQL is two-valued).
   */
  run(file: string, fields: string[], dataset: string, expressions: string[]): Promise<(boolean | null)[][]>;
  close(): Promise<void>;
}

function scanSql(dialect: SqlDialectName, file: string, fields: string[], dataset: string): string {
  const d = getDialect(dialect)!;
  const row = { name: '__row', type: dialect === 'duckdb' ? 'BIGINT' : 'UInt32' };
  return d.readNdjson(file, [row, ...scanColumnTypes(d, fields, { dataset })]);
}

/** Batches keep each statement a reasonable size (hundreds of generated expressions per file). */
const BATCH = 64;

export async function openDuckDb(): Promise<Engine> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await db.connect();
  return {
    dialect: 'duckdb',
    async run(file, fields, dataset, expressions) {
      const out: (boolean | null)[][] = expressions.map(() => []);
      for (let b = 0; b < expressions.length; b += BATCH) {
        const batch = expressions.slice(b, b + BATCH);
        const cols = batch.map((e, i) => `(${e}) AS e${i}`).join(', ');
        const reader = await conn.runAndReadAll(`SELECT __row, ${cols} FROM ${scanSql('duckdb', file, fields, dataset)} ORDER BY __row`);
        for (const row of reader.getRows()) batch.forEach((_, i) => out[b + i]!.push(row[i + 1] as boolean | null));
      }
      return out;
    },
    async close() {
      conn.closeSync();
      db.closeSync();
    },
  };
}

/** chdb when installed; otherwise the reason it is not. */
export function chdbStatus(): { ok: true; path: string } | { ok: false; reason: string } {
  const pkg = path.join(CHDB_DIR, 'node_modules', 'chdb');
  if (!fs.existsSync(path.join(pkg, 'package.json'))) return { ok: false, reason: `chdb is not installed in ${CHDB_DIR} (run scripts/install-chdb.sh)` };
  return { ok: true, path: pkg };
}

export async function openClickHouse(): Promise<Engine> {
  const status = chdbStatus();
  if (!status.ok) throw new Error(status.reason);
  const require = createRequire(import.meta.url);
  const chdb = require(status.path) as { query(sql: string, format: string): string };
  return {
    dialect: 'clickhouse',
    async run(file, fields, dataset, expressions) {
      const out: (boolean | null)[][] = expressions.map(() => []);
      for (let b = 0; b < expressions.length; b += BATCH) {
        const batch = expressions.slice(b, b + BATCH);
        const cols = batch.map((e, i) => `(${e}) AS e${i}`).join(', ');
        const sql = `SELECT __row, ${cols} FROM ${scanSql('clickhouse', file, fields, dataset)} ORDER BY __row`;
        const text = chdb.query(sql, 'JSONCompactEachRow');
        for (const line of text.split('\n')) {
          if (!line) continue;
          const row = JSON.parse(line) as (number | boolean | null)[];
          batch.forEach((_, i) => {
            const v = row[i + 1];
            out[b + i]!.push(v === null || v === undefined ? null : v === true || v === 1);
          });
        }
      }
      return out;
    },
    async close() {},
  };
}
