/**
 * `compile --to sql` on a filter given as JSON (a filter, its JSON string, a job, an API response): every check
 * of `check` (positions in the JSON text), then the SQL of the same document with its integers exact.
 */
import { check, compile, decompile, toSql, toSqlQuery } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { EXIT_FAILURE, EXIT_OK } from '../errors.js';
import type { Input } from '../io.js';
import { reportDiagnostics } from '../options.js';
import type { CompileFlags } from './compile.js';

export function jsonToSql(input: Input, flags: CompileFlags, ctx: CliContext): number {
  const checked = check(input.text, { dataset: flags.dataset, maxOperators: flags.maxOperators, maxBytes: flags.maxBytes });
  reportDiagnostics(ctx, input.name, input.text, checked.diagnostics, flags.diagnostics);
  if (!checked.ok) return EXIT_FAILURE;
  const source = decompile(input.text, {}).source;
  // Through the canonical source: the JSON text it compiles to keeps integers beyond 2^53 exact.
  const json = source === undefined ? undefined : compile(source, { dataset: 'any', maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }).json;
  if (json === undefined) return EXIT_FAILURE;
  if (flags.check) return EXIT_OK;
  const options = { dialect: flags.dialect!, dataset: checked.dataset };
  const sql = flags.query ? toSqlQuery(json, { ...options, from: flags.from }) : toSql(json, options);
  if (!sql.ok) throw new Error(`SQL generation failed: ${sql.diagnostics.map((d) => d.message).join('; ')}`);
  ctx.stdout.write(`${sql.sql}\n`);
  return EXIT_OK;
}
