/**
 * Runs jobs inline for small documents (fast, no copying) and in one worker thread for large ones, so a
 * 1 MB document never blocks the server: messages keep being read and answered while it compiles.
 */
import { Worker } from 'node:worker_threads';
import { runJob, type Job, type JobResults } from './jobs.js';

/** Below this many UTF-16 units a job takes a few milliseconds: inline is faster than a round trip. */
export const INLINE_LIMIT = 32 * 1024;

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

export class JobRunner {
  private worker: Worker | undefined;
  private workerFailed = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly log: (message: string) => void,
    private readonly entry: string | undefined = process.argv[1],
  ) {}

  run<K extends Job['kind']>(job: Job & { kind: K }): Promise<JobResults[K]> {
    if (job.text.length < INLINE_LIMIT || !this.ensureWorker()) {
      try {
        return Promise.resolve(runJob(job) as JobResults[K]);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    const id = this.nextId++;
    return new Promise<JobResults[K]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker!.postMessage({ id, job });
    });
  }

  /** Runs a job inline whatever its size (for callers that are already off the hot path). */
  runInline<K extends Job['kind']>(job: Job & { kind: K }): JobResults[K] {
    return runJob(job) as JobResults[K];
  }

  dispose(): void {
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private ensureWorker(): boolean {
    if (this.worker) return true;
    if (this.workerFailed || !this.entry) return false;
    try {
      const w = new Worker(this.entry, { stdout: true, stderr: true });
      w.unref();
      w.on('message', (m: { id: number; result?: unknown; error?: string }) => {
        const p = this.pending.get(m.id);
        if (!p) return;
        this.pending.delete(m.id);
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result);
      });
      const fail = (e: Error) => {
        this.log(`compile worker stopped: ${e.message}; large documents are compiled inline until restart`);
        for (const p of this.pending.values()) p.reject(e);
        this.pending.clear();
        this.worker = undefined;
        this.workerFailed = true;
      };
      w.on('error', fail);
      w.on('exit', (code) => {
        if (this.worker === w) fail(new Error(`exit code ${code}`));
      });
      this.worker = w;
      return true;
    } catch (e) {
      this.workerFailed = true;
      this.log(`cannot start the compile worker: ${(e as Error).message}`);
      return false;
    }
  }
}
