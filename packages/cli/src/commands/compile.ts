/**
 * `logfilter compile` and the `compile-filter` command (docs/language.md#command-line): source → filter JSON in
 * one of four formats, diagnostics on stderr, exit 0 compiled / 1 errors / 2 usage or I/O.
 */
import { Command, Option } from 'commander';
import { check, compile, inputKind, pretty, SQL_DIALECTS, toFilterString, toSql, toSqlQuery, toTerraform, type SqlDialectName } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { readInput } from '../io.js';
import { refuseJsonForCompile, refuseRuleForFilter } from '../wrong-command.js';
import { datasetOption, diagnosticsOption, maxBytesOption, maxOperatorsOption, reportDiagnostics } from '../options.js';

export interface CompileFlags {
  dataset?: string;
  format: 'json' | 'pretty' | 'string' | 'terraform';
  maxOperators: number;
  maxBytes: number;
  optimize?: boolean;
  check?: boolean;
  diagnostics: string;
  to: 'json' | 'sql';
  dialect?: SqlDialectName;
  query?: boolean;
  from?: string;
}

/** Adds the compile arguments and options to `cmd` (shared by both spellings of the command). */
export function defineCompile(cmd: Command, ctx: CliContext, setExit: (code: number) => void): Command {
  cmd
    .argument('[file]', 'a .logfilter source (- or nothing: standard input)')
    .addOption(datasetOption())
    .addOption(new Option('--format <format>', 'output: compact JSON, indented JSON, the JSON-encoded string for a job body, or a Terraform jsonencode() expression').choices(['json', 'pretty', 'string', 'terraform']).default('json'))
    .addOption(maxOperatorsOption())
    .addOption(maxBytesOption())
    .option('--optimize', 'merge x == a or x == b into x in [a, b] and drop duplicates (never changes what matches)')
    .option('--check', 'only check: print nothing on stdout')
    .addOption(diagnosticsOption())
    .addOption(new Option('--to <target>', 'what to print: the filter JSON, or a SQL expression (with --dialect)').choices(['json', 'sql']).default('json'))
    .addOption(new Option('--dialect <engine>', 'SQL dialect for --to sql').choices([...SQL_DIALECTS]))
    .option('--query', 'with --to sql: print a whole query (SELECT * FROM <source> WHERE ...;)')
    .option('--from <source>', 'with --query: a table name, or an NDJSON/Parquet file or glob (default: logs)')
    .action(async (file: string | undefined, flags: CompileFlags) => {
      checkSqlFlags(flags, cmd);
      setExit(await runCompile(file, flags, ctx));
    });
  return cmd;
}

/** The SQL flags only make sense together; a lone one is a usage error rather than silently ignored. */
function checkSqlFlags(flags: CompileFlags, cmd: Command): void {
  if (flags.to !== 'sql') {
    for (const f of ['dialect', 'query', 'from'] as const) if (flags[f] !== undefined) throw new UsageError(`--${f} needs --to sql`);
    return;
  }
  if (!flags.dialect) throw new UsageError(`--to sql needs --dialect ${SQL_DIALECTS.join('|')}`);
  if (cmd.getOptionValueSource('format') === 'cli') throw new UsageError('--format applies to --to json; --to sql prints SQL');
  if (flags.from !== undefined && !flags.query) throw new UsageError('--from needs --query');
}

export async function runCompile(file: string | undefined, flags: CompileFlags, ctx: CliContext): Promise<number> {
  const input = await readInput(file, ctx);
  // SQL from a filter that is already JSON (any form decompile accepts): every check of `check` (positions in
  // the JSON text), then the SQL of the canonical JSON check computed (integers exact)
  if (flags.to === 'sql' && inputKind(input.text) === 'json') {
    const checked = check(input.text, { dataset: flags.dataset, maxOperators: flags.maxOperators, maxBytes: flags.maxBytes });
    reportDiagnostics(ctx, input.name, input.text, checked.diagnostics, flags.diagnostics);
    if (!checked.ok || checked.json === undefined) return EXIT_FAILURE;
    if (flags.check) return EXIT_OK;
    return writeSql(checked.json, checked.dataset, input.name, flags, ctx);
  }
  refuseJsonForCompile(input.name, input.text);
  const result = compile(input.text, {
    dataset: flags.dataset,
    maxOperators: flags.maxOperators,
    maxBytes: flags.maxBytes,
    optimize: flags.optimize,
  });
  if (!result.ok) refuseRuleForFilter(input.name, input.text, 'check');
  reportDiagnostics(ctx, input.name, input.text, result.diagnostics, flags.diagnostics);
  if (!result.ok || result.json === undefined) return EXIT_FAILURE;
  if (flags.optimize && flags.diagnostics !== 'json') {
    ctx.stderr.write(`optimized: ${result.stats.operatorsBeforeOptimize} → ${result.stats.operators} operators\n`);
  }
  if (flags.check) return EXIT_OK;
  if (flags.to === 'sql') return writeSql(result.json, result.dataset, input.name, flags, ctx);
  ctx.stdout.write(`${render(result.json, flags.format)}\n`);
  return EXIT_OK;
}

/** Prints the SQL of a checked filter's JSON (an expression, or with --query a whole query). */
function writeSql(json: string, dataset: string, name: string, flags: CompileFlags, ctx: CliContext): number {
  const options = { dialect: flags.dialect!, dataset };
  const sql = flags.query ? toSqlQuery(json, { ...options, from: flags.from }) : toSql(json, options);
  // The JSON is valid; what SQL cannot hold (a key no column name can spell) is the filter's problem.
  if (!sql.ok) throw sqlRefusal(name, sql.diagnostics);
  ctx.stdout.write(`${sql.sql}\n`);
  return EXIT_OK;
}

export function render(json: string, format: CompileFlags['format']): string {
  switch (format) {
    case 'pretty':
      return pretty(json);
    case 'string':
      return toFilterString(json);
    case 'terraform':
      return toTerraform(json);
    default:
      return json;
  }
}

export function registerCompile(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  defineCompile(program.command('compile').description('compile a .logfilter source to the filter JSON of a log export job'), ctx, setExit);
}

/** A filter the SQL back end refuses (exit 1), the reasons in one line naming the input. */
export function sqlRefusal(name: string, diagnostics: readonly { message: string }[]): CliError {
  return new CliError(`${name}: cannot be written as SQL: ${diagnostics.map((d) => d.message).join('; ')}`, EXIT_FAILURE, name);
}
