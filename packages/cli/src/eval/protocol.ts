/** Messages between the main thread and the evaluation workers. */
import type { FilterDocument, ScanCounts } from '@logfilter/core';
import type { RunnerOptions } from './block-runner.js';

export interface WorkerInit {
  filter: FilterDocument;
  options: RunnerOptions;
  /** The file every job reads a byte range of. */
  path: string;
  size: number;
}

/** Evaluate the lines that start in [start, end) of the file. */
export interface JobMessage {
  type: 'job';
  id: number;
  start: number;
  end: number;
}

export interface FinishMessage {
  type: 'finish';
}

export interface JobResultMessage {
  type: 'result';
  id: number;
  counts: ScanCounts;
  malformed: number[];
  out: Uint8Array;
  /** Bytes of the file this job covered (for progress). */
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
