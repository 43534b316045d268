/**
 * The SQL the evaluator bench's DuckDB peer runs: `read_ndjson` with only the filter's fields declared (types
 * from the dataset schema), counting lines and matches as `logfilter eval --json` does. Built in the bench's
 * own process, so the peer's measured run is DuckDB alone (a DuckDB user writes this query by hand; loading
 * our core to write it would be our start-up, not DuckDB's).
 *
 * The filter becomes SQL with the evaluator's semantics on the declared types (docs/language.md): a negative
 * operator holds on an absent or null field, a positive one does not.
 */
import { getDataset, filterFields } from '../packages/core/dist/logfilter-core.js';

const SQL_TYPES = { int: 'BIGINT', float: 'DOUBLE', bool: 'BOOLEAN', string: 'VARCHAR', 'array[string]': 'VARCHAR[]', 'array[int]': 'BIGINT[]' };

const lit = (v) => (typeof v === 'string' ? `'${v.replace(/'/g, "''")}'` : String(v));
const col = (k) => `"${k.replace(/"/g, '""')}"`;

/** The positive form of a condition, as SQL that is NULL or false when the field is absent. */
function positive(op, k, v, type) {
  const c = col(k);
  const isArray = type.startsWith('array');
  switch (op) {
    case 'eq':
      return `${c} = ${lit(v)}`;
    case 'lt':
      return `${c} < ${lit(v)}`;
    case 'leq':
      return `${c} <= ${lit(v)}`;
    case 'gt':
      return `${c} > ${lit(v)}`;
    case 'geq':
      return `${c} >= ${lit(v)}`;
    case 'startsWith':
      return `starts_with(${c}, ${lit(v)})`;
    case 'endsWith':
      return `ends_with(${c}, ${lit(v)})`;
    case 'contains':
      return isArray ? `list_contains(${c}, ${lit(v)})` : `contains(${c}, ${lit(v)})`;
    case 'in':
      return isArray ? `list_has_any(${c}, [${v.map(lit).join(', ')}])` : `${c} IN (${v.map(lit).join(', ')})`;
    default:
      throw new Error(`duckdb peer: operator ${op}`);
  }
}

export function toSql(node, types) {
  if ('and' in node) return `(${node.and.map((n) => toSql(n, types)).join(' AND ')})`;
  if ('or' in node) return `(${node.or.map((n) => toSql(n, types)).join(' OR ')})`;
  const neg = node.operator.startsWith('!');
  const p = positive(neg ? node.operator.slice(1) : node.operator, node.key, node.value, types[node.key]);
  return neg ? `(NOT coalesce(${p}, false))` : `coalesce(${p}, false)`;
}

export function declaredColumns(filter, dataset = 'http_requests') {
  const schema = getDataset(dataset);
  const types = {};
  for (const f of filterFields(filter)) {
    const t = schema.fields.find((x) => x.name === f)?.type ?? 'string';
    types[f] = SQL_TYPES[t] ? t : 'string';
  }
  return types;
}

/** The peer's query over `files` (one path, a glob, or a list of paths). */
export function query(filter, files, dataset) {
  const types = declaredColumns(filter, dataset);
  const columns = Object.entries(types).map(([k, t]) => `${lit(k)}: '${SQL_TYPES[t]}'`).join(', ');
  const source = Array.isArray(files) ? `[${files.map(lit).join(', ')}]` : lit(files);
  return `SELECT count(*) AS total, count(*) FILTER (WHERE ${toSql(filter.where, types)}) AS matched FROM read_ndjson(${source}, columns = {${columns}}, records = true, format = 'newline_delimited')`;
}
