/**
 * `logfilter eval --engine duckdb`: the filter as SQL (the core's `toSql`) run by an embedded DuckDB over
 * NDJSON (plain or gzip), Parquet, directories and globs. Loaded only when asked for: `@duckdb/node-api` is an
 * optional peer dependency, and its absence is a usage error naming the package.
 *
 * NDJSON is read with `read_json_objects` (each line's raw text, NULL for a line that is not JSON) and typed
 * with `json_transform` from the dataset tables, so one scan gives exact `total`, `matched` and `malformed`
 * counts and the matching lines unchanged for `--print`. Parquet rows are typed by a cast of each column the
 * filter reads to the dataset's type.
 */
import { isUtf8 } from 'node:buffer';
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { relative as relativePath } from 'node:path';
import { zlib } from './zlib-lazy.js';
import { createRequire } from 'node:module';
import { columnKind, DUCKDB_COLUMN_TYPES, getDataset, getDialect, scanColumns, toSql, type ColumnKind, type DatasetSchema, type SqlColumn } from '@logfilter/core';
import { CliError, EXIT_USAGE } from '../errors.js';
import { MALFORMED_REPORTED, type EvalResult, type MalformedLine } from './types.js';
import { expandLogArgs } from './inputs.js';
import { GUNZIP_OPTIONS, inspectFile, readError } from './sources.js';
import { gunzipMembers, TrailingJunkError } from './gzip-members.js';
import { ControlBlankCounter } from './control-blank-lines.js';
import { LenientLineFinder, lenientSql } from './lenient-json-lines.js';

/** The pinned version the project tests against (README, dependency list). */
export const DUCKDB_PACKAGE = '@duckdb/node-api@1.5.5-r.5';

export interface DuckDbEvalOptions {
  /** The filter JSON text (exact integers). */
  json: string;
  dataset: string;
  /** Paths as given (files, directories, globs), and the directory they are relative to. */
  inputs: string[];
  cwd: string;
  emit?: 'match' | 'other';
  onOutput?: (bytes: Uint8Array) => void | Promise<void>;
}

type DuckDbApi = typeof import('@duckdb/node-api');

async function loadDuckDb(): Promise<DuckDbApi> {
  try {
    // require, not import(): the package is CommonJS, and the eval bundle runs through a vm.Script (V8's code
    // cache, the loader in bin/compile-filter.cjs) where import() has no loader. Resolved from this file, as
    // import() would be.
    return createRequire(import.meta.url)('@duckdb/node-api') as DuckDbApi;
  } catch {
    throw new CliError(`--engine duckdb needs the ${DUCKDB_PACKAGE.split('@').slice(0, 2).join('@')} package: npm install ${DUCKDB_PACKAGE}`, EXIT_USAGE);
  }
}

/**
 * json_transform's type spelling for a column kind, from the SQL back end's DuckDB types (an array type
 * `T[]` is spelled `[T]` there). Strings, and arrays of JSON values, are read as JSON: see jsonReading in
 * evaluateWithDuckDb.
 */
function transformType(kind: ColumnKind): unknown {
  if (jsonReading(kind, '') || kind === 'array-json') return 'JSON';
  const type = DUCKDB_COLUMN_TYPES[kind];
  return type.endsWith('[]') ? [type.slice(0, -2)] : type;
}

/**
 * How a field of this kind is read from its JSON value (`c`), when DuckDB's own cast would change its meaning:
 * the column toSql reads (an expression, or the type whose views compare as the language does) and the test
 * for a value of the wrong type.
 */
function jsonReading(kind: ColumnKind, c: string): { column: SqlColumn; wrong: string } | undefined {
  const type = `json_type(${c})`;
  switch (kind) {
    case 'string':
      return { column: { sql: `(CASE WHEN ${type} = 'VARCHAR' THEN ${c} ->> '$' END)` }, wrong: `${type} NOT IN ('VARCHAR', 'NULL')` };
    case 'int':
    case 'float':
      // numbers and strings as an `int or string` field's: a numeric string reads as its number, others are text
      return { column: { type: 'int or string' }, wrong: `${type} IN ('BOOLEAN', 'ARRAY', 'OBJECT')` };
    case 'bool':
      return { column: { sql: `(CASE WHEN ${type} = 'BOOLEAN' THEN ${c}::BOOLEAN END)` }, wrong: `${type} NOT IN ('BOOLEAN', 'NULL')` };
    case 'array-string':
    case 'array-int': {
      const [sqlType, element] = kind === 'array-string' ? ['VARCHAR[]', `'VARCHAR'`] : ['HUGEINT[]', `'BIGINT', 'UBIGINT'`];
      return {
        column: { sql: `(CASE WHEN ${type} = 'ARRAY' THEN ${c}::${sqlType} END)` },
        wrong: `(${type} NOT IN ('ARRAY', 'NULL') OR (${type} = 'ARRAY' AND len(list_filter(json_extract(${c}, '$[*]'), e -> json_type(e) NOT IN (${element}, 'NULL'))) > 0))`,
      };
    }
    default:
      return undefined;
  }
}

const kindOf = (schema: DatasetSchema | undefined, field: string): ColumnKind => {
  const f = schema?.byName.get(field);
  return f ? columnKind(f.type) : 'string';
};

interface Expanded {
  /** NDJSON files by content: gzip (magic bytes 1f 8b) and plain, whatever their names. */
  gzip: string[];
  plain: string[];
  /** Both, in the order given (where malformed lines are looked for). */
  ndjson: string[];
  parquet: string[];
  bytes: number;
}

/**
 * The inputs as the built-in engine expands them (inputs.ts: directories, quoted patterns, files), each file
 * sorted by format. Parquet is known by its name; gzip by its first bytes, as sources.ts does: DuckDB's own
 * `compression='auto'` goes by the `.gz` name, and fails the run on a plain file so named.
 */
async function expand(inputs: string[], cwd: string): Promise<Expanded> {
  const out: Expanded = { gzip: [], plain: [], ndjson: [], parquet: [], bytes: 0 };
  for (const arg of await expandLogArgs(inputs, cwd)) {
    if (arg.kind === 'stdin') throw new CliError('--engine duckdb reads files, not standard input', EXIT_USAGE);
    if (arg.kind === 'error') throw new CliError(arg.message, EXIT_USAGE);
    const src = inspectFile(arg.name, arg.path); // throws the one-line I/O error naming the input
    out.bytes += src.size ?? 0;
    if (/\.parquet$/i.test(arg.path)) out.parquet.push(arg.path);
    else {
      (src.gzip ? out.gzip : out.plain).push(arg.path);
      out.ndjson.push(arg.path);
    }
  }
  return out;
}

/**
 * A file name as DuckDB's readers take it: they expand every name as a glob, so each glob character is put
 * in a one-character class (`[*]`, `[?]`, `[[]`) and the name matches itself only. A listed file is never
 * read twice, or not at all, because its name looks like a pattern.
 */
export function literalGlob(file: string): string {
  return file.replace(/[*?[]/g, (c) => `[${c}]`);
}

/**
 * DuckDB counts malformed lines but cannot say where they are: when there are some, the NDJSON files are
 * read again here, only until the first ones (as many as the built-in evaluator lists) are found.
 */
async function locateMalformed(files: string[], cwd: string, wanted: number): Promise<MalformedLine[]> {
  const found: MalformedLine[] = [];
  for (const file of files) {
    const head = Buffer.alloc(2);
    const fd = openSync(file, 'r');
    readSync(fd, head, 0, 2, 0);
    closeSync(fd);
    const raw = createReadStream(file);
    const input = head[0] === 0x1f && head[1] === 0x8b ? raw.pipe(zlib().createGunzip()) : raw;
    let n = 0;
    let rest = Buffer.alloc(0);
    // Lines as the evaluator splits them: on \n only (a \r inside a line is JSON white space, not a line end),
    // from the bytes (a line that is not UTF-8 is malformed, never read with U+FFFD in it).
    const line = (bytes: Buffer): boolean => {
      n++;
      const text = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
      if (/^[ \t\r]*$/.test(text.toString('latin1'))) return false;
      let ok = false;
      try {
        const v: unknown = isUtf8(text) ? JSON.parse(text.toString('utf8')) : undefined;
        ok = typeof v === 'object' && v !== null && !Array.isArray(v);
      } catch {
        ok = false;
      }
      if (!ok) found.push({ file: relativePath(cwd, file) || file, line: n });
      return found.length >= wanted;
    };
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const buf = rest.length ? Buffer.concat([rest, chunk]) : chunk;
      let from = 0;
      for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a, from)) {
        if (line(buf.subarray(from, nl))) {
          raw.destroy();
          return found;
        }
        from = nl + 1;
      }
      rest = Buffer.from(buf.subarray(from));
    }
    if (rest.length && line(rest)) return found;
  }
  return found;
}

/**
 * The one-line read error of the first gzip file that does not decompress whole, if any; and, from the same
 * inflated bytes, the lines of only white space with \f or \v that DuckDB skips (control-blank-lines.ts) and
 * whether a line is one DuckDB reads leniently (lenient-json-lines.ts).
 */
async function firstDamagedGzip(files: string[], cwd: string): Promise<{ damaged?: string; controlBlank: number; lenient: boolean; unreadable?: string }> {
  let controlBlank = 0;
  let lenient = false;
  let unreadable: string | undefined;
  for (const file of files) {
    const counter = new ControlBlankCounter();
    const finder = new LenientLineFinder();
    try {
      for await (const chunk of gunzipMembers(file, statSync(file).size, GUNZIP_OPTIONS)) {
        counter.push(chunk);
        finder.push(chunk);
      }
    } catch (e) {
      const name = relativePath(cwd, file) || file;
      // the built-in evaluator's message says it goes on past the junk; DuckDB does not
      return { damaged: e instanceof TrailingJunkError ? `cannot read ${name}: data after the last gzip member is not gzip` : readError({ name }, e).message, controlBlank, lenient };
    }
    controlBlank += counter.end();
    lenient = finder.end() || lenient;
    if (finder.unreadable) unreadable ??= relativePath(cwd, file) || file;
  }
  return { controlBlank, lenient, unreadable };
}

/**
 * The lines of only white space with \f or \v in plain NDJSON files, which DuckDB skips as blank and the
 * built-in evaluator counts malformed: read here alongside DuckDB's query (the reads are asynchronous, and the
 * main thread is idle while DuckDB's threads run it); a file without either byte costs two byte searches a chunk.
 */
async function controlBlankLines(files: string[], cwd: string): Promise<{ controlBlank: number; lenient: boolean; unreadable?: string }> {
  let n = 0;
  let lenient = false;
  let unreadable: string | undefined;
  for (const file of files) {
    const counter = new ControlBlankCounter();
    const finder = new LenientLineFinder();
    for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) {
      counter.push(chunk as Buffer);
      finder.push(chunk as Buffer);
    }
    n += counter.end();
    lenient = finder.end() || lenient;
    if (finder.unreadable) unreadable ??= relativePath(cwd, file) || file;
  }
  return { controlBlank: n, lenient, unreadable };
}

export async function evaluateWithDuckDb(o: DuckDbEvalOptions): Promise<EvalResult> {
  const started = performance.now();
  const { DuckDBInstance } = await loadDuckDb();
  const d = getDialect('duckdb')!;
  const schema = getDataset(o.dataset);
  const generated = toSql(o.json, { dialect: 'duckdb', dataset: o.dataset });
  if (!generated.ok) {
    throw new CliError(`--engine duckdb cannot run this filter: ${generated.diagnostics.map((x) => x.message).join('; ')}; the built-in evaluator can (no --engine)`, EXIT_USAGE);
  }
  const fields = generated.fields;
  // Fields are read as JSON and typed here, never by DuckDB's casts, which give values another meaning than the
  // language's: a number or a boolean becomes a string's digits (`{"ClientRequestHost":10}` would start with
  // "1"), " 30", "0x1E" or true an int (the language reads no number there), 30.5 the int 30, "true" or 1 a
  // boolean, [true] the string array ["true"] and the int array [1]. Numbers are read as the language reads them (a numeric
  // string included); a value of another type is reported as mistyped (below), never counted.
  const readings = new Map(fields.flatMap((f) => {
    // A field the dataset does not type (dataset any, a custom field) holds strings or numbers: read as an
    // `int or string` field's, so that a number is not refused as a string field's wrong type.
    const r = jsonReading(schema?.byName.has(f) ? kindOf(schema, f) : 'int', d.ident(f));
    return r ? [[f, r] as const] : [];
  }));
  const jsonFields = [...readings.keys()];
  const expr = toSql(o.json, {
    dialect: 'duckdb',
    dataset: o.dataset,
    columns: Object.fromEntries([...readings].map(([f, r]) => [f, r.column])),
  }).sql!;
  const scanAsJson = Object.fromEntries(jsonFields.map((f) => [f, { type: 'object' as const }]));
  const valueOf = (f: string) => {
    const c = readings.get(f)?.column;
    return typeof c === 'object' && c.sql !== undefined ? c.sql : d.ident(f);
  };

  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  let gzipFiles: string[] = [];
  try {
    const files = await expand(o.inputs, o.cwd);
    gzipFiles = files.gzip;
    // DuckDB reads a gzip file cut short without a word, counting its first part: each one is inflated here
    // too, alongside DuckDB's query (zlib works off the main thread), and a damaged one fails the run.
    const gzipCheck = firstDamagedGzip(files.gzip, o.cwd);
    const plainControlBlank = controlBlankLines(files.plain, o.cwd);
    // a rejection is read below, after the query; until then it must not count as unhandled
    plainControlBlank.catch(() => {});
    const list = (xs: string[]) => `[${xs.map((x) => d.string(literalGlob(x))).join(', ')}]`;
    // NDJSON read by `reader` with `args`, one scan per compression, as one table.
    const ndjsonGroups = [
      ['gzip', files.gzip],
      ['uncompressed', files.plain],
    ].filter(([, xs]) => xs!.length > 0) as [string, string[]][];
    const ndjsonScan = (reader: string, args: string) =>
      ndjsonGroups.length === 1
        ? `${reader}(${list(ndjsonGroups[0]![1])}, ${args}, compression='${ndjsonGroups[0]![0]}')`
        : `(${ndjsonGroups.map(([c, xs]) => `SELECT * FROM ${reader}(${list(xs)}, ${args}, compression='${c}')`).join(' UNION ALL ')})`;
    const ndjsonFiles = files.ndjson;
    // Each source gives the raw line (or row as JSON), whether it is a JSON object, and the typed columns.
    const sources: string[] = [];
    if (ndjsonFiles.length) {
      const struct = JSON.stringify(Object.fromEntries(fields.map((f) => [f, transformType(kindOf(schema, f))])));
      const columns = fields.map((f) => `, __r.${d.ident(f)} AS ${d.ident(f)}`).join('');
      sources.push(
        // an object only as JSON.parse reads one: DuckDB's reader also takes NaN, Infinity and trailing commas
        `SELECT __line, __file, coalesce(json_type(__line) = 'OBJECT' AND NOT ${lenientSql('__line')}, false) AS __object${columns} FROM (` +
          `SELECT json AS __line, filename AS __file, json_transform(CASE WHEN json_type(json) = 'OBJECT' THEN json END, ${d.string(struct)}) AS __r ` +
          `FROM ${ndjsonScan('read_json_objects', "format='newline_delimited', ignore_errors=true, filename=true")})`,
      );
    }
    if (files.parquet.length) {
      const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list(files.parquet)}, union_by_name=true)`)).getRows();
      const present = new Set(described.map((r) => String(r[0])));
      const cast = (f: string) => {
        if (!present.has(f)) return `NULL AS ${d.ident(f)}`;
        const kind = kindOf(schema, f);
        // to_json keeps a string a string and a number a number, as the JSON column of NDJSON does
        if (!schema?.byName.has(f) || kind === 'int-or-string' || kind === 'int' || kind === 'float' || kind === 'json' || kind === 'array-json') return `to_json(p.${d.ident(f)}) AS ${d.ident(f)}`;
        const typed = `TRY_CAST(p.${d.ident(f)} AS ${d.columnType(kind, false)})`;
        // Fields read as JSON are JSON here too (see readings).
        return `${readings.has(f) ? `to_json(${typed})` : typed} AS ${d.ident(f)}`;
      };
      sources.push(`SELECT to_json(p)::VARCHAR AS __line, true AS __object${fields.map((f) => `, ${cast(f)}`).join('')} FROM read_parquet(${list(files.parquet)}, union_by_name=true) p`);
    }
    const rows = `(${sources.join(' UNION ALL BY NAME ')})`;
    const held = `(__object AND (${expr}))`;

    const ndjsonOnly = ndjsonFiles.length > 0 && files.parquet.length === 0;
    const carried = fields.map((f) => `count(${valueOf(f)})`);
    // A field read as JSON holding a value of another type.
    const notText = (f: string) => readings.get(f)!.wrong;

    // Fast path for the usual well-formed NDJSON: read_ndjson with declared columns reads only the filter's
    // fields. Any error there (a malformed line, a value of the wrong type) sends us to the exact path, which
    // counts malformed lines and names mistyped values.
    let row: unknown[] | undefined;
    if (ndjsonOnly) {
      const scan = ndjsonScan('read_ndjson', `columns=${scanColumns(d, fields, { dataset: o.dataset, columns: scanAsJson })}, format='newline_delimited', records=true`);
      try {
        const wrongText = jsonFields.length ? `count(*) FILTER (WHERE ${jsonFields.map(notText).join(' OR ')})` : '0';
        const [r] = (await conn.runAndReadAll(`SELECT count(*), 0, count(*) FILTER (WHERE ${expr})${carried.map((x) => `, ${x}`).join('')}, ${wrongText} FROM ${scan}`)).getRows();
        // Mistyped strings: the exact path names them.
        row = Number(r![3 + fields.length]) === 0 ? r : undefined;
      } catch {
        row = undefined;
      }
      // read_ndjson takes NaN, Infinity and trailing commas too: a file holding such a line goes the exact way
      if (row && ((await gzipCheck).lenient || (await plainControlBlank).lenient)) row = undefined;
    }
    if (!row) {
      const at = (f: string) => d.string(`$.${JSON.stringify(f)}`);
      // A value json_transform could not give the field's type reads as NULL: count those, never lose them quietly.
      const typed = ndjsonOnly ? fields.filter((f) => readings.has(f) || !['int-or-string', 'json', 'array-json'].includes(kindOf(schema, f))) : [];
      const isMistyped = (f: string) =>
        readings.has(f) ? `(__object AND ${notText(f)})` : `(__object AND ${d.ident(f)} IS NULL AND json_type(__line, ${at(f)}) <> 'NULL')`;
      const mistyped = typed.map((f) => `count(*) FILTER (WHERE ${isMistyped(f)})`);
      const firstFile = typed.length ? [`min(__file) FILTER (WHERE ${typed.map(isMistyped).join(' OR ')})`] : [];
      // A key given twice: DuckDB reads its first value, the language (JSON.parse) the last. Only NDJSON can
      // hold one (read_ndjson above refuses it for a declared column, which sent the run here).
      const twice = (f: string) => `(__object AND len(list_filter(json_keys(__line), k -> k = ${d.string(f)})) > 1)`;
      const repeated = ndjsonFiles.length ? fields.map((f) => `min(__file) FILTER (WHERE ${twice(f)})`) : [];
      const countSql = `SELECT count(*), count(*) FILTER (WHERE NOT __object), count(*) FILTER (WHERE ${held})${[...carried, ...mistyped, ...firstFile, ...repeated].map((x) => `, ${x}`).join('')} FROM ${rows}`;
      [row] = (await conn.runAndReadAll(countSql)).getRows();
      const twiceAt = 3 + fields.length + typed.length + firstFile.length;
      const given = fields.map((f, i) => [f, row![twiceAt + i]] as const).filter(([, file]) => file !== null && file !== undefined);
      if (given.length) {
        const [f, file] = given[0]!;
        throw new CliError(
          `${relativePath(o.cwd, String(file))}: a line gives the key ${f} twice; DuckDB would read its first value, the language reads the last: use the built-in evaluator (no --engine)`,
          EXIT_USAGE,
        );
      }
      const wrong = typed.map((f, i) => [f, Number(row![3 + fields.length + i])] as const).filter(([, n]) => n > 0);
      if (wrong.length) {
        const list = wrong.map(([f, n]) => `${f} (${n} line${n === 1 ? '' : 's'}, expected ${schema?.byName.get(f)?.type ?? 'string or number'})`).join(', ');
        const file = relativePath(o.cwd, String(row![3 + fields.length + typed.length]));
        throw new CliError(`${file}: values of the wrong type for the ${o.dataset} schema: ${list}; --engine duckdb types fields by the dataset, the built-in evaluator takes any value`, EXIT_USAGE);
      }
    }
    const { damaged, controlBlank: gzipControlBlank } = await gzipCheck;
    if (damaged) throw new CliError(`duckdb: ${damaged}; --engine duckdb does not count such a file (the built-in evaluator, without --engine, counts the lines before the damage)`, EXIT_USAGE);
    // lines DuckDB skipped as blank that the evaluator counts malformed: lines, and malformed
    const plain = await plainControlBlank;
    const unreadable = (await gzipCheck).unreadable ?? plain.unreadable;
    if (unreadable) {
      throw new CliError(`${unreadable}: a line holds an unpaired surrogate (such as "\\ud800"), which the language reads and DuckDB cannot: use the built-in evaluator (no --engine)`, EXIT_USAGE);
    }
    const controlBlank = gzipControlBlank + plain.controlBlank;
    const total = Number(row![0]) + controlBlank;
    const malformed = Number(row![1]) + controlBlank;
    const matched = Number(row![2]);
    // "Carried": some line holds a non-null value for the field.
    const missingFields = ndjsonOnly && total > malformed ? fields.filter((_, i) => Number(row![3 + i]) === 0) : [];

    if (o.emit && o.onOutput) {
      const encoder = new TextEncoder();
      const result = await conn.stream(`SELECT __line FROM ${rows} WHERE ${o.emit === 'match' ? held : `NOT ${held}`} AND __line IS NOT NULL`);
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const lines = chunk.getColumnValues(0) as (string | null)[];
        const pending = o.onOutput(encoder.encode(lines.map((l) => `${l}\n`).join('')));
        if (pending) await pending;
      }
    }

    return {
      total,
      matched,
      malformed,
      validated: true,
      parsed: total,
      bytes: files.bytes,
      seconds: (performance.now() - started) / 1000,
      malformedLines: malformed > 0 && ndjsonFiles.length ? await locateMalformed(ndjsonFiles, o.cwd, Math.min(malformed, MALFORMED_REPORTED)) : [],
      missingFields,
      workers: 0,
      // Inputs this engine could not read fail the whole run (it throws); none is reported here.
      errors: [],
    };
  } catch (e) {
    if (e instanceof CliError) throw e;
    // DuckDB's own errors name the file and what is wrong (unreadable file, bad Parquet), but not for gzip
    // ("Input is not a GZIP stream"): the file is found by reading them here, as the built-in evaluator would.
    const message = (e as Error).message.split('\n')[0];
    const damaged = /gzip|unexpected end of file/i.test(message) ? (await firstDamagedGzip(gzipFiles, o.cwd)).damaged : undefined;
    if (damaged) throw new CliError(`duckdb: ${damaged}; --engine duckdb does not count such a file (the built-in evaluator, without --engine, counts the lines before the damage)`, EXIT_USAGE);
    throw new CliError(`duckdb: ${message}`, EXIT_USAGE);
  } finally {
    conn.closeSync();
    db.closeSync();
  }
}
