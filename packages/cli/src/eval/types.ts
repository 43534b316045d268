/** Options and results of an evaluation run, shared by the streaming and the parallel paths. */
import type { ExplainReport } from '@logfilter/core';

export interface EvalOptions {
  /** Parse every line: exact malformed count (implied by `explain` and `strict`). */
  validate?: boolean;
  /** Count, for every condition and group, the lines it held for. */
  explain?: boolean;
  /** Stop at the first malformed line. */
  strict?: boolean;
  /** Which lines to hand to `onLine`: the matching ones, or the others (`--invert`). */
  emit?: 'match' | 'other';
  /** Receives the emitted lines' bytes, unchanged, each followed by `\n`. May return a promise (backpressure). */
  onOutput?: (bytes: Uint8Array) => void | Promise<void>;
  /** Progress: bytes read so far of `totalBytes` (when known). */
  onProgress?: (bytesRead: number, totalBytes: number | undefined) => void;
  /** Worker threads beside the main thread (which takes jobs too): 'auto' (one fewer than the cores, for large inputs), or a number (0: none). */
  workers?: 'auto' | number;
  /** Path of the worker script; found next to the CLI bundle by default. */
  workerScript?: string;
  /** Bytes per worker range (default 8 MiB); tests use small ranges to cross many range boundaries. */
  rangeBytes?: number;
  /** Bytes a range is read and scanned at a time (default CHUNK_BYTES, 512 KiB); tests use small chunks. */
  chunkBytes?: number;
  /** Content size up to which a file job is read (and inflated) whole (default WHOLE_FILE_BYTES, 32 MiB); for tests. */
  wholeFileBytes?: number;
  /** Longest line evaluated (default MAX_LINE_BYTES, 64 MiB); a longer one is one malformed line in every mode. */
  maxLineBytes?: number;
  /**
   * With `workers: 'auto'`, the share of lines read past the prefilter from which a plain file's ranges go to
   * the workers too (default PARALLEL_MIN_READ, 0: no sample, every run large enough is shared); tests set it
   * to force either choice.
   */
  parallelMinRead?: number;
  /** With `workers: 'auto'`, the size from which a plain file's ranges may go to the workers (default PARALLEL_RANGES_MIN_BYTES; for tests). */
  parallelRangesMinBytes?: number;
  /** With `workers: 'auto'`, the size from which the ranges go to the workers whatever the prefilter lets through (default PARALLEL_ALWAYS_BYTES; for tests). */
  parallelAlwaysBytes?: number;
  /** With `workers: 'auto'`, the size from which a plain file is cut into ranges (default PARALLEL_MIN_BYTES; for tests). */
  parallelMinBytes?: number;
}

/** An input that could not be read to its end; the counts made before the failure stand. */
export interface InputError {
  file: string;
  message: string;
}

export interface MalformedLine {
  file: string;
  /** 1-based physical line number (blank lines count). */
  line: number;
}

/** How many malformed lines are reported by number. */
export const MALFORMED_REPORTED = 10;

export interface EvalResult {
  /** Non-blank lines, malformed included. */
  total: number;
  matched: number;
  /** Exact when `validated`; otherwise the malformed lines among those the evaluator read. */
  malformed: number;
  /** True when every line was parsed (validate, explain or strict). */
  validated: boolean;
  /** Lines decoded and parsed. */
  parsed: number;
  /** Input bytes (uncompressed for .gz). */
  bytes: number;
  seconds: number;
  /** The first malformed lines, by file and line number. */
  malformedLines: MalformedLine[];
  /** Fields the filter reads that no line carried. */
  missingFields: string[];
  /** Set when `strict` stopped the run at a malformed line. */
  stoppedAt?: MalformedLine;
  explain?: ExplainReport;
  /** Worker threads used (0: the main thread did everything, e.g. a plain file whose scan was too short to share). */
  workers: number;
  /** Inputs that could not be read (missing, unreadable, truncated gzip); the run went on with the others. */
  errors: InputError[];
}
