/**
 * A whole query around the expression: `SELECT * FROM <source> WHERE <expr>;` where the source is a table
 * or a file glob read with the dataset's column definitions (so absent fields stay NULL and types are the
 * ones the expression was written for).
 */
import { DEFAULT_DATASET, getDataset } from '../filter/datasets/index.js';
import type { FilterDocument } from '../filter/filter.js';
import { columnTypeOf } from './columns.js';
import { getDialect, type Dialect, type ScanColumn } from './dialects.js';
import { resolveColumn, toSql, type ToSqlOptions, type ToSqlResult } from './to-sql.js';
import { expectOptionalString, optionsOf } from '../lang/guards.js';

export interface SqlQueryOptions extends ToSqlOptions {
  /** A table (`logs`, `db.logs`) or a file path or glob (`logs/*.ndjson.gz`, `x.parquet`). Default `logs`. */
  from?: string;
}

/** Something with a slash, a wildcard or a file extension is a file; anything else is a table name. */
export function isFileSource(from: string): boolean {
  return /[/*?{]/.test(from) || /\.(json|ndjson|jsonl|log|gz|zst|parquet)$/i.test(from);
}

export function toSqlQuery(filter: FilterDocument | string, options: SqlQueryOptions): ToSqlResult {
  options = optionsOf(options, 'toSqlQuery') as SqlQueryOptions;
  expectOptionalString(options.from, 'toSqlQuery', 'from');
  const result = toSql(filter, options);
  const dialect = getDialect(options.dialect);
  if (!result.ok || !dialect) return result;
  const source = sourceSql(dialect, options.from ?? 'logs', result.fields, options);
  return { ...result, sql: `SELECT * FROM ${source} WHERE ${result.sql};` };
}

function sourceSql(d: Dialect, from: string, filterFields: string[], options: SqlQueryOptions): string {
  if (!isFileSource(from)) return from.split('.').map((part) => d.ident(part)).join('.');
  if (/\.parquet$/i.test(from)) return d.name === 'duckdb' ? `read_parquet(${d.string(from)})` : `file(${d.string(from)}, 'Parquet')`;
  // NDJSON: declare every field of the dataset (SELECT * returns them all), then any other field the filter reads.
  const schema = getDataset(options.dataset ?? DEFAULT_DATASET);
  const all = [...(schema?.fields ?? []).map((f) => f.name), ...filterFields];
  return d.readNdjson(from, scanColumnTypes(d, all, options));
}

/**
 * Column definitions for a scan that reads `fields` (each once): types from the caller's mapping, else the
 * dataset, else text — the same resolution the expression was written with.
 */
export function scanColumns(d: Dialect, fields: Iterable<string>, options: Pick<ToSqlOptions, 'dataset' | 'columns'>): string {
  return d.columnList(scanColumnTypes(d, fields, options).map((c) => d.columnDefinition(c.name, c.type)));
}

/** The same columns as names and engine types (what `Dialect.readNdjson` takes). */
export function scanColumnTypes(d: Dialect, fields: Iterable<string>, options: Pick<ToSqlOptions, 'dataset' | 'columns'>): ScanColumn[] {
  const schema = getDataset(options.dataset ?? DEFAULT_DATASET);
  const columns: ScanColumn[] = [];
  for (const key of new Set(fields)) {
    const f = schema?.byName.get(key);
    const col = resolveColumn(key, d, schema, options.columns ?? {});
    columns.push({ name: key, type: f && col.type === f.type ? columnTypeOf(d, f) : d.columnType(col.kind, false) });
  }
  return columns;
}
