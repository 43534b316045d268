/** The SQL back end: filters as DuckDB or ClickHouse expressions and queries, and the datasets as columns. */
export { toSql, treeToSql, resolveColumn, type SqlColumn, type ToSqlOptions, type ToSqlResult } from './to-sql.js';
export { toSqlQuery, isFileSource, scanColumns, scanColumnTypes, type SqlQueryOptions } from './query.js';
export { columnDefinitions, columnKind, columnTypeOf, FIELD_TYPES, type ColumnKind, type SchemaOptions, type SchemaResult } from './columns.js';
export { DIALECTS, DUCKDB_COLUMN_TYPES, SQL_DIALECTS, getDialect, type Dialect, type ScanColumn, type SqlDialectName } from './dialects.js';
export { exactNumber, JSON_NUMBER, JSON_INTEGER, type ExactNumber } from './numbers.js';
