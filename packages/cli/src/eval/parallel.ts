/**
 * Both cores on a large regular file: the file is cut into fixed byte ranges that workers read themselves;
 * results come back per range and are applied in file order, so printed lines keep their order and line
 * numbers stay exact. At most a few ranges are in flight, so memory stays flat whatever the file size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { FilterDocument } from '@logfilter/core';
import { CliError, EXIT_USAGE } from '../errors.js';
import type { RunnerOptions } from './block-runner.js';
import type { FromWorker, JobResultMessage, WorkerInit } from './protocol.js';
import type { Totals } from './totals.js';

/** Bytes per range: large enough to amortise messages, small enough to keep memory flat. */
export const RANGE_BYTES = 8 << 20;
/** Below this size a single thread finishes before workers would have started. */
export const PARALLEL_MIN_BYTES = 48 << 20;

/** The worker script: given, from the environment, beside the CLI bundle, or beside this compiled module. */
export function findWorkerScript(given?: string): string | undefined {
  const candidates: string[] = [];
  if (given) candidates.push(given);
  if (process.env.LOGFILTER_EVAL_WORKER) candidates.push(process.env.LOGFILTER_EVAL_WORKER);
  // In the CommonJS bundle `__dirname` is the bundle's directory; in ESM it is not defined.
  if (typeof __dirname !== 'undefined') candidates.push(path.join(__dirname, 'eval-worker.cjs'));
  try {
    const url = (import.meta as { url?: string }).url;
    if (url) candidates.push(path.join(path.dirname(fileURLToPath(url)), 'worker.js'));
  } catch {
    // import.meta is empty in the CommonJS bundle
  }
  return candidates.find((c) => fs.existsSync(c));
}

export function workerCount(option: 'auto' | number | undefined, size: number | undefined): number {
  if (typeof option === 'number') return option > 1 ? option : 0;
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  if (cores < 2 || size === undefined || size < PARALLEL_MIN_BYTES) return 0;
  return Math.min(cores, 8);
}

export interface ParallelOutcome {
  seen: Set<string>;
  explain: number[][];
}

export async function evaluateFileInWorkers(
  filter: FilterDocument,
  file: { name: string; path: string; size: number },
  options: RunnerOptions,
  script: string,
  count: number,
  totals: Totals,
  onOutput: ((bytes: Uint8Array) => void | Promise<void>) | undefined,
  onProgress: ((bytes: number) => void) | undefined,
  rangeBytes = RANGE_BYTES,
): Promise<ParallelOutcome> {
  const ranges: Array<[number, number]> = [];
  for (let s = 0; s < file.size; s += rangeBytes) ranges.push([s, Math.min(file.size, s + rangeBytes)]);
  const init: WorkerInit = { filter, options, path: file.path, size: file.size };
  const workers = Array.from({ length: Math.min(count, ranges.length) }, () => new Worker(script, { workerData: init }));
  const outcome: ParallelOutcome = { seen: new Set(), explain: [] };
  const pending = new Map<number, JobResultMessage>();
  const maxInFlight = workers.length * 2 + 1;
  let dispatched = 0;
  let applied = 0;
  let stopped = false;

  try {
    await new Promise<void>((resolve, reject) => {
      let draining = false;
      let finals = 0;
      const idle: Worker[] = [];
      const dispatch = () => {
        while (idle.length > 0 && !stopped && dispatched < ranges.length && dispatched - applied < maxInFlight) {
          const w = idle.shift()!;
          const [start, end] = ranges[dispatched]!;
          w.postMessage({ type: 'job', id: dispatched++, start, end });
        }
        if ((stopped || applied === ranges.length) && !draining) finish();
      };
      let finishing = false;
      const finish = () => {
        if (finishing) return;
        finishing = true;
        for (const w of workers) w.postMessage({ type: 'finish' });
      };
      const drain = async () => {
        if (draining) return;
        draining = true;
        try {
          while (!stopped && pending.has(applied)) {
            const m = pending.get(applied)!;
            pending.delete(applied);
            applied++;
            totals.add(m.counts, m.malformed);
            if (m.out.length > 0 && onOutput) await onOutput(m.out);
            onProgress?.(m.bytes);
            if (m.counts.stopped) stopped = true;
          }
        } catch (e) {
          reject(e);
          return;
        } finally {
          draining = false;
        }
        dispatch();
      };
      workers.forEach((w) => {
        let busy = 0;
        w.on('message', (m: FromWorker) => {
          if (m.type === 'result') {
            busy--;
            pending.set(m.id, m);
            idle.push(w);
            void drain();
          } else if (m.type === 'final') {
            for (const f of m.seen) outcome.seen.add(f);
            if (m.explain) outcome.explain.push(m.explain);
            if (++finals === workers.length) resolve();
          } else {
            reject(new CliError(`cannot read ${file.name}: ${m.message}`, EXIT_USAGE));
          }
        });
        w.on('error', (e) => reject(new CliError(`evaluation worker failed on ${file.name}: ${e.message}`, EXIT_USAGE)));
        w.on('exit', (code) => {
          if (finals < workers.length && code !== 0) reject(new CliError(`evaluation worker stopped on ${file.name} (exit ${code})`, EXIT_USAGE));
        });
        // Two jobs per worker keep it busy while the main thread applies results.
        idle.push(w, w);
        void busy;
      });
      dispatch();
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return outcome;
}
