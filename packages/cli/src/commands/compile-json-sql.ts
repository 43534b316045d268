/**
 * `compile --to sql` on a filter given as JSON (a filter, its JSON string, a job, an API response): every check
 * of `check` (positions in the JSON text), then the SQL of the same document with its integers exact.
 */
import { check, compile, decompile, readFilterInput, toSql, toSqlQuery } from '@logfilter/core';
import type { CliContext } from '../context.js';
import { CliError, EXIT_FAILURE, EXIT_OK } from '../errors.js';
import type { Input } from '../io.js';
import { reportDiagnostics } from '../options.js';
import { sqlRefusal, type CompileFlags } from './compile.js';

export function jsonToSql(input: Input, flags: CompileFlags, ctx: CliContext): number {
  const checked = check(input.text, { dataset: flags.dataset, maxOperators: flags.maxOperators, maxBytes: flags.maxBytes });
  reportDiagnostics(ctx, input.name, input.text, checked.diagnostics, flags.diagnostics);
  if (!checked.ok) return EXIT_FAILURE;
  const decompiled = decompile(input.text, {});
  // Through the canonical source: the JSON text it compiles to keeps integers beyond 2^53 exact. A key the
  // source cannot spell (a backquote, a line break, a lone surrogate) has no source: the filter's own text is
  // used instead.
  const source = decompiled.source;
  const json =
    (source === undefined ? undefined : compile(source, { dataset: 'any', maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER }).json) ??
    filterText(input.text);
  if (json === undefined) throw new CliError(`${input.name}: no filter found to write as SQL`, EXIT_FAILURE, input.name);
  if (flags.check) return EXIT_OK;
  const options = { dialect: flags.dialect!, dataset: checked.dataset };
  const sql = flags.query ? toSqlQuery(json, { ...options, from: flags.from }) : toSql(json, options);
  if (!sql.ok) throw sqlRefusal(input.name, sql.diagnostics);
  ctx.stdout.write(`${sql.sql}\n`);
  return EXIT_OK;
}

/**
 * The filter document's JSON text inside an input of any form (where readFilterInput found it): the input
 * itself for a bare filter (integers exact), else the string or object at the filter's path.
 */
function filterText(text: string): string | undefined {
  const found = readFilterInput(text);
  if (!found.expr || !found.filterPath) return undefined;
  if (found.filterPath.length === 0 && found.form === 'filter') return text;
  let at: unknown = JSON.parse(text);
  for (const step of found.filterPath) at = (at as Record<string | number, unknown> | undefined)?.[step];
  return typeof at === 'string' ? at : at === undefined ? undefined : JSON.stringify(at);
}
