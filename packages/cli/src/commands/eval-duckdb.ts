/**
 * The `--engine duckdb` branch of `logfilter eval`, in its own module so that the built-in evaluator never
 * loads it: reads the filter (source or JSON, integers exact), runs it in DuckDB, prints what the built-in
 * evaluator prints (summary, `--json`, `--print`).
 */
import { compile, decompile, DEFAULT_DATASET, inputKind } from '@logfilter/core';
import type { CliContext, Output } from '../context.js';
import { useColor } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, UsageError } from '../errors.js';
import { readInput } from '../io.js';
import { reportDiagnostics } from '../options.js';
import { evaluateWithDuckDb } from '../eval/duckdb-engine.js';
import { renderSummary, toJsonReport } from '../eval/render.js';

export interface DuckDbEvalFlags {
  dataset?: string;
  print?: boolean;
  invert?: boolean;
  explain?: boolean;
  json?: boolean;
  strict?: boolean;
  workers?: number;
}

/** Limits do not apply to a filter that is only evaluated (a JSON filter may be any size). */
const NO_LIMITS = { maxOperators: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };

export async function runDuckDbEval(filterFile: string, logs: string[], flags: DuckDbEvalFlags, ctx: CliContext): Promise<number> {
  for (const [flag, set] of [['--explain', flags.explain], ['--strict', flags.strict], ['--workers', flags.workers !== undefined]] as const) {
    if (set) throw new UsageError(`${flag} is not available with --engine duckdb (it counts malformed lines exactly and uses every core itself)`);
  }
  if (logs.includes('-')) throw new UsageError('--engine duckdb reads files, directories and globs, not standard input');

  const input = await readInput(filterFile, ctx);
  let json: string | undefined;
  let dataset = flags.dataset ?? DEFAULT_DATASET;
  if (inputKind(input.text) === 'json') {
    // read as the built-in evaluator reads it (no field checks, no limits); its canonical JSON keeps integers exact
    const d = decompile(input.text, {});
    if (!d.ok || d.json === undefined) {
      reportDiagnostics(ctx, input.name, input.text, d.diagnostics, 'text');
      return EXIT_FAILURE;
    }
    json = d.json;
  } else {
    const r = compile(input.text, { dataset: flags.dataset, ...NO_LIMITS });
    reportDiagnostics(ctx, input.name, input.text, r.diagnostics.filter((x) => x.severity === 'error'), 'text');
    if (!r.ok) return EXIT_FAILURE;
    json = r.json;
    if (r.dataset !== 'any') dataset = r.dataset;
  }
  if (json === undefined) return EXIT_FAILURE;

  const result = await evaluateWithDuckDb({
    json,
    dataset,
    inputs: logs,
    cwd: ctx.cwd,
    emit: flags.print ? (flags.invert ? 'other' : 'match') : undefined,
    onOutput: flags.print ? (bytes) => writeOut(ctx.stdout, bytes) : undefined,
  });
  if (flags.json) ctx.stdout.write(`${JSON.stringify({ ...toJsonReport(result), engine: 'duckdb' })}\n`);
  ctx.stderr.write(renderSummary(result, useColor(ctx)));
  return EXIT_OK;
}

function writeOut(out: Output, bytes: Uint8Array): void | Promise<void> {
  const stream = out as Output & { once?: (event: string, cb: () => void) => void };
  if (out.write(bytes) === false && typeof stream.once === 'function') return new Promise<void>((resolve) => stream.once!('drain', resolve));
}
