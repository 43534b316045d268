/**
 * `logfilter schema --dataset D --dialect duckdb|clickhouse [--fields a,b]`: a dataset's column definitions for
 * an engine, typed from the dataset tables, in the form the engine takes them: DuckDB's struct for
 * `read_ndjson(..., columns=...)`, ClickHouse's column list for `CREATE TABLE (...)` and `file(..., 'JSONEachRow', '...')`.
 * Exit 0 printed, 2 usage error (unknown dataset, dialect or field).
 */
import { Option, type Command } from 'commander';
import { columnDefinitions, DATASETS, DEFAULT_DATASET, SQL_DIALECTS, type SqlDialectName } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_OK, UsageError } from '../errors.js';

interface SchemaFlags {
  dataset: string;
  dialect: SqlDialectName;
  fields?: string;
}

export function registerSchema(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('schema')
    .description("print a dataset's column definitions for a SQL engine (types from the dataset tables)")
    .addOption(new Option('--dataset <name>', `dataset (${[...DATASETS.keys()].join(', ')})`).default(DEFAULT_DATASET))
    .addOption(new Option('--dialect <engine>', 'SQL engine').choices([...SQL_DIALECTS]).makeOptionMandatory())
    .option('--fields <list>', 'only these fields, comma-separated, in this order (default: every field)')
    .action((flags: SchemaFlags) => {
      const fields = flags.fields?.split(',').map((f) => f.trim());
      if (fields?.some((f) => f === '')) throw new UsageError(`--fields has an empty name: ${JSON.stringify(flags.fields)}`);
      const result = columnDefinitions({ dataset: flags.dataset, dialect: flags.dialect, fields });
      if (!result.ok) {
        const problems = result.errors.map((e) =>
          e.code === 'unknown-dataset'
            ? `unknown dataset ${e.name} (known: ${[...DATASETS.keys()].join(', ')})`
            : `${e.name} is not a field of ${flags.dataset}${e.suggestions.length ? `; did you mean ${e.suggestions.join(', ')}?` : ''}`,
        );
        throw new UsageError(problems.join('; '));
      }
      ctx.stdout.write(`${result.text}\n`);
      setExit(EXIT_OK);
    });
}
