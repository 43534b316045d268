/**
 * Runs tasks inline for small documents (fast, no copying) and in one worker thread for large ones, so a
 * 1 MB document never blocks the server: messages keep being read and answered while it compiles.
 *
 * The worker gets one task at a time; the others wait here, so a task that an edit has made obsolete (a
 * check of version 5 still waiting when version 6 arrives) is dropped before it starts instead of costing
 * the worker a second on a large document. Its caller gets a ContentModified error, the LSP's word for
 * "the document changed, this answer is no longer wanted".
 */
import { Worker } from 'node:worker_threads';
import { LSPErrorCodes, ResponseError } from 'vscode-languageserver/node.js';
import { runTask, type Task, type TaskResults } from './tasks.js';

/** Below this many UTF-16 units a task takes a few milliseconds: inline is faster than a round trip. */
export const INLINE_LIMIT = 32 * 1024;

/** Which document (and version) a task is for, so a newer version's task can replace an older waiting one. */
export interface TaskSource {
  uri: string;
  version: number;
}

interface Queued {
  id: number;
  task: Task;
  source: TaskSource;
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export function isSuperseded(e: unknown): boolean {
  return e instanceof ResponseError && e.code === LSPErrorCodes.ContentModified;
}

export class TaskRunner {
  private worker: Worker | undefined;
  private workerFailed = false;
  private nextId = 1;
  private inFlight: Queued | undefined;
  private readonly waiting: Queued[] = [];

  constructor(
    private readonly log: (message: string) => void,
    private readonly entry: string | undefined = process.argv[1],
  ) {}

  run<K extends Task['kind']>(task: Task & { kind: K }, source: TaskSource): Promise<TaskResults[K]> {
    if (task.text.length < INLINE_LIMIT || !this.ensureWorker()) {
      try {
        return Promise.resolve(runTask(task) as TaskResults[K]);
      } catch (e) {
        return Promise.reject(e);
      }
    }
    this.dropOlder(task.kind, source);
    return new Promise<TaskResults[K]>((resolve, reject) => {
      this.waiting.push({ id: this.nextId++, task, source, resolve: resolve as (v: unknown) => void, reject });
      this.pump();
    });
  }

  dispose(): void {
    const stopped = new Error('the server is shutting down');
    this.inFlight?.reject(stopped);
    this.inFlight = undefined;
    for (const q of this.waiting.splice(0)) q.reject(stopped);
    void this.worker?.terminate();
    this.worker = undefined;
  }

  /**
   * The document was closed: its waiting tasks are dropped, and a task of it that the worker is running is
   * stopped with the worker (a whole check of a 1 MB filter takes seconds; the next document's check would
   * wait for it). The worker starts again with the next large task.
   */
  forget(uri: string): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const q = this.waiting[i];
      if (q.source.uri !== uri) continue;
      this.waiting.splice(i, 1);
      q.reject(new ResponseError(LSPErrorCodes.ContentModified, `${uri} was closed before it was checked`));
    }
    const running = this.inFlight;
    if (!running || running.source.uri !== uri || !this.worker) return;
    const w = this.worker;
    this.worker = undefined;
    this.inFlight = undefined;
    running.reject(new ResponseError(LSPErrorCodes.ContentModified, `${uri} was closed while it was checked`));
    void w.terminate();
    if (this.waiting.length && this.ensureWorker()) this.pump();
  }

  /** Rejects the waiting tasks of this kind for older versions of the same document. */
  private dropOlder(kind: Task['kind'], { uri, version }: TaskSource): void {
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const q = this.waiting[i];
      if (q.task.kind !== kind || q.source.uri !== uri || q.source.version >= version) continue;
      this.waiting.splice(i, 1);
      q.reject(new ResponseError(LSPErrorCodes.ContentModified, `version ${q.source.version} was replaced by version ${version} before it was checked`));
    }
  }

  private pump(): void {
    if (this.inFlight || !this.worker) return;
    const next = this.waiting.shift();
    if (!next) return;
    this.inFlight = next;
    this.worker.postMessage({ id: next.id, task: next.task });
  }

  private ensureWorker(): boolean {
    if (this.worker) return true;
    if (this.workerFailed || !this.entry) return false;
    try {
      const w = new Worker(this.entry, { stdout: true, stderr: true });
      w.unref();
      // set by the worker's first message, once its code has loaded
      let started = false;
      w.on('message', (m: { id: number; result?: unknown; error?: string; ready?: true }) => {
        if (m.ready) return void (started = true);
        const p = this.inFlight;
        if (!p || p.id !== m.id) return;
        this.inFlight = undefined;
        if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.result);
        this.pump();
      });
      const fail = (e: Error) => {
        this.log(`compile worker stopped: ${e.message}; large documents are compiled inline until restart`);
        this.worker = undefined;
        this.workerFailed = true;
        const lost = this.inFlight;
        this.inFlight = undefined;
        // a task the worker died running might kill this thread too: it fails; tasks it never ran run here
        if (lost && started) lost.reject(e);
        else if (lost) this.waiting.unshift(lost);
        for (const q of this.waiting.splice(0)) {
          try {
            q.resolve(runTask(q.task));
          } catch (err) {
            q.reject(err as Error);
          }
        }
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
