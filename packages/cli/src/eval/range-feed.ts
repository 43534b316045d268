/**
 * The byte ranges of a run's large plain files, handed to the threads as one sequence across the files. Cut
 * file by file, each file's last ranges were a drain: the main thread waited for every range of a file before
 * it handed out the next file's first, so at each file's end one thread sat idle while the other finished
 * (measured on 2 GB, 64 files of 32 MB, the bench's F3: 12 ranges per file, the main thread idle 3-14 ms at
 * most file ends, 80-160 ms of each thread's 1.1-1.4 s). Here the next file's ranges are queued behind the
 * current file's, and ranges shrink only towards the end of the whole run.
 */
import type { JobResultMessage, RangeJob } from './protocol.js';

/** A range of the run's file `file` (an index into the sizes given to cutRanges). */
export interface CutRange {
  file: number;
  start: number;
  end: number;
}

/**
 * The run's files (their sizes, in order) cut into ranges for `threads` threads: at most `rangeBytes` each,
 * never across a file's end, in file order. Towards the run's end ranges shrink (a quarter of the rest for two
 * threads, 1/(2 x threads) of it in general, down to `smallest`), so that the threads finish together instead
 * of one waiting for another's last full range. A file's rest no more than a quarter beyond the range size is
 * taken whole rather than leaving a sliver of a range (files of 32 MB and a few hundred bytes are common).
 */
export function cutRanges(sizes: readonly number[], threads: number, rangeBytes: number, smallest = Math.min(rangeBytes, 1 << 20)): CutRange[] {
  const ranges: CutRange[] = [];
  let left = sizes.reduce((n, s) => n + s, 0);
  sizes.forEach((size, file) => {
    for (let start = 0; start < size; ) {
      const len = Math.min(rangeBytes, Math.max(smallest, Math.ceil(left / (threads * 2))));
      const end = size - start <= len + (len >> 2) ? size : start + len;
      ranges.push({ file, start, end });
      left -= end - start;
      start = end;
    }
  });
  return ranges;
}

/** What the feed needs of the pool (EvalPool; a stand-in in tests). */
export interface RangePool {
  run(job: Omit<RangeJob, 'id'>): Promise<JobResultMessage>;
  /** Drops the jobs not yet handed to a thread (a `--strict` stop): their promises reject. */
  dropQueued(): void;
}

/**
 * Hands a run's ranges to the pool ahead of their use, at most `maxInFlight` beyond the oldest result not yet
 * taken (results hold printed lines until they are applied), and gives the results back in range order.
 */
export class RangeFeed {
  private issued = 0;
  private taken = 0;
  private readonly pending = new Map<number, Promise<JobResultMessage>>();

  constructor(
    private readonly pool: RangePool,
    private readonly ranges: ReadonlyArray<CutRange & { path: string; size: number }>,
    private readonly maxInFlight: number,
  ) {
    this.fill();
  }

  /** The file of the next result to take, or -1 when all are taken. */
  get nextFile(): number {
    return this.taken < this.ranges.length ? this.ranges[this.taken]!.file : -1;
  }

  /** The next range's result, in order; the ranges behind it are handed out meanwhile. */
  take(): Promise<JobResultMessage> {
    const p = this.pending.get(this.taken)!;
    this.pending.delete(this.taken++);
    this.fill();
    return p;
  }

  /** No more results will be taken: the ranges not yet started are dropped. */
  stop(): void {
    this.taken = this.issued = this.ranges.length;
    this.pending.clear();
    this.pool.dropQueued();
  }

  private fill(): void {
    while (this.issued < this.ranges.length && this.issued - this.taken < this.maxInFlight) {
      const { path, size, start, end } = this.ranges[this.issued]!;
      const p = this.pool.run({ type: 'range', path, size, start, end });
      // Rejections are seen where the result is taken (or not at all after a stop).
      p.catch(() => {});
      this.pending.set(this.issued++, p);
    }
  }
}
