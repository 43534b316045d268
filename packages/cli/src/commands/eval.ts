/**
 * `logfilter eval FILTER LOGS...`: runs a filter over NDJSON log lines (files, directories, globs, `.gz`, pipes,
 * `-` for stdin) and reports what it keeps (docs/language.md#evaluation). Exit status: 0 the evaluation ran
 * (whatever matched), 1 the filter has errors, 2 usage or I/O error (an unreadable input among others still
 * leaves the others' counts in the report), or `--strict` met a malformed line.
 */
import { Option, type Command } from 'commander';
import { compile, decompile, exactFilter, type FilterDocument } from '@logfilter/core';
import type { CliContext, Output } from '../context.js';
import { useColor } from '../context.js';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, UsageError } from '../errors.js';
import { readInput, STDIN_NAME } from '../io.js';
import { datasetOption, FLAG_RANGES, intInRange, reportDiagnostics } from '../options.js';
import { refuseParquetForBuiltin, refuseRuleForFilter, refuseSwappedEvalArgs } from '../wrong-command.js';
import { filterInputIsJson } from '../file-language.js';
import { prepareEvaluation, type EvalInput } from '../eval/evaluate.js';
import { expandLogArgs } from '../eval/inputs.js';
import type { ProgressBar } from '../eval/progress-bar.js';
import { renderExplain, renderSummary, toJsonReport } from '../eval/render.js';
import type { EvalResult } from '../eval/types.js';

interface EvalFlags {
  dataset?: string;
  print?: boolean;
  invert?: boolean;
  explain?: boolean;
  json?: boolean;
  validate?: boolean;
  strict?: boolean;
  workers?: number;
  progress: boolean;
  engine: 'builtin' | 'duckdb';
}

const workersArg = intInRange(...FLAG_RANGES.workers);

/** Loads the filter: JSON in any form `decompile` accepts, otherwise `.logfilter` source. */
async function loadFilter(file: string, flags: EvalFlags, ctx: CliContext): Promise<FilterDocument | undefined> {
  const input = await readInput(file, ctx);
  const result = filterInputIsJson(input.name, input.text) ? decompile(input.text, {}) : compile(input.text, { dataset: flags.dataset });
  if (!result.ok || !result.filter) {
    refuseRuleForFilter(input.name, input.text, 'eval');
    reportDiagnostics(ctx, input.name, input.text, result.diagnostics, 'text');
    return undefined;
  }
  reportDiagnostics(ctx, input.name, input.text, result.diagnostics.filter((d) => d.severity === 'error'), 'text');
  // from the canonical JSON, whose integers beyond 2^53 keep their digits: the evaluator compares them exactly
  return result.json === undefined ? result.filter : exactFilter(result.json);
}

/** The terminal stream the progress bar draws on: the process's own behind fd-output.ts, or a test's. */
function terminal(out: Output): NodeJS.WritableStream {
  return ((out as { stream?: NodeJS.WritableStream }).stream ?? out) as NodeJS.WritableStream;
}

/** Writes to stdout, waiting for `drain` when the stream asks, so printing never buffers without bound. */
function writer(out: Output): (bytes: Uint8Array) => void | Promise<void> {
  const stream = out as Output & { once?: (event: string, cb: () => void) => void };
  return (bytes) => {
    const ok = out.write(bytes);
    if (ok === false && typeof stream.once === 'function') return new Promise<void>((resolve) => stream.once!('drain', resolve));
  };
}

export function registerEval(program: Command, ctx: CliContext, setExit: (code: number) => void): void {
  program
    .command('eval')
    .description('run a filter over NDJSON log lines and report what it keeps')
    .argument('<filter>', 'the filter: .logfilter source, or JSON (a filter, its JSON string, a job, or an API response); - for stdin')
    .argument('[logs...]', 'NDJSON log files (plain or gzip), directories (every file under them) or quoted glob patterns; - or nothing (when piped) for standard input')
    .addOption(datasetOption())
    .option('--print', 'print the matching lines, unchanged, on stdout')
    .option('--invert', 'with --print (implied): print the lines that do not match instead')
    .option('--explain', 'count, for each condition and group, the lines it held for')
    .option('--json', 'print one JSON object with the counts (and the explain data) on stdout')
    .option('--validate', 'parse every line, for an exact count of malformed lines')
    .option('--strict', 'stop at the first malformed line (exit 2)')
    .addOption(new Option('--workers <n>', 'worker threads beside the main thread (0: none; default: one per core but one, for large inputs)').argParser(workersArg))
    .option('--no-progress', 'never show a progress bar')
    .addOption(new Option('--engine <engine>', 'builtin, or duckdb: the filter as SQL in an embedded DuckDB (needs @duckdb/node-api; reads Parquet too)').choices(['builtin', 'duckdb']).default('builtin'))
    .action(async (filterFile: string, logs: string[], flags: EvalFlags) => {
      if (flags.invert) flags.print = true;
      if (logs.length === 0) {
        if (ctx.stdin.isTTY) throw new UsageError('no logs: give NDJSON files, or pipe them on standard input (use - to read it explicitly)');
        logs = ['-'];
      }
      if (flags.print && flags.json) throw new UsageError('--json and --print both write to stdout; use one of them');
      refuseSwappedEvalArgs(filterFile, logs);
      const stdinUses = [filterFile, ...logs].filter((f) => f === '-').length;
      if (stdinUses > 1) throw new UsageError('standard input (-) can be read only once');
      if (flags.engine === 'duckdb') {
        // Its own module, loaded only here: the built-in path never pays for it.
        const { runDuckDbEval } = await import('./eval-duckdb.js');
        setExit(await runDuckDbEval(filterFile, logs, flags, ctx));
        return;
      }

      const expanded = await expandLogArgs(logs, ctx.cwd);
      refuseParquetForBuiltin(expanded.flatMap((a) => (a.kind === 'file' ? [a] : [])));
      const inputs: EvalInput[] = expanded.map((a) =>
        a.kind === 'stdin' ? { name: STDIN_NAME, stream: ctx.stdin as AsyncIterable<Uint8Array | string> } : a.kind === 'error' ? { name: a.name, error: a.message } : { name: a.name, path: a.path },
      );
      const color = useColor(ctx);
      let bar: ProgressBar | undefined;
      // Loaded only for a terminal: cli-progress (and the readline it loads) is a few ms of every other start-up.
      const progress = flags.progress && ctx.stderr.isTTY ? await import('../eval/progress-bar.js') : undefined;
      // Workers (when the inputs call for them) start now, while the filter is read and checked.
      const prepared = prepareEvaluation(inputs, {
        validate: flags.validate,
        explain: flags.explain,
        strict: flags.strict,
        emit: flags.print ? (flags.invert ? 'other' : 'match') : undefined,
        onOutput: flags.print ? writer(ctx.stdout) : undefined,
        onProgress: progress ? (read, total) => (bar ??= progress.createProgressBar(terminal(ctx.stderr))).update(read, total) : undefined,
        workers: flags.workers ?? 'auto',
      });

      let filter: FilterDocument | undefined;
      try {
        filter = await loadFilter(filterFile, flags, ctx);
      } finally {
        if (!filter) await prepared.cancel();
      }
      if (!filter) {
        setExit(EXIT_FAILURE);
        return;
      }

      let result: EvalResult;
      try {
        result = await prepared.run(filter);
      } finally {
        bar?.stop();
      }
      // Nothing was read at all: "no line carried the field" would blame the fields for the read errors above.
      if (result.total === 0 && result.errors.length > 0) result = { ...result, missingFields: [] };

      if (flags.json) {
        ctx.stdout.write(`${JSON.stringify(toJsonReport(result))}\n`);
      } else if (flags.explain && result.explain) {
        // The tree goes to stdout unless stdout carries the printed lines.
        (flags.print ? ctx.stderr : ctx.stdout).write(renderExplain(result.explain, useColor(ctx, flags.print ? 'stderr' : 'stdout')));
      }
      ctx.stderr.write(renderSummary(result, color));
      // Exit 2 for an unreadable input or --strict's stop; the counts above still cover what was read.
      setExit(result.stoppedAt || result.errors.length > 0 ? EXIT_USAGE : EXIT_OK);
    });
}
