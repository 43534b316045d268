/**
 * Evaluation of a filter over log inputs. Each input is read one of three ways:
 *   - on the main thread, streamed (standard input, pipes and FIFOs, small runs, `--print` and `--strict` runs);
 *   - as byte ranges of a large plain file, read by the workers themselves, results applied in file order;
 *   - as a whole file (gzip included) given to one worker, so several files use every core.
 * Results are added up in input order, so line numbers, the first malformed lines and printed lines are the
 * same whichever thread finished first. An input that cannot be read (missing, truncated gzip) is reported
 * with the counts made before the failure; the run goes on with the other inputs.
 *
 * This is also the library entry for tools (the VS Code extension): `evaluateFile`, `evaluateStream` and
 * `evaluateLines` below.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Buffer } from 'node:buffer';
import { createExplainer, type FilterDocument } from '@logfilter/core';
import { BlockRunner, type RunnerOptions } from './block-runner.js';
import { lineBlocks, MAX_LINE_BYTES } from './line-blocks.js';
import { cores, dropEarlyWorker, EvalPool, findWorkerScript, RANGE_BYTES } from './pool.js';
import { enableWasmInlining, inliningPays } from './wasm-inlining.js';
import { JobRunner } from './job-runner.js';
import { cutRanges, RangeFeed } from './range-feed.js';
import type { JobResultMessage, RangeJob } from './protocol.js';
import { inspectFile, openBytes, readError, type Source } from './sources.js';
import { FileTally, Totals, type TallyData } from './totals.js';
import type { EvalOptions, EvalResult } from './types.js';

export interface EvalInput {
  /** Name in reports; for a file, also its path (relative to the working directory). */
  name: string;
  /** A file path; absent when `stream` is given. */
  path?: string;
  /** Raw bytes or text of NDJSON (chunks may cut lines anywhere). */
  stream?: AsyncIterable<Uint8Array | string>;
  /** The input could not be found (e.g. a pattern that matched nothing): reported, the run goes on. */
  error?: string;
}

/** A plain file at least this large is cut into ranges for the workers (below, one thread finishes first). */
export const PARALLEL_MIN_BYTES = 24 << 20;
/** Several files go to the workers when their uncompressed size (gzip counted as GZIP_RATIO times) reaches this. */
export const PARALLEL_FILES_MIN_BYTES = 12 << 20;
const GZIP_RATIO = 6;

type Plan =
  | { mode: 'error'; name: string; error: string }
  | { mode: 'main'; src: Source; stream?: AsyncIterable<Uint8Array | string> }
  | { mode: 'ranges'; src: Source & { path: string; size: number } }
  | { mode: 'file'; src: Source & { path: string } };

function runnerOptions(o: EvalOptions): RunnerOptions {
  return { validate: o.validate === true, explain: o.explain === true, strict: o.strict === true, emit: o.emit };
}

export interface PreparedEvaluation {
  /** Runs the evaluation with the filter (workers, when any, were started by `prepareEvaluation`). */
  run(filter: FilterDocument): Promise<EvalResult>;
  /** Ends the workers without running (e.g. the filter had errors). */
  cancel(): Promise<void>;
}

/**
 * Inspects the inputs and starts the workers they call for, before the filter is known, so that their start-up
 * overlaps the reading and checking of the filter.
 */
export function prepareEvaluation(inputs: readonly EvalInput[], options: EvalOptions = {}): PreparedEvaluation {
  // process.hrtime, not performance.now(): the global `performance` loads perf_hooks (11 modules) at first use
  const started = process.hrtime.bigint();
  const ro = runnerOptions(options);
  const explicit = typeof options.workers === 'number';
  // Worker threads; the main thread works beside them, so `auto` spawns one fewer than the cores.
  const wanted = explicit ? (options.workers as number) : cores() >= 2 ? Math.min(cores(), 8) - 1 : 0;
  const plans: Plan[] = inputs.map((i) => {
    if (i.error) return { mode: 'error', name: i.name, error: i.error };
    if (i.stream) return { mode: 'main', src: { name: i.name, regular: false }, stream: i.stream };
    try {
      const src = inspectFile(i.name, resolvePath(i.path ?? i.name));
      return { mode: 'main', src };
    } catch (e) {
      return { mode: 'error', name: i.name, error: (e as Error).message };
    }
  });
  if (wanted >= 1) {
    // Large plain files: ranges. Other regular files: whole-file jobs, unless output order or --strict's stop
    // needs them read in turn, or they are too few and small to pay for the workers.
    const files: number[] = [];
    let weight = 0;
    plans.forEach((p, i) => {
      if (p.mode !== 'main' || !p.src.regular || p.src.size === undefined) return;
      if (!p.src.gzip && (explicit || p.src.size >= (options.parallelMinBytes ?? PARALLEL_MIN_BYTES))) plans[i] = { mode: 'ranges', src: p.src as Source & { path: string; size: number } };
      else if (!ro.emit && !ro.strict) {
        files.push(i);
        weight += p.src.size * (p.src.gzip ? GZIP_RATIO : 1);
      }
    });
    if (explicit || (files.length >= 2 && weight >= PARALLEL_FILES_MIN_BYTES)) {
      for (const i of files) plans[i] = { mode: 'file', src: (plans[i] as { src: Source & { path: string } }).src };
    }
  }
  const parallel = plans.some((p) => p.mode === 'ranges' || p.mode === 'file');
  const script = parallel ? findWorkerScript(options.workerScript) : undefined;
  if (parallel && !script) {
    // No worker script (an unusual install): everything on the main thread.
    plans.forEach((p, i) => {
      if (p.mode === 'ranges' || p.mode === 'file') plans[i] = { mode: 'main', src: p.src };
    });
  }
  // Before anything compiles the line kernel (see wasm-inlining.ts)
  const weight = plans.reduce((n, p) => n + (p.mode === 'error' || !p.src.regular || p.src.size === undefined ? 0 : p.src.size * (p.src.gzip ? GZIP_RATIO : 1)), 0);
  if (inliningPays(weight, wanted)) enableWasmInlining();
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  // A large plain file alone may keep its scan on this thread (runRanges decides): its workers start only then.
  const lazy = !explicit && !plans.some((p) => p.mode === 'file');
  const pool = script ? new EvalPool(script, wanted, { options: ro, maxLine, chunkBytes: options.chunkBytes, wholeFileBytes: options.wholeFileBytes }, lazy) : undefined;
  if (!pool) dropEarlyWorker();
  return {
    cancel: async () => void (await pool?.terminate()),
    run: (filter) => runPlans(filter, plans, pool, options, ro, maxLine, started),
  };
}

async function runPlans(
  filter: FilterDocument,
  plans: readonly Plan[],
  pool: EvalPool | undefined,
  options: EvalOptions,
  ro: RunnerOptions,
  maxLine: number,
  started: bigint,
): Promise<EvalResult> {
  const runner = new BlockRunner(filter, ro);
  const totals = new Totals();
  const regular = plans.every((p) => p.mode !== 'error' && p.src.regular && p.src.size !== undefined);
  const totalBytes = regular ? plans.reduce((n, p) => n + (p.mode === 'error' ? 0 : p.src.size!), 0) : undefined;
  let read = 0;
  const progress = (n: number) => {
    read += n;
    options.onProgress?.(read, totalBytes);
  };
  const seen = new Set<string>();
  let explainCounts: number[][] = [];
  // Plain files read on this thread, in ranges (the main thread's own evaluation state).
  let local: JobRunner | undefined;
  // The whole run's plain files read in ranges: the size that decides whether sharing them pays (a log export
  // directory holds many files each below that size and far above it together).
  const rangesBytes = plans.reduce((n, p) => n + (p.mode === 'ranges' ? p.src.size : 0), 0);

  try {
    pool?.setFilter(filter);
    // Whole-file jobs are queued at once, the largest first (handOutOrder); their small results are added in
    // input order below.
    const fileResults: Array<Promise<TallyData> | undefined> = [];
    if (pool) {
      for (const i of handOutOrder(plans)) {
        const src = (plans[i] as Plan & { mode: 'file' }).src;
        fileResults[i] = guard(pool.run({ type: 'file', name: src.name, path: src.path, size: src.size ?? 0, gzip: src.gzip === true }).then((m) => (progress(m.bytes), m.tally)));
      }
    }
    // The ranges of this plan and of every later plain file read in ranges, handed out as one sequence (once
    // the first of them is shared with the workers: see range-feed.ts).
    let feed: RangeFeed | undefined;
    const feedFrom = (first: number): RangeFeed => {
      if (feed) return feed;
      const files = plans.flatMap((p, i) => (i >= first && p.mode === 'ranges' ? [i] : []));
      const srcs = files.map((i) => (plans[i] as Plan & { mode: 'ranges' }).src);
      const ranges = cutRanges(srcs.map((s) => s.size), pool!.size + 1, options.rangeBytes ?? RANGE_BYTES).map((r) => ({
        ...r,
        file: files[r.file]!,
        path: srcs[r.file]!.path,
        size: srcs[r.file]!.size,
      }));
      // When lines are printed, a result holds them until it is applied: two ranges per thread plus a few being
      // applied bound that memory. Otherwise results are a few numbers, and a thread that runs ahead (the warm
      // main thread, while a worker is cold) must not wait for the oldest range to be applied.
      return (feed = new RangeFeed(pool!, ranges, options.emit ? (pool!.size + 1) * 2 + 2 : 1 << 16));
    };
    for (let i = 0; i < plans.length; i++) {
      const p = plans[i]!;
      let tally: TallyData;
      if (p.mode === 'error') tally = { ...new FileTally().data(), error: p.error };
      else if (p.mode === 'file') tally = await fileResults[i]!;
      else if (p.mode === 'ranges') tally = await runRanges(p.src, i, pool!, () => feedFrom(i), options, progress, typeof options.workers !== 'number', rangesBytes);
      else if (!p.stream && p.src.regular && p.src.size !== undefined && !p.src.gzip) {
        local ??= new JobRunner({ options: ro, maxLine, chunkBytes: options.chunkBytes }, runner);
        tally = await runLocalRanges(p.src as Source & { path: string; size: number }, local, options, progress);
      } else tally = await runStream(p.src, p.stream, runner, options, ro, maxLine, progress);
      totals.addFile(p.mode === 'error' ? p.name : p.src.name, tally);
      if (tally.stoppedAt !== undefined) {
        feed?.stop();
        break;
      }
    }
    if (pool) {
      const out = await pool.finish();
      out.seen.forEach((f) => seen.add(f));
      explainCounts = out.explain;
    }
  } finally {
    local?.finish();
    await pool?.terminate();
  }

  runner.scanner.seenFields().forEach((f) => seen.add(f));
  let explain;
  if (ro.explain) {
    const merged = createExplainer(filter);
    merged.merge(runner.explainer!.counts());
    for (const c of explainCounts) merged.merge(c);
    explain = merged.report();
  }
  return {
    total: totals.total,
    matched: totals.matched,
    malformed: totals.malformed,
    validated: runner.validating,
    parsed: totals.parsed,
    bytes: totals.bytes,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
    malformedLines: totals.malformedLines,
    missingFields: runner.scanner.fields.filter((f) => !seen.has(f)),
    ...(totals.stoppedAt ? { stoppedAt: totals.stoppedAt } : {}),
    ...(explain ? { explain } : {}),
    workers: pool?.used ? pool.size : 0,
    errors: totals.errors,
  };
}

/**
 * The order whole-file jobs are handed to the threads: the most work first (gzip counted GZIP_RATIO times its
 * size on disk), ties in input order. Each thread takes the next job when it is done with one, so with the
 * large files first the last jobs are the small ones, and no thread waits long for another's last file
 * (in input order a large file near the end could leave one thread alone with it). Indexes into `plans`.
 */
export function handOutOrder(plans: readonly { mode: string; src?: { size?: number; gzip?: boolean } }[]): number[] {
  const work = (i: number) => (plans[i]!.src?.size ?? 0) * (plans[i]!.src?.gzip ? GZIP_RATIO : 1);
  return plans
    .map((p, i) => (p.mode === 'file' ? i : -1))
    .filter((i) => i >= 0)
    .sort((a, b) => work(b) - work(a) || a - b);
}

/** A promise awaited later: marks its rejection as handled now (it is rethrown where it is awaited). */
function guard<T>(p: Promise<T>): Promise<T> {
  p.catch(() => {});
  return p;
}

/** One input on the main thread, streamed block by block; a read failure keeps the counts made before it. */
async function runStream(
  src: Source,
  stream: AsyncIterable<Uint8Array | string> | undefined,
  runner: BlockRunner,
  options: EvalOptions,
  ro: RunnerOptions,
  maxLine: number,
  progress: (n: number) => void,
): Promise<TallyData> {
  const tally = new FileTally();
  try {
    for await (const block of lineBlocks(openBytes(src, stream ?? emptyStream(), progress), maxLine)) {
      if (block.kind === 'too-long') tally.addTooLong(block.bytes, ro.strict);
      else {
        const r = runner.run(block.buf, 0, block.buf.length);
        tally.add(r.counts, r.malformed, block.buf.length);
        if (r.out.length > 0 && options.onOutput) await options.onOutput(r.out);
      }
      if (tally.stopped) break;
    }
  } catch (e) {
    tally.error = readError(src, e).message;
  }
  return tally.data();
}

/**
 * With `--workers` left to its default, the workers may take a plain file's ranges only when the share of its
 * first lines the prefilter lets through reaches this (the scanner's own sample, which also orders its clauses).
 * The default, 0, takes no sample: every run from PARALLEL_RANGES_MIN_BYTES is shared. A bar of 0.5 (kept on
 * one thread: scans that are mostly needle searches) lost on filters whose needle searches are themselves
 * CPU-bound: the bench's random set at 200 MB (7 files), medians of 5 interleaved rounds, load 0.9-1.5, one
 * thread against two: #3 (39% read, 12 conditions) 0.55 / 0.46 s, #4 (nothing read, 28 conditions) 0.53 /
 * 0.46 s; where the needle searches are cheap two threads were level: F1 0.38 / 0.39 s, #1 0.45 / 0.45 s, #8
 * 0.44 / 0.40 s, #9 0.42 / 0.40 s (10-25% more CPU: two threads scanning at once slow each other down).
 */
export const PARALLEL_MIN_READ = 0;
/**
 * ... and only for a run this large (its files read in ranges, together): a worker's start-up and warm-up cost a
 * thread tens of ms, which a shorter scan does not win back. Measured on two cores, a filter that reads every line (the bench's F3), whole process,
 * one thread against two: 40 MB 144 / 180 ms, 64 MB 167 / 197 ms, 100 MB 198 / 203 ms, 130 MB 222 / 216 ms,
 * 160 MB 245 / 228 ms, 200 MB 281 / 250 ms. bin/eval-early-worker.cjs starts its worker from the same size.
 */
export const PARALLEL_RANGES_MIN_BYTES = 128 << 20;
/**
 * ... and, where a share is asked for (parallelMinRead), from this size the workers share the ranges whatever the prefilter lets through: copying the bytes out
 * of the page cache then costs a thread as much as the needle searches (0.55 s of CPU per GB), and two threads
 * share that too. Measured on two cores, quiet, whole process, one thread against two, a log export directory of
 * 32 MB files, the bench's F1 (5% of lines read) and F2: 2 GB F1 1.03-1.07 / 1.01-1.06 s, F2 1.11-1.19 /
 * 0.86-0.92 s; 10 GB F1 4.24-4.64 / 3.06-3.26 s.
 */
export const PARALLEL_ALWAYS_BYTES = 1 << 30;
/** Bytes of a file's head sampled for that choice (a few hundred lines). */
const SAMPLE_BYTES = 1 << 20;

/**
 * A large plain file as byte ranges read by the workers, its results applied in order. When `adaptive`, whether
 * the workers take ranges too is decided once per run, for `runBytes` (all the run's files read in ranges; see
 * PARALLEL_MIN_READ and what follows it).
 */
async function runRanges(
  src: Source & { path: string; size: number },
  file: number,
  pool: EvalPool,
  feedOf: () => RangeFeed,
  options: EvalOptions,
  progress: (n: number) => void,
  adaptive: boolean,
  runBytes = src.size,
): Promise<TallyData> {
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  const tally = new FileTally();
  const apply = rangeApplier(tally, options, progress);
  if (adaptive && pool.rangesInParallel === undefined) {
    const minRead = options.parallelMinRead ?? PARALLEL_MIN_READ;
    // Printing keeps the ranges here: a worker's printed lines cross to this thread and wait there to be
    // written, and its own heap and buffers come on top. Measured with --print on 450 MB where 95% of lines
    // match: peak RSS 244-265 MB shared against 140 MB here, beyond the documented 200 MB.
    // `--workers N` still shares them (the README gives its figure).
    pool.rangesInParallel =
      !options.emit &&
      runBytes >= (options.parallelRangesMinBytes ?? PARALLEL_RANGES_MIN_BYTES) &&
      (runBytes >= (options.parallelAlwaysBytes ?? PARALLEL_ALWAYS_BYTES) || minRead <= 0 || headReadShare(src, pool) >= minRead);
  }
  if (pool.rangesInParallel !== false) pool.start();
  if (adaptive && pool.rangesInParallel === false) {
    pool.dropUnused();
    await rangesHere(src, (job) => pool.runHere(job), apply, tally, rangeBytes);
    return tally.data();
  }
  // This file's ranges, in order, from the run's one sequence (its later files' ranges are already queued).
  const feed = feedOf();
  while (feed.nextFile === file) {
    await apply(await feed.take());
    if (tally.stopped) break;
  }
  return tally.data();
}

/** The share of the file's first lines the prefilter lets through (1 when they cannot be read: the ranges report it). */
function headReadShare(src: Source & { path: string; size: number }, pool: EvalPool): number {
  try {
    const head = Buffer.allocUnsafe(Math.min(src.size, SAMPLE_BYTES));
    const fd = openSync(src.path, 'r');
    try {
      return pool.readShare(head, readSync(fd, head, 0, head.length, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return 1;
  }
}

/**
 * A plain file read on this thread: in byte ranges read synchronously straight into the scanner's block buffer
 * (the line kernel's memory), like the workers' ranges, rather than streamed: no waiting on each chunk, no
 * copy of every byte. A read failure keeps the counts made before it.
 */
async function runLocalRanges(src: Source & { path: string; size: number }, local: JobRunner, options: EvalOptions, progress: (n: number) => void): Promise<TallyData> {
  const tally = new FileTally();
  let id = 0;
  try {
    await rangesHere(src, (job) => local.range({ ...job, id: id++ }), rangeApplier(tally, options, progress), tally, options.rangeBytes ?? RANGE_BYTES);
  } catch (e) {
    tally.error = readError(src, e).message;
  }
  return tally.data();
}

/** Adds a range's result to the file's tally, in file order: counts, printed lines, progress. */
function rangeApplier(tally: FileTally, options: EvalOptions, progress: (n: number) => void): (m: JobResultMessage) => Promise<void> {
  return async (m) => {
    tally.addData(m.tally);
    if (m.out.length > 0 && options.onOutput) await options.onOutput(m.out);
    progress(m.bytes);
  };
}

/** A plain file's ranges run one after another on this thread, until its end or a `--strict` stop. */
async function rangesHere(
  src: Source & { path: string; size: number },
  run: (job: Omit<RangeJob, 'id'>) => JobResultMessage,
  apply: (m: JobResultMessage) => Promise<void>,
  tally: FileTally,
  rangeBytes: number,
): Promise<void> {
  for (let start = 0; start < src.size && !tally.stopped; start += rangeBytes) {
    await apply(run({ type: 'range', path: src.path, size: src.size, start, end: Math.min(src.size, start + rangeBytes) }));
  }
}

async function* emptyStream(): AsyncGenerator<Uint8Array> {}

/** Evaluates the inputs in order, as one run. */
export function evaluateInputs(filter: FilterDocument, inputs: readonly EvalInput[], options: EvalOptions = {}): Promise<EvalResult> {
  return prepareEvaluation(inputs, options).run(filter);
}

/** Evaluates one NDJSON file (plain or gzip). */
export function evaluateFile(filter: FilterDocument, file: string, options: EvalOptions = {}): Promise<EvalResult> {
  return evaluateInputs(filter, [{ name: file, path: file }], options);
}

/** Evaluates NDJSON arriving as chunks of bytes or text (cut anywhere), e.g. a read stream or a socket. */
export function evaluateStream(filter: FilterDocument, chunks: AsyncIterable<Uint8Array | string>, options: EvalOptions & { name?: string } = {}): Promise<EvalResult> {
  return evaluateInputs(filter, [{ name: options.name ?? '<stream>', stream: chunks }], { ...options, workers: 0 });
}

/** Evaluates log lines given one per item (without their `\n`), e.g. lines pasted in an editor. */
export function evaluateLines(
  filter: FilterDocument,
  lines: Iterable<string> | AsyncIterable<string>,
  options: EvalOptions & { name?: string } = {},
): Promise<EvalResult> {
  async function* chunks(): AsyncGenerator<string> {
    for await (const l of lines as AsyncIterable<string>) yield `${l}\n`;
  }
  return evaluateStream(filter, chunks(), options);
}
