/** Messages between the main thread and the evaluation workers (see pool.ts and worker.ts). */
import type { FilterDocument } from '@logfilter/core';
import type { RunnerOptions } from './block-runner.js';
import type { TallyData } from './totals.js';

/** Given at spawn time, before the filter is known (workers start while the main thread reads the filter). */
export interface WorkerInit {
  options: RunnerOptions;
  /** Longest line evaluated (line-blocks.ts). */
  maxLine: number;
  /** Bytes a range is read and scanned at a time (job-runner.ts CHUNK_BYTES; smaller in tests). */
  chunkBytes?: number;
  /** Content size up to which a file job is read whole (job-runner.ts WHOLE_FILE_BYTES; smaller in tests). */
  wholeFileBytes?: number;
  /** The main thread's compiled line kernel (see lineKernelModule in the core), when it has one. */
  kernel?: object;
}

/** The init of a worker started before its pool (bin/eval-early-worker.cjs): it had no workerData. */
export interface InitMessage {
  type: 'init';
  init: WorkerInit;
}

export interface FilterMessage {
  type: 'filter';
  filter: FilterDocument;
  /** The main thread's clause order, when it has sampled lines already (BlockScanner.calibration). */
  calibration?: number[];
}

/** Evaluate the lines that start in [start, end) of a plain file. */
export interface RangeJob {
  type: 'range';
  id: number;
  path: string;
  size: number;
  start: number;
  end: number;
}

/** Evaluate a whole file (plain or gzip), streaming it. */
export interface FileJob {
  type: 'file';
  id: number;
  name: string;
  path: string;
  /** Size on disk. */
  size: number;
  gzip: boolean;
}

export type Job = RangeJob | FileJob;

export interface FinishMessage {
  type: 'finish';
}

export type ToWorker = InitMessage | FilterMessage | Job | FinishMessage;

export interface JobResultMessage {
  type: 'result';
  id: number;
  tally: TallyData;
  /** The lines to print (range jobs only), each with its `\n`. */
  out: Uint8Array;
  /** Bytes of the input this job covered, as on disk (for progress). */
  bytes: number;
}

export interface FinalMessage {
  type: 'final';
  seen: string[];
  explain?: number[];
}

export interface ErrorMessage {
  type: 'error';
  message: string;
}

export type FromWorker = JobResultMessage | FinalMessage | ErrorMessage;
