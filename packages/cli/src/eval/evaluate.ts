/**
 * Evaluation of a filter over log inputs: streams each input through a BlockRunner on the main thread, or hands
 * a large regular file to worker threads. This is also the library entry for tools (the VS Code extension):
 * `evaluateFile`, `evaluateStream` and `evaluateLines` below.
 */
import path from 'node:path';
import { createExplainer, type FilterDocument } from '@logfilter/core';
import { BlockRunner, type RunnerOptions } from './block-runner.js';
import { lineBlocks } from './line-blocks.js';
import { evaluateFileInWorkers, findWorkerScript, workerCount } from './parallel.js';
import { inspectFile, openBytes, type Source } from './sources.js';
import { Totals } from './totals.js';
import type { EvalOptions, EvalResult } from './types.js';

export interface EvalInput {
  /** Name in reports; for a file, also its path (relative to the working directory). */
  name: string;
  /** A file path; absent when `stream` is given. */
  path?: string;
  /** Raw bytes or text of NDJSON (chunks may cut lines anywhere). */
  stream?: AsyncIterable<Uint8Array | string>;
}

function runnerOptions(o: EvalOptions): RunnerOptions {
  return { validate: o.validate === true, explain: o.explain === true, strict: o.strict === true, emit: o.emit };
}

/** Evaluates the inputs in order, as one run. Throws CliError (exit 2) on unreadable input. */
export async function evaluateInputs(filter: FilterDocument, inputs: readonly EvalInput[], options: EvalOptions = {}): Promise<EvalResult> {
  const started = performance.now();
  const ro = runnerOptions(options);
  const runner = new BlockRunner(filter, ro);
  const totals = new Totals();
  const seen = new Set<string>();
  const explainCounts: number[][] = [];
  let usedWorkers = 0;
  const sources: Array<{ src: Source; stream?: AsyncIterable<Uint8Array | string> }> = inputs.map((i) =>
    i.stream ? { src: { name: i.name, gzip: false }, stream: i.stream } : { src: inspectFile(i.name, path.resolve(i.path ?? i.name)) },
  );
  const totalBytes = sources.every((s) => s.src.size !== undefined) ? sources.reduce((n, s) => n + s.src.size!, 0) : undefined;
  let read = 0;
  const progress = (n: number) => {
    read += n;
    options.onProgress?.(read, totalBytes);
  };

  for (const { src, stream } of sources) {
    if (totals.stoppedAt) break;
    totals.startFile(src.name);
    const count = src.path && src.size !== undefined ? workerCount(options.workers ?? 'auto', src.size) : 0;
    const script = count > 0 ? findWorkerScript(options.workerScript) : undefined;
    if (count > 0 && script && src.path && src.size !== undefined) {
      const out = await evaluateFileInWorkers(filter, { name: src.name, path: src.path, size: src.size }, ro, script, count, totals, options.onOutput, progress, options.rangeBytes);
      out.seen.forEach((f) => seen.add(f));
      explainCounts.push(...out.explain);
      totals.bytes += src.size;
      usedWorkers = Math.max(usedWorkers, count);
      continue;
    }
    for await (const block of lineBlocks(openBytes(src, stream ?? emptyStream(), progress))) {
      if (block.kind === 'too-long') {
        totals.addTooLong();
        totals.bytes += block.bytes + 1;
        if (ro.strict) {
          totals.stoppedAt = totals.malformedLines[totals.malformedLines.length - 1];
          break;
        }
        continue;
      }
      totals.bytes += block.buf.length;
      const r = runner.run(block.buf, 0, block.buf.length);
      totals.add(r.counts, r.malformed);
      if (r.out.length > 0 && options.onOutput) await options.onOutput(r.out);
      if (r.counts.stopped) break;
    }
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
    seconds: (performance.now() - started) / 1000,
    malformedLines: totals.malformedLines,
    missingFields: runner.scanner.fields.filter((f) => !seen.has(f)),
    ...(totals.stoppedAt ? { stoppedAt: totals.stoppedAt } : {}),
    ...(explain ? { explain } : {}),
    workers: usedWorkers,
  };
}

async function* emptyStream(): AsyncGenerator<Uint8Array> {}

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
