/**
 * Column kinds and column definitions: how each field of a dataset is stored in an engine's table. The
 * kind decides both the definition (`logfilter schema`) and the SQL the generator writes for a condition,
 * so the two always agree.
 */
import { getDataset, type FieldInfo, type FieldType } from '../filter/datasets/index.js';
import { closest } from '../lang/closest.js';
import { getDialect, type Dialect, type SqlDialectName } from './dialects.js';
import { columnKind } from './kinds.js';

export { columnKind, type ColumnKind } from './kinds.js';

/** Field types accepted where a caller names a column's type (the dataset tables' spellings). */
export const FIELD_TYPES: readonly FieldType[] = ['string', 'int', 'bool', 'float', 'int or string', 'array[string]', 'array[int]', 'object', 'array[object]'];

export interface SchemaOptions {
  dataset: string;
  dialect: SqlDialectName;
  /** Only these fields, in this order (default: every field of the dataset). */
  fields?: readonly string[];
}

export interface SchemaResult {
  ok: boolean;
  /** The definitions: DuckDB's `{'Field': 'TYPE', ...}` struct for `read_ndjson(columns=...)`, or ClickHouse's column list. */
  text?: string;
  /** Each column's name and type, in order. */
  columns: { name: string; type: string }[];
  /** What is wrong when not ok: an unknown dataset or dialect, or unknown fields (with near names). */
  errors: { code: 'unknown-dataset' | 'unknown-dialect' | 'unknown-field'; name: string; suggestions: string[] }[];
}

/** The column definitions of a dataset (or some of its fields) for an engine. */
export function columnDefinitions(options: SchemaOptions): SchemaResult {
  const dialect = getDialect(options.dialect);
  const schema = getDataset(options.dataset);
  const errors: SchemaResult['errors'] = [];
  if (!dialect) errors.push({ code: 'unknown-dialect', name: options.dialect, suggestions: ['duckdb', 'clickhouse'] });
  if (!schema) errors.push({ code: 'unknown-dataset', name: options.dataset, suggestions: [] });
  if (!dialect || !schema) return { ok: false, columns: [], errors };
  const fields: FieldInfo[] = [];
  // a field named twice is one column: an engine refuses a column defined twice (DuckDB: duplicate struct entry)
  for (const name of new Set(options.fields ?? schema.fields.map((f) => f.name))) {
    const f = schema.byName.get(name);
    if (f) fields.push(f);
    else errors.push({ code: 'unknown-field', name, suggestions: closest(name, schema.byName.keys(), 3) });
  }
  if (errors.length) return { ok: false, columns: [], errors };
  const columns = fields.map((f) => ({ name: f.name, type: columnTypeOf(dialect, f) }));
  return { ok: true, text: dialect.columnList(columns.map((c) => dialect.columnDefinition(c.name, c.type))), columns, errors };
}

/** The engine type of one field (strings with a small documented domain are LowCardinality in ClickHouse). */
export function columnTypeOf(dialect: Dialect, field: FieldInfo): string {
  return dialect.columnType(columnKind(field.type), field.values !== undefined);
}
