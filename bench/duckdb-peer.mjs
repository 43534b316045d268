#!/usr/bin/env node
/**
 * The evaluator bench's peer: DuckDB `read_ndjson` over the same files, with only the filter's fields declared
 * (types from the dataset schema) and two threads, counting lines and matches as `logfilter eval --json` does.
 * Run as its own process so that its start-up is measured like ours.
 *
 *   node bench/duckdb-peer.mjs FILTER.json 'FILES-OR-GLOB' [--threads 2]
 *
 * The filter becomes SQL with the evaluator's semantics on the declared types (docs/language.md): a negative
 * operator holds on an absent or null field, a positive one does not.
 */
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';
import { getDataset, filterFields } from '../packages/core/dist/index.js';

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

export function query(filter, files, dataset) {
  const types = declaredColumns(filter, dataset);
  const columns = Object.entries(types).map(([k, t]) => `${lit(k)}: '${SQL_TYPES[t]}'`).join(', ');
  const source = Array.isArray(files) ? `[${files.map(lit).join(', ')}]` : lit(files);
  return `SELECT count(*) AS total, count(*) FILTER (WHERE ${toSql(filter.where, types)}) AS matched FROM read_ndjson(${source}, columns = {${columns}}, records = true, format = 'newline_delimited')`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const filter = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const files = process.argv[3];
  const ti = process.argv.indexOf('--threads');
  const threads = ti > 0 ? process.argv[ti + 1] : '2';
  const db = await DuckDBInstance.create(':memory:', { threads });
  const con = await db.connect();
  const rows = (await con.runAndReadAll(query(filter, files))).getRowObjects();
  process.stdout.write(JSON.stringify({ total: Number(rows[0].total), matched: Number(rows[0].matched) }));
}
