#!/usr/bin/env node
/**
 * The evaluator bench's peer: DuckDB running one query (bench/duckdb-sql.mjs writes it: `read_ndjson` with the
 * filter's fields declared) with two threads, printing `{"total":…,"matched":…}` as `logfilter eval --json`
 * does. Run as its own process so that its start-up is measured like ours; it loads DuckDB and nothing else.
 *
 *   node bench/duckdb-peer.mjs QUERY.sql [--threads 2]
 */
import fs from 'node:fs';
import { DuckDBInstance } from '@duckdb/node-api';

const sql = fs.readFileSync(process.argv[2], 'utf8');
const ti = process.argv.indexOf('--threads');
const threads = ti > 0 ? process.argv[ti + 1] : '2';
const db = await DuckDBInstance.create(':memory:', { threads });
const con = await db.connect();
const rows = (await con.runAndReadAll(sql)).getRowObjects();
process.stdout.write(JSON.stringify({ total: Number(rows[0].total), matched: Number(rows[0].matched) }));
