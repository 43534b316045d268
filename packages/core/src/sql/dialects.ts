/**
 * One table per SQL engine: how it quotes, spells literals and functions, and types columns. The generator
 * (to-sql.ts) and the column definitions (columns.ts) only ever ask this table, so a new engine is one more
 * entry. Facts per engine: function names, NULL behaviour, ClickHouse's defaults for absent JSON fields.
 */
import type { ColumnKind } from './kinds.js';

export type SqlDialectName = 'duckdb' | 'clickhouse';

export const SQL_DIALECTS: readonly SqlDialectName[] = ['duckdb', 'clickhouse'];

/** Accessors of a column holding either a number or a string (`int or string` fields). */
/**
 * DuckDB's type for each column kind: the one table the SQL back end and the CLI's DuckDB engine (which reads
 * NDJSON with json_transform) both derive their types from.
 */
export const DUCKDB_COLUMN_TYPES: Readonly<Record<ColumnKind, string>> = {
  string: 'VARCHAR',
  int: 'BIGINT',
  float: 'DOUBLE',
  bool: 'BOOLEAN',
  'int-or-string': 'JSON',
  json: 'JSON',
  'array-string': 'VARCHAR[]',
  'array-int': 'BIGINT[]',
  'array-json': 'JSON[]',
};

export interface MixedAccess {
  isString(c: string): string;
  text(c: string): string;
  isInteger(c: string): string;
  integer(c: string): string;
  isDouble(c: string): string;
  double(c: string): string;
}

/** A column of a file scan: the key it reads and the engine type it is read as. */
export interface ScanColumn {
  name: string;
  type: string;
}

export interface Dialect {
  readonly name: SqlDialectName;
  ident(name: string): string;
  /** A string literal holding exactly `s` (any code points, NUL included). */
  string(s: string): string;
  /** A double literal from `doubleText` (`inf`/`-inf` included). */
  double(text: string): string;
  /** An integer literal typed as a 64-bit integer (array elements must share one type). */
  int64(text: string): string;
  readonly true: string;
  readonly false: string;
  startsWith(s: string, x: string): string;
  endsWith(s: string, x: string): string;
  /** Substring test; an empty needle holds. */
  containsText(s: string, x: string): string;
  arrayHas(a: string, x: string): string;
  arrayHasAny(a: string, items: string[]): string;
  /** Some element `x` of `a` satisfies `predicate` (written over the variable `x`). */
  arrayExists(a: string, predicate: (x: string) => string): string;
  /** `s` matches the RE2 `pattern` as a whole (the patterns used are anchored). */
  matches(s: string, pattern: string): string;
  /** Text to a 128-bit integer, NULL when it does not convert. */
  tryInteger(s: string): string;
  /** Text to a double, NULL when it does not convert. */
  tryDouble(s: string): string;
  /**
   * How an `int or string` column tells a number from a string; absent when the engine's column is text
   * (a number then reads as its JSON digits, and compares as a number only through its text).
   */
  readonly mixed?: MixedAccess;
  /** Column names that differ only in case name one column (DuckDB: identifiers are case-insensitive). */
  readonly caseInsensitiveNames: boolean;
  /** Arrays are never NULL in this engine (an absent array reads as empty). */
  readonly arraysNeverNull: boolean;
  /** The column type for a field of this kind; `lowCardinality` for strings with a small documented domain. */
  columnType(kind: ColumnKind, lowCardinality: boolean): string;
  /** One column definition in the dialect's list form. */
  columnDefinition(name: string, type: string): string;
  /** The column definitions joined as the engine takes them (`{...}` struct, or a column list). */
  columnList(definitions: string[]): string;
  /**
   * A table scan of NDJSON files (`glob`) with these columns, each read from the key of exactly its name
   * (names are case-sensitive in the language).
   */
  readNdjson(glob: string, columns: readonly ScanColumn[]): string;
}

const duckdb: Dialect = {
  name: 'duckdb',
  ident: (name) => `"${name.replace(/"/g, '""')}"`,
  // Standard strings: only the quote is special (backslashes are literal); NUL cannot appear in SQL text.
  string: (s) => joinNul(s, (part) => `'${part.replace(/'/g, "''")}'`, (parts) => parts.join(' || chr(0) || ')),
  double: (t) => (t === 'inf' ? `'inf'::DOUBLE` : t === '-inf' ? `'-inf'::DOUBLE` : t),
  int64: (t) => t,
  true: 'true',
  false: 'false',
  startsWith: (s, x) => `starts_with(${s}, ${x})`,
  endsWith: (s, x) => `ends_with(${s}, ${x})`,
  containsText: (s, x) => `contains(${s}, ${x})`,
  arrayHas: (a, x) => `list_contains(${a}, ${x})`,
  arrayHasAny: (a, items) => `list_has_any(${a}, [${items.join(', ')}])`,
  arrayExists: (a, p) => `len(list_filter(${a}, lambda x: ${p('x')})) > 0`,
  matches: (s, pattern) => `regexp_full_match(${s}, ${duckdb.string(pattern)})`,
  tryInteger: (s) => `TRY_CAST(${s} AS HUGEINT)`,
  tryDouble: (s) => `TRY_CAST(${s} AS DOUBLE)`,
  // `int or string` fields are JSON columns: json_type tells a number from a string.
  mixed: {
    isString: (c) => `json_type(${c}) = 'VARCHAR'`,
    text: (c) => `(${c} ->> '$')`,
    isInteger: (c) => `json_type(${c}) IN ('BIGINT', 'UBIGINT')`,
    integer: (c) => `TRY_CAST(${c} AS HUGEINT)`,
    isDouble: (c) => `json_type(${c}) = 'DOUBLE'`,
    double: (c) => `TRY_CAST(${c} AS DOUBLE)`,
  },
  caseInsensitiveNames: true,
  arraysNeverNull: false,
  columnType: (kind) => DUCKDB_COLUMN_TYPES[kind],
  columnDefinition: (name, type) => `${duckdb.string(name)}: '${type}'`,
  columnList: (defs) => `{${defs.join(', ')}}`,
  readNdjson: (glob, columns) =>
    `read_ndjson(${duckdb.string(glob)}, columns=${duckdb.columnList(columns.map((c) => duckdb.columnDefinition(c.name, c.type)))}, format='newline_delimited')`,
};

const clickhouse: Dialect = {
  name: 'clickhouse',
  ident: (name) => `\`${name.replace(/\\/g, '\\\\').replace(/`/g, '\\`')}\``,
  // Backslash escapes are always on in ClickHouse string literals.
  string: (s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\0/g, '\\0')}'`,
  double: (t) => t,
  // Literals take the smallest type that fits (UInt64 for 2^63-1): array literals mixing them have no common type.
  int64: (t) => `toInt64(${t})`,
  true: 'true',
  false: 'false',
  startsWith: (s, x) => `startsWith(${s}, ${x})`,
  endsWith: (s, x) => `endsWith(${s}, ${x})`,
  containsText: (s, x) => `position(${s}, ${x}) > 0`,
  arrayHas: (a, x) => `has(${a}, ${x})`,
  arrayHasAny: (a, items) => `hasAny(${a}, [${items.join(', ')}])`,
  arrayExists: (a, p) => `arrayExists(x -> ${p('x')}, ${a})`,
  matches: (s, pattern) => `match(${s}, ${clickhouse.string(pattern)})`,
  tryInteger: (s) => `toInt128OrNull(${s})`,
  tryDouble: (s) => `toFloat64OrNull(${s})`,
  // `int or string` fields are text here (see `mixed` above): with its default settings ClickHouse reads a
  // JSON string that looks like a number into a Variant's Int64, and infers DateTime64 for RFC 3339 strings
  // in a Dynamic column, so neither keeps the string intact. A String column holds a number's JSON digits.
  // ClickHouse has no Nullable(Array(...)): an absent array reads as []. Every operator gives an empty
  // array the same answer as an absent one, so nothing is lost.
  caseInsensitiveNames: false,
  arraysNeverNull: true,
  columnType(kind, lowCardinality) {
    switch (kind) {
      case 'string':
        // Nullable: an absent string must stay distinguishable from "" (`x != ""` holds for absent).
        return lowCardinality ? 'LowCardinality(Nullable(String))' : 'Nullable(String)';
      case 'int':
        return 'Nullable(Int64)';
      case 'float':
        return 'Nullable(Float64)';
      case 'bool':
        return 'Nullable(Bool)';
      case 'int-or-string':
        return lowCardinality ? 'LowCardinality(Nullable(String))' : 'Nullable(String)';
      case 'json':
        return 'Nullable(String)';
      case 'array-string':
      case 'array-json':
        return 'Array(String)';
      case 'array-int':
        return 'Array(Int64)';
    }
  },
  columnDefinition: (name, type) => `${clickhouse.ident(name)} ${type}`,
  columnList: (defs) => defs.join(', '),
  readNdjson: clickhouseScan,
};

/**
 * ClickHouse's JSONEachRow matches a key regardless of case when the exact one is missing or comes later
 * (`{"a":"x","A":"y"}` reads `A` as "x"), and no setting turns that off (chdb 3.4, ClickHouse 26.7). So each
 * object is read as text (JSONAsString: blank lines skipped, a malformed line is an error with its row) and
 * the columns are extracted by their exact names in one JSONExtract into a tuple. JSONExtract reads the same
 * types as JSONEachRow did, but it cannot read a line holding an integer beyond 64 bits (it sees the whole line
 * as invalid, every field NULL): such a line is refused (throwIf) instead of read as if its fields were absent.
 */
function clickhouseScan(glob: string, columns: readonly ScanColumn[]): string {
  if (!columns.length) return `file(${clickhouse.string(glob)}, 'JSONAsString', 'json String')`;
  const tuple = `Tuple(${columns.map((c) => `${clickhouse.ident(c.name)} ${c.type}`).join(', ')})`;
  const checked = `if(JSONType(json) = 'Object', json, toString(throwIf(JSONType(json) != 'Object', ${clickhouse.string(UNREADABLE_LINE)})))`;
  const select = columns.map((c, i) => `tupleElement(__line, ${i + 1}) AS ${clickhouse.ident(c.name)}`).join(', ');
  const objects = `file(${clickhouse.string(glob)}, 'JSONAsString', 'json String')`;
  return `(SELECT ${select} FROM (SELECT JSONExtract(${checked}, ${clickhouse.string(tuple)}) AS __line FROM ${objects}))`;
}

const UNREADABLE_LINE = "a log line is JSON that ClickHouse's JSON functions cannot read (an integer beyond 64 bits, or invalid UTF-8)";

/** Splits at NUL characters so that a dialect without a NUL escape can join literal parts around chr(0). */
function joinNul(s: string, literal: (part: string) => string, join: (parts: string[]) => string): string {
  if (!s.includes('\0')) return literal(s);
  return `(${join(s.split('\0').map(literal))})`;
}

export const DIALECTS: ReadonlyMap<SqlDialectName, Dialect> = new Map([
  ['duckdb', duckdb],
  ['clickhouse', clickhouse],
]);

export function getDialect(name: string): Dialect | undefined {
  return DIALECTS.get(name as SqlDialectName);
}
