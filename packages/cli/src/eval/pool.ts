/**
 * The evaluation workers: spawned as soon as the inputs are known to be large (before the filter is read),
 * given the filter when it is ready, then fed jobs — byte ranges of large plain files, or whole files — that
 * they read themselves. Each worker holds a few jobs (WORKER_JOBS), so some are queued while it runs one. The main
 * thread, which otherwise only waits, takes jobs too: on N cores N-1 workers keep every core busy, and one
 * worker fewer is one start-up (a fresh V8 isolate, Node's internals compiled again) fewer.
 */
import { existsSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { dirname, join as joinPath, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { lineKernelModule, type FilterDocument } from '@logfilter/core';
import { CliError, EXIT_USAGE } from '../errors.js';
import type { RunnerOptions } from './block-runner.js';
import { JobRunner } from './job-runner.js';
import type { FileJob, FromWorker, JobResultMessage, RangeJob, ToWorker, WorkerInit } from './protocol.js';

/** Bytes per range: large enough to amortise messages, small enough to keep memory flat. */
export const RANGE_BYTES = 8 << 20;
/**
 * Jobs a worker holds at once (one running, the rest queued in its port). The main thread hands jobs out only
 * between its own, which take ~10 ms each (8 MB ranges, or longer when the host is busy): with one job queued a
 * worker that finished both before then sat idle (2 GB plain F3, 64 files: a worker idle 75-150 ms of a
 * 1.3-1.8 s run with two; 24-53 ms with three). The ranges shrink towards the run's end, so the jobs a worker
 * still holds then are small.
 */
export const WORKER_JOBS = 3;

/** The worker script: given, from the environment, beside the CLI bundle, or beside this compiled module. */
export function findWorkerScript(given?: string): string | undefined {
  const candidates: string[] = [];
  if (given) candidates.push(given);
  if (process.env.LOGFILTER_EVAL_WORKER) candidates.push(process.env.LOGFILTER_EVAL_WORKER);
  // In the CommonJS bundle `__dirname` is the bundle's directory; in ESM it is not defined.
  if (typeof __dirname !== 'undefined') candidates.push(joinPath(__dirname, 'eval-worker.cjs'));
  try {
    const url = (import.meta as { url?: string }).url;
    if (url) candidates.push(joinPath(dirname(fileURLToPath(url)), 'worker.js'));
  } catch {
    // import.meta is empty in the CommonJS bundle
  }
  return candidates.find((c) => existsSync(c));
}

export function cores(): number {
  return typeof availableParallelism === 'function' ? availableParallelism() : cpus().length;
}

/** Where bin/eval-early-worker.cjs leaves the worker it started. */
const EARLY_WORKER = Symbol.for('logfilter.eval.earlyWorker');

/**
 * The worker started at the launch of `logfilter eval` (bin/eval-early-worker.cjs), if any and if it runs the
 * same script; taken once. It was unref'd so that an unused one never holds the process: ref'd again here.
 */
function adoptEarlyWorker(script: string): Worker | undefined {
  const g = globalThis as { [EARLY_WORKER]?: { worker: Worker; script: string } };
  const early = g[EARLY_WORKER];
  g[EARLY_WORKER] = undefined;
  if (!early) return undefined;
  if (resolvePath(early.script) !== resolvePath(script)) {
    void early.worker.terminate();
    return undefined;
  }
  early.worker.removeAllListeners('error');
  early.worker.ref();
  return early.worker;
}

/** Ends an early worker that no pool adopted (the inputs were too small or streamed). */
export function dropEarlyWorker(): void {
  const g = globalThis as { [EARLY_WORKER]?: { worker: Worker } };
  const early = g[EARLY_WORKER];
  g[EARLY_WORKER] = undefined;
  void early?.worker.terminate();
}

type NewJob = Omit<RangeJob, 'id'> | Omit<FileJob, 'id'>;

/** The main thread's slot in the pool. */
const LOCAL = 'local';

export class EvalPool {
  private workers: Worker[];
  private readonly slots: Array<Worker | typeof LOCAL> = [];
  private readonly local: JobRunner;
  private readonly queue: Array<{ job: RangeJob | FileJob; resolve: (m: JobResultMessage) => void; reject: (e: Error) => void }> = [];
  private readonly waiting = new Map<number, { resolve: (m: JobResultMessage) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  private failure?: Error;
  private finals: Array<{ seen: string[]; explain?: number[] }> = [];
  private onFinal?: () => void;

  private filter?: FilterDocument;
  private pending: number;

  /**
   * `lazy`: the workers are started only by `start()` (a large plain file whose scan may stay on this thread:
   * a worker booting for nothing costs this thread time, the two cores sharing memory bandwidth).
   */
  constructor(
    private readonly script: string,
    count: number,
    private init: WorkerInit,
    lazy = false,
  ) {
    this.local = new JobRunner(init);
    this.workers = [];
    this.pending = count;
    // Last: a worker takes a job first; the main thread takes one when every worker has WORKER_JOBS.
    this.slots.push(LOCAL);
    if (!lazy) this.start();
  }

  /** Starts the workers (once): the one the launcher started early, if any, then new ones. */
  start(): void {
    const count = this.pending;
    this.pending = 0;
    if (count === 0) return;
    // The kernel compiled here goes with the init: the workers share its code, already optimized if it ran.
    const kernel = lineKernelModule();
    if (kernel) this.init = { ...this.init, kernel };
    const calibration = this.local.runner?.scanner.calibration();
    const early = adoptEarlyWorker(this.script);
    if (early) early.postMessage({ type: 'init', init: this.init } satisfies ToWorker);
    // worker_threads (and the ten internal modules it loads) only when a worker is started: an eval of a small
    // input runs on the main thread, and its start-up is part of its time
    const threads = count > (early ? 1 : 0) ? process.getBuiltinModule('node:worker_threads') : undefined;
    const started = Array.from({ length: count }, (_, i) => (i === 0 && early ? early : new threads!.Worker(this.script, { workerData: this.init })));
    for (const w of started) {
      w.on('message', (m: FromWorker) => this.message(w, m));
      w.on('error', (e) => this.fail(new CliError(`evaluation worker failed: ${e.message}`, EXIT_USAGE)));
      w.on('exit', (code) => {
        if (code !== 0 && this.finals.length < this.workers.length) this.fail(new CliError(`evaluation worker stopped (exit ${code})`, EXIT_USAGE));
      });
      // Started after this thread sampled the file's first lines (runRanges): the workers take its clause order.
      if (this.filter) w.postMessage({ type: 'filter', filter: this.filter, calibration } satisfies ToWorker);
      this.workers.push(w);
      this.slots.unshift(...Array<Worker>(WORKER_JOBS).fill(w));
    }
  }

  /** Worker threads started or to be started (`start`). */
  get size(): number {
    return this.workers.length + this.pending;
  }

  /** True once a job went to a worker. */
  used = false;

  /** Whether plain files' ranges go to the workers too (decided once per run by runRanges; see evaluate.ts). */
  rangesInParallel?: boolean;

  /**
   * Ends the workers now when none has been given a job (runRanges chose this thread alone): their memory and
   * their end are not left for the run's end. Later jobs all run on this thread.
   */
  dropUnused(): void {
    this.pending = 0;
    dropEarlyWorker();
    if (this.used || this.workers.length === 0) return;
    const idle = this.workers;
    this.workers = [];
    this.slots.splice(0, this.slots.length, ...this.slots.filter((s) => s === LOCAL));
    for (const w of idle) void w.terminate();
  }

  /** The share of lines this thread's scanner would read past the prefilter, sampled on `buf[0, end)`. */
  readShare(buf: Uint8Array, end: number): number {
    return this.local.readShare(buf, end);
  }

  /** A range job on this thread, now (its slot in the pool is not used). */
  runHere(job: Omit<RangeJob, 'id'>): JobResultMessage {
    if (this.failure) throw this.failure;
    return this.local.range({ ...job, id: this.nextId++ });
  }

  setFilter(filter: FilterDocument): void {
    this.filter = filter;
    for (const w of this.workers) w.postMessage({ type: 'filter', filter });
    this.local.setFilter(filter);
  }

  run(job: NewJob): Promise<JobResultMessage> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ job: { ...job, id: this.nextId++ } as RangeJob | FileJob, resolve, reject });
      this.dispatch();
    });
  }

  /** Drops the jobs not yet handed to a thread: their promises reject (a run that stopped needs none of them). */
  dropQueued(): void {
    for (const q of this.queue.splice(0)) q.reject(new Error('evaluation job dropped'));
  }

  private dispatch(): void {
    while (this.slots.length > 0 && this.queue.length > 0) {
      const w = this.slots.shift()!;
      const { job, resolve, reject } = this.queue.shift()!;
      if (w === LOCAL) this.runLocal(job, resolve, reject);
      else {
        this.waiting.set(job.id, { resolve, reject });
        this.used = true;
        w.postMessage(job);
      }
    }
  }

  /** A job on the main thread, after the messages already waiting (so results keep being applied). */
  private runLocal(job: RangeJob | FileJob, resolve: (m: JobResultMessage) => void, reject: (e: Error) => void): void {
    setImmediate(() => {
      const done = job.type === 'range' ? Promise.resolve().then(() => this.local.range(job)) : this.local.file(job);
      done.then(resolve, reject).finally(() => {
        this.slots.push(LOCAL);
        this.dispatch();
      });
    });
  }

  private message(w: Worker, m: FromWorker): void {
    if (m.type === 'result') {
      const p = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      this.slots.push(w);
      this.dispatch();
      p?.resolve(m);
    } else if (m.type === 'final') {
      this.finals.push(m);
      if (this.finals.length === this.workers.length) this.onFinal?.();
    } else this.fail(new CliError(`evaluation worker failed: ${m.message}`, EXIT_USAGE));
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    for (const p of this.waiting.values()) p.reject(e);
    for (const q of this.queue) q.reject(e);
    this.waiting.clear();
    this.queue.length = 0;
    this.onFinal?.();
  }

  /** Waits for every worker's fields seen and explain counts, then ends the workers. */
  async finish(): Promise<{ seen: string[]; explain: number[][] }> {
    try {
      if (!this.failure) {
        // Wait for the main thread's own jobs too: they end by handing their slot back.
        while (this.slots.filter((x) => x === LOCAL).length === 0) await new Promise((r) => setImmediate(r));
        if (this.workers.length > 0) {
          const done = new Promise<void>((resolve) => (this.onFinal = resolve));
          for (const w of this.workers) w.postMessage({ type: 'finish' });
          await done;
        }
      }
      if (this.failure) throw this.failure;
      const all = [...this.finals, this.local.finish()];
      return { seen: all.flatMap((f) => f.seen), explain: all.flatMap((f) => (f.explain ? [f.explain] : [])) };
    } finally {
      await this.terminate();
    }
  }

  terminate(): Promise<unknown> {
    return Promise.all(this.workers.map((w) => w.terminate()));
  }
}
